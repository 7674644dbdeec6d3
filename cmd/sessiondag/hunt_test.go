package main

import (
	"bytes"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"sessiondag/checker/harness"
	"sessiondag/ops"
)

// A failure the hunt finds is written as a file on which `sessiondag
// replay` exits 1, and the hunt itself exits 1. The failure is planted: a
// check, registered for the test, that fails on a crash after a retry.
func TestHuntFailureReplays(t *testing.T) {
	planted := harness.Check{Name: "planted-retry-crash", Data: []harness.Data{harness.OffAny}, Run: func(s *harness.Session) *harness.Finding {
		for i, op := range s.Script {
			if _, ok := op.(ops.Retry); ok && slices.ContainsFunc(s.Script[i:], func(o ops.Op) bool { _, c := o.(ops.Crash); return c }) {
				return &harness.Finding{What: "a crash after a retry"}
			}
		}
		return nil
	}}
	saved := harness.Checks
	harness.Checks = append(slices.Clone(saved), planted)
	defer func() { harness.Checks = saved }()

	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	code := run([]string{"hunt", "--seed", "1", "--iterations", "200", "--max-ops", "40", "--check", planted.Name, "--out", out}, &stdout, &stderr)
	if code != 1 {
		t.Fatalf("hunt exited %d, want 1\n%s%s", code, stdout.String(), stderr.String())
	}
	files, _ := filepath.Glob(filepath.Join(out, "*.ops"))
	if len(files) == 0 {
		t.Fatalf("no file written\n%s", stdout.String())
	}
	report := stdout.String()
	for _, f := range files {
		if !strings.Contains(report, "go run ./cmd/sessiondag replay "+f) {
			t.Errorf("the report does not give the replay command of %s", f)
		}
		stdout.Reset()
		if code := run([]string{"replay", f}, &stdout, &stderr); code != 1 || !strings.Contains(stdout.String(), planted.Name) {
			t.Errorf("replay %s exited %d, want 1 with the planted failure:\n%s%s", f, code, stdout.String(), stderr.String())
		}
	}
}
