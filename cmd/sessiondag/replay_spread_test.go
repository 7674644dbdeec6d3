package main

import (
	"bytes"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestReplaySpreadsLongScripts: `replay` of a long session's script runs
// its checks after every op while the session is small, then spread, and
// says after how many ops; the verdict says the same; --every-op runs them
// after every op. A reduced failure or a script of the corpus (a session
// of a few dozen nodes) is checked after every op either way.
func TestReplaySpreadsLongScripts(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "s")
	var out, errs bytes.Buffer
	if code := run([]string{"gen", "--seed", "3", "--nodes", "120", "--out", dir}, &out, &errs); code != 0 {
		t.Fatalf("gen: exit %d %s", code, errs.String())
	}
	script := filepath.Join(dir, "session.ops")
	out.Reset()
	if code := run([]string{"replay", script, "--check", "legacy"}, &out, &errs); code != 0 {
		t.Fatalf("replay: exit %d\n%s%s", code, out.String(), errs.String())
	}
	m := regexp.MustCompile(`the checks ran after (\d+) of the (\d+) ops`).FindStringSubmatch(out.String())
	if m == nil || m[1] == m[2] || !strings.Contains(out.String(), "holds after each op checked") ||
		!strings.Contains(out.String(), "verdict: PASS: checked after "+m[1]+" of the "+m[2]+" ops") {
		t.Fatalf("a long script's replay does not say its checks were spread:\n%s", out.String())
	}
	out.Reset()
	if code := run([]string{"replay", script, "--check", "legacy", "--every-op"}, &out, &errs); code != 0 {
		t.Fatalf("replay --every-op: exit %d\n%s%s", code, out.String(), errs.String())
	}
	if strings.Contains(out.String(), "checks ran after") || !strings.Contains(out.String(), "holds after every op") {
		t.Fatalf("--every-op:\n%s", out.String())
	}
	out.Reset()
	shape := filepath.Join("..", "..", "corpus", "ops", "shapes", "03-tool-heavy.ops")
	if code := run([]string{"replay", shape}, &out, &errs); code != 0 || strings.Contains(out.String(), "checks ran after") {
		t.Fatalf("a corpus script: exit %d\n%s", code, out.String())
	}
}
