package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestImplLineRunsNothingUnasked: a file's `#! impl` line is a suggestion.
// A replay of the file runs nothing — the command would leave a marker
// file — and says what the line names, escaped, and how to run it (exit
// 2); --run-impl runs it, and so does SESSIONDAG_RUN_IMPL=1; --impl= replays
// the file in-process, the line left alone.
func TestImplLineRunsNothingUnasked(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "ran")
	chat, err := os.ReadFile(filepath.Join("..", "..", "corpus", "ops", "shapes", "01-plain-web-chat.ops"))
	if err != nil {
		t.Fatal(err)
	}
	command := "touch '" + marker + "'; " + served("") + " # \x1b]52;c;Zm9yZ2Vk\x07"
	file := filepath.Join(dir, "found.ops")
	text := "#! impl command=" + strconv.Quote(command) + "\n" + string(chat)
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	ran := func() bool { _, err := os.Stat(marker); return err == nil }

	code, out := runCmd(t, "replay", file)
	if code != 2 || ran() {
		t.Fatalf("replay of a file naming an implementation, unasked: exit %d (want 2), ran it: %v\n%s", code, ran(), out)
	}
	for _, want := range []string{"touch '" + marker + "'", "--run-impl", runImplEnv + "=1", "--impl="} {
		if !strings.Contains(out, want) {
			t.Errorf("the output does not say %q:\n%s", want, out)
		}
	}
	if strings.ContainsAny(out, "\x1b\x07") {
		t.Errorf("the file's command reached the terminal raw:\n%q", out)
	}

	if code, out := runCmd(t, "replay", file, "--impl="); code != 0 || ran() {
		t.Fatalf("replay in-process: exit %d, ran it: %v\n%s", code, ran(), out)
	}
	if code, out := runCmd(t, "replay", file, "--run-impl"); code != 0 || !ran() {
		t.Fatalf("replay --run-impl: exit %d, ran it: %v\n%s", code, ran(), out)
	}
	os.Remove(marker)
	t.Setenv(runImplEnv, "1")
	if code, out := runCmd(t, "replay", file); code != 0 || !ran() {
		t.Fatalf("replay with %s=1: exit %d, ran it: %v\n%s", runImplEnv, code, ran(), out)
	}
}
