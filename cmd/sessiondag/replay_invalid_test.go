package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReplayOfAnInvalidScriptIsUndecided: a script no kind of data admits
// (here an op the models refuse: a tool call of a web turn whose stream R
// aborted after a stop) is judged by nothing, so its replay is undecided,
// naming the op the models refuse, never a pass.
func TestReplayOfAnInvalidScriptIsUndecided(t *testing.T) {
	path := filepath.Join(t.TempDir(), "invalid.ops")
	script := "user id=u1 text=hi\nreply\ncancel\nuser id=u2 text=hi\nreply\ntool call=c1 name=grep args=\"{}\" result=ok\n"
	if err := os.WriteFile(path, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out := runCmd(t, "replay", path)
	if code != 3 || !strings.Contains(out, "verdict: UNDECIDED") || !strings.Contains(out, "model.Legacy refuses op 6 (tool call=c1") {
		t.Fatalf("replay of an invalid script: exit %d, want 3 naming op 6\n%s", code, out)
	}
}
