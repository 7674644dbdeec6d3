package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestImplTimeoutRefusesWhatIsNoDeadline: --impl-timeout of NaN, an
// infinity, a negative number, zero or a number too small to be a
// deadline at all is refused naming the flag (exit 2), never turned into
// the default silently.
func TestImplTimeoutRefusesWhatIsNoDeadline(t *testing.T) {
	shape := filepath.Join("..", "..", "corpus", "ops", "shapes", "01-plain-web-chat.ops")
	for _, v := range []string{"NaN", "Inf", "-Inf", "1e-12", "0", "-1", "1e300"} {
		code, out := runCmd(t, "replay", shape, "--impl", served(""), "--impl-timeout", v)
		if code != 2 || !strings.Contains(out, "--impl-timeout ") || !strings.Contains(out, "want a number of seconds from 0.001 to 86400") {
			t.Errorf("--impl-timeout %s: exit %d, want 2 naming the flag\n%s", v, code, out)
		}
		if strings.Contains(out, "verdict:") {
			t.Errorf("--impl-timeout %s: a verdict was given:\n%s", v, out)
		}
	}
	for _, v := range []string{"0", "-3", "5000"} {
		if code, out := runCmd(t, "replay", shape, "--impl", served(""), "--impl-max-reply", v); code != 2 || !strings.Contains(out, "--impl-max-reply "+v) {
			t.Errorf("--impl-max-reply %s: exit %d, want 2 naming the flag\n%s", v, code, out)
		}
	}
}

// TestReplyBound: a view reply longer than --impl-max-reply is a protocol
// finding saying so, not read; the finding and the ops it names are shown
// cut, not whole.
func TestReplyBound(t *testing.T) {
	big := filepath.Join(t.TempDir(), "big.ops")
	text := "user id=u1 text=" + strings.Repeat("a", 1<<20) + "\nreply\n"
	if err := os.WriteFile(big, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out := runCmd(t, "replay", big, "--check", "legacy", "--impl", served("--flags off"), "--impl-max-reply", "1", "--impl-timeout", "60")
	if code != 1 || !strings.Contains(out, "a reply line longer than 1 MiB, the bound of a reply (--impl-max-reply); not read") {
		t.Fatalf("exit %d, want 1 with the bound's finding\n%.2000s", code, out)
	}
	if len(out) > 8<<10 {
		t.Errorf("the finding of a 1 MiB op takes %d bytes to print:\n%.2000s", len(out), out)
	}
	if code, out := runCmd(t, "replay", big, "--check", "legacy", "--impl", served("--flags off"), "--impl-max-reply", "16", "--impl-timeout", "60"); code != 0 {
		t.Fatalf("within the bound: exit %d\n%.2000s", code, out)
	}
}
