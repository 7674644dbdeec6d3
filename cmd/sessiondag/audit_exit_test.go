package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAuditExitsOneOnABrokenSession: a session whose history file was cut
// short is broken, and a broken session blocks the rollout
// (docs/rollout.md §8.4, §6): NOT READY and exit 1, although no step
// changes the plain chat's view and nothing else fails.
func TestAuditExitsOneOnABrokenSession(t *testing.T) {
	root := t.TempDir()
	sess := filepath.Join(root, "s")
	copySession(t, filepath.Join("..", "..", "corpus", "sessions", "01-plain-web-chat"), sess)
	nodes, err := filepath.Glob(filepath.Join(sess, "history", "*.json"))
	if err != nil || len(nodes) == 0 {
		t.Fatalf("no history files: %v", err)
	}
	last := nodes[len(nodes)-1]
	b, err := os.ReadFile(last)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(last, b[:len(b)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	code := run([]string{"audit", root}, &out, &errb)
	if code != 1 || !strings.Contains(out.String(), "broken sessions 1,") || !strings.Contains(out.String(), "regressions 0 ") || !strings.Contains(out.String(), "NOT READY") {
		t.Errorf("exit %d, want 1 (NOT READY with one broken session and no regression)\n%s%s", code, out.String(), errb.String())
	}
}
