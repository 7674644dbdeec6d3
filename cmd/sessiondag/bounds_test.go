package main

import (
	"bufio"
	"fmt"
	"io"
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

// alterEnv makes this test binary a filter of an implementation's replies:
// in each line that holds the mark, every string ending in "aaaa" ends in
// "aaab" instead; other lines pass as they are, each flushed at once.
const alterEnv = "SESSIONDAG_TEST_ALTER"

func alterReplies(mark string, in io.Reader, out io.Writer) int {
	r, w := bufio.NewReaderSize(in, 1<<20), bufio.NewWriter(out)
	for {
		line, err := r.ReadString('\n')
		if strings.Contains(line, mark) {
			line = strings.ReplaceAll(line, `aaaa"`, `aaab"`)
		}
		if _, werr := w.WriteString(line); werr != nil || w.Flush() != nil {
			return 1
		}
		if err != nil {
			return 0
		}
	}
}

// TestLargeViewDiffIsBounded: an implementation whose view of a long
// conversation differs from the model's in every message (each of a dozen
// long texts cut differently at its end) is a finding whose diff is the
// first differences, each cut around where it differs, then the count of
// the rest: a few kilobytes for views of a hundred, never the views.
func TestLargeViewDiffIsBounded(t *testing.T) {
	script := filepath.Join(t.TempDir(), "long.ops")
	var b strings.Builder
	for i := range 6 {
		fmt.Fprintf(&b, "user id=u%d text=%s\nreply\nsay text=%s\ndone\n", i, strings.Repeat("a", 12<<10), strings.Repeat("a", 6<<10))
	}
	b.WriteString("user id=last text=MARK\nreply\nsay text=ok\ndone\n")
	if err := os.WriteFile(script, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	impl := served("--flags off") + " | " + alterEnv + "=MARK exec '" + os.Args[0] + "'"
	code, out := runCmd(t, "replay", script, "--check", "legacy", "--impl", impl, "--impl-timeout", "60")
	want := []string{
		"differs from model.Legacy in view messages, after op 25",
		"12 differences (-want +got), the first 5:\n[0].content: ",
		`(12288 and 12288 bytes, first different at byte 12287)`,
		"… and 7 more\n",
	}
	for _, w := range want {
		if code != 1 || !strings.Contains(out, w) {
			t.Fatalf("exit %d, want 1 and %q in:\n%.3000s", code, w, out)
		}
	}
	// The script (cut op by op) and the diff; not a view of 110 KB.
	if len(out) > 8<<10 {
		t.Errorf("the finding takes %d bytes to print:\n%.3000s", len(out), out)
	}
}
