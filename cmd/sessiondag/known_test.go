package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReplayWithKnownFindings: a finding of a class the known file accepts
// is reported as known and the replay passes; without the file, or with
// the entry expired, the same replay fails. The entry is the finding's own
// reduced script (replay --reduce), as a reviewer would keep it. Each
// replay says what each entry accepted, or that it matched nothing.
func TestReplayWithKnownFindings(t *testing.T) {
	chat := filepath.Join("..", "..", "corpus", "ops", "shapes", "01-plain-web-chat.ops")
	// The target's writers with the pair taken out of the hello: the view
	// after the user op shows the reply's row (TestTogether).
	undeclared := served("--flags all --mint --together user+reply") + ` | sed -u 's/,"together":\[\["user","reply"\]\]//'`
	dir := t.TempDir()
	var reduced, stderr bytes.Buffer
	code := run([]string{"replay", chat, "--check", "target", "--impl", undeclared, "--reduce"}, &reduced, &stderr)
	if code != 1 || !strings.Contains(reduced.String(), "#! check name=target") {
		t.Fatalf("replay --reduce: exit %d\n%s%s", code, reduced.String(), stderr.String())
	}
	script := filepath.Join(dir, "target-shows-reply-early.ops")
	if err := os.WriteFile(script, reduced.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	known := filepath.Join(dir, "known.json")
	write := func(entry string) {
		if err := os.WriteFile(known, []byte(`{"known": [`+entry+`]}`), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(`{"script": "target-shows-reply-early.ops", "reason": "writes the reply's row with the user's"}`)
	code, out := runCmd(t, "replay", chat, "--check", "target", "--impl", undeclared, "--known", known)
	if code != 0 || !strings.Contains(out, "known finding (target-shows-reply-early.ops): target") ||
		!strings.Contains(out, "known: target-shows-reply-early.ops accepted 1 finding:") ||
		!strings.Contains(out, "verdict: PASS: 1 findings of known classes") {
		t.Fatalf("with the known file: exit %d\n%s", code, out)
	}
	// Where the class does not show (the writers declare the pair), the
	// entry is named as having matched nothing: stale, once fixed.
	declared := served("--flags all --mint --together user+reply")
	code, out = runCmd(t, "replay", chat, "--check", "target", "--impl", declared, "--known", known)
	if code != 0 || !strings.Contains(out, "known: target-shows-reply-early.ops matched nothing in this run") {
		t.Fatalf("with the known file, its class fixed: exit %d, want 0 naming the entry\n%s", code, out)
	}
	write(`{"script": "target-shows-reply-early.ops", "reason": "r", "expires": "2020-01-01"}`)
	if code, out := runCmd(t, "replay", chat, "--check", "target", "--impl", undeclared, "--known", known); code != 1 {
		t.Fatalf("with the entry expired: exit %d, want 1\n%s", code, out)
	}
	if code, out := runCmd(t, "replay", chat, "--check", "target", "--impl", undeclared); code != 1 {
		t.Fatalf("without the known file: exit %d, want 1\n%s", code, out)
	}
}
