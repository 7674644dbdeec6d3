package main

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"sessiondag/checker/robust"
	"sessiondag/impl/node"
	"sessiondag/internal/jsonstream"
)

// loadTree builds a hostile tree and runs `sessiondag load DIR args...` on
// it, within a time limit.
func loadTree(t *testing.T, name string, size int, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	tr, ok := robust.TreeNamed(name)
	if !ok {
		t.Fatalf("no tree %s", name)
	}
	dir, err := tr.Build(memTempDir(t), size)
	if err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	done := make(chan int, 1)
	go func() { done <- run(append([]string{"load", dir}, args...), &out, &errb) }()
	select {
	case code = <-done:
	case <-time.After(30 * time.Second):
		t.Fatalf("load of %s did not return", name)
	}
	return out.String(), errb.String(), code
}

// memTempDir is a temporary directory in memory (/dev/shm) when the system
// has one: creating thousands of files on a disk shared with other jobs'
// fsyncs takes seconds.
func memTempDir(t *testing.T) string {
	t.Helper()
	if d, err := os.MkdirTemp("/dev/shm", "sessiondag-load-"); err == nil {
		t.Cleanup(func() { os.RemoveAll(d) })
		return d
	}
	return t.TempDir()
}

// TestLoadTranscriptIsTerminalSafe: escapes stored in message text, ids and
// names reach the terminal as visible text, never as control characters.
func TestLoadTranscriptIsTerminalSafe(t *testing.T) {
	out, _, code := loadTree(t, "control-text", 0)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for i, r := range out {
		if r < 0x20 && r != '\n' || r == 0x7f || r >= 0x80 && r <= 0x9f || r == 0x202e {
			t.Fatalf("control character %U at byte %d of %q", r, i, out)
		}
	}
	for _, want := range []string{`0a0b\x1b[2J0c0d`, `hello \x1b]52;c;SGVsbG8=\x07 \x1b[1A\x0d\u202eevil`, `\x1b[31mred\x1b[0m`} {
		if !strings.Contains(out, want) {
			t.Errorf("the transcript does not show %s:\n%s", want, out)
		}
	}
}

// TestLoadJSONIsUTF8: a session directory whose name is not UTF-8 gives
// valid UTF-8 JSON, its undecodable bytes written as Python's file system
// decoding gives them (\udcXX).
func TestLoadJSONIsUTF8(t *testing.T) {
	out, _, code := loadTree(t, "non-utf8-dir", 10, "--json")
	if code != 0 || !utf8.ValidString(out) || !json.Valid([]byte(out)) {
		t.Fatalf("exit %d, valid UTF-8 %v, valid JSON %v", code, utf8.ValidString(out), json.Valid([]byte(out)))
	}
	if !strings.HasPrefix(out, `{"session_id":"local_\udcff\udcfe",`) {
		t.Errorf("session_id: %.60s", out)
	}
}

// TestLoadJSONDeeperThanADecoder: a card whose tree nests past encoding/
// json's 10,000 levels is written whole.
func TestLoadJSONDeeperThanADecoder(t *testing.T) {
	out, stderr, code := loadTree(t, "deep-json", 5001, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	deepest, err := jsonstream.Check(strings.NewReader(out))
	if err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	if deepest <= 10000 {
		t.Errorf("nesting %d: the tree is not deeper than a decoder's bound", deepest)
	}
}

// TestLoadKeepsLoneSurrogatesApart: two users whose ids are the lone
// surrogates \ud800 and \ud801 stay two users, each with its reply, in the
// transcript and in the JSON.
func TestLoadKeepsLoneSurrogatesApart(t *testing.T) {
	out, _, _ := loadTree(t, "lone-surrogates", 0)
	if !strings.Contains(out, `user \xed\xa0\x80`) || !strings.Contains(out, `user \xed\xa0\x81`) {
		t.Errorf("transcript:\n%s", out)
	}
	js, _, _ := loadTree(t, "lone-surrogates", 0, "--json")
	v, err := node.ParseString(strings.TrimSpace(js))
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, m := range v.O.Get("chain").A {
		rows = append(rows, m.O.Get("id").S+" ← "+m.O.Get("parent_id").Str())
	}
	a, b := `"\ud800"`, `"\ud801"`
	p := func(s string) string { v, _ := node.ParseString(s); return v.S }
	want := []string{p(a) + " ← ROOT", p(`"\ud800_REPLY"`) + " ← " + p(a), p(b) + " ← " + p(`"\ud800_REPLY"`), p(`"\ud801_REPLY"`) + " ← " + p(b)}
	if strings.Join(rows, "\n") != strings.Join(want, "\n") {
		t.Errorf("chain %q, want %q", rows, want)
	}
}

// TestLoadSaysWhatItRefused: a head naming no node, a FIFO, a link to
// another node file: the view is printed, stderr names the file, exit 1.
func TestLoadSaysWhatItRefused(t *testing.T) {
	for name, phrase := range map[string]string{
		"unknown-head": "meta.json: head_id \"0f0f0f0f_reply\" names no node",
		"fifo-node":    "history/0003-u-fifo00000001.json: not a regular file (a named pipe)",
		"link-dup":     "history/0001-u-0a0b0c0c.json: same file as history/0001-u-0a0b0c0d.json",
	} {
		out, stderr, code := loadTree(t, name, 0)
		if code != 1 || !strings.Contains(stderr, phrase) || !strings.HasPrefix(out, "session ") {
			t.Errorf("%s: exit %d, stderr %q, stdout %.40q", name, code, stderr, out)
		}
	}
}
