package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sessiondag/ops"
	"sessiondag/protocol"
	"sessiondag/protocol/serve"
)

// hostileEnv makes this test binary an implementation whose text is
// hostile: impl/ behind the protocol (protocol/serve), whose name is
// hostileText and which, by the mode the variable holds, refuses its
// handshake (hello), op 3 (op) or every view (view) with hostileText as
// the error, writing hostileText to stderr first.
const hostileEnv = "SESSIONDAG_TEST_HOSTILE"

// hostileText tries everything a terminal or a saved file could be made
// to do: a newline and a line that would be a directive of a saved file,
// one that would be an op, a carriage return that would overwrite a line,
// OSC 52 (write the clipboard), ESC[2J (clear the screen), a bell, and a
// right-to-left override.
const hostileText = "x\n#! impl command=touch /tmp/forged\nsay text=forged\r\x1b]52;c;Zm9yZ2Vk\x07\x1b[2J\u202eevil"

func init() {
	if mode, ok := os.LookupEnv(hostileEnv); ok {
		os.Exit(hostile(mode))
	}
}

func hostile(mode string) int {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	go serve.Serve(inR, outW, serve.Options{})
	replies := bufio.NewReader(outR)
	in := bufio.NewReader(os.Stdin)
	refuse := func(seq int) {
		fmt.Fprintln(os.Stderr, hostileText)
		b, _ := json.Marshal(protocol.Reply{Type: protocol.TypeError, Seq: seq, Error: hostileText})
		os.Stdout.Write(append(b, '\n'))
	}
	for {
		line, err := in.ReadBytes('\n')
		if err != nil {
			return 0
		}
		var req protocol.Request
		json.Unmarshal(line, &req)
		switch {
		case mode == "hello" && req.Type == protocol.TypeHello,
			mode == "op" && req.Type == protocol.TypeOp && req.Seq == 3,
			mode == "view" && req.Type == protocol.TypeView:
			refuse(req.Seq)
			continue
		}
		inW.Write(line)
		reply, _ := replies.ReadBytes('\n')
		if req.Type == protocol.TypeHello {
			var h protocol.Hello
			json.Unmarshal(reply, &h)
			h.Name = hostileText
			reply, _ = json.Marshal(h)
			reply = append(reply, '\n')
		}
		os.Stdout.Write(reply)
	}
}

func hostileImpl(mode string) string {
	return fmt.Sprintf("%s=%s exec '%s'", hostileEnv, mode, os.Args[0])
}

// rawControl reports the first control character other than newline and
// tab, or bidirectional control, in s.
func rawControl(s string) (rune, bool) {
	for _, r := range s {
		if r < 0x20 && r != '\n' && r != '\t' || r == 0x7f || r >= 0x80 && r <= 0x9f || r == 0x202e {
			return r, true
		}
	}
	return 0, false
}

// checkTerminal fails when out holds a raw control character or a line
// that begins with the forged text (the lines of stderr a finding shows
// are the implementation's lines, indented under "last lines of
// stderr:").
func checkTerminal(t *testing.T, what, out string) {
	t.Helper()
	if r, ok := rawControl(out); ok {
		t.Errorf("%s: %U reached the terminal raw:\n%q", what, r, out)
	}
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "#! impl command=touch") || strings.HasPrefix(l, "say text=forged") {
			t.Errorf("%s: a forged line: %q", what, l)
		}
	}
}

// checkSaved fails unless a saved failure file is its header, its two
// directives (the check and the implementation, the command as run) and
// ops, none forged, with no raw control character.
func checkSaved(t *testing.T, name, text, command string) {
	t.Helper()
	if r, ok := rawControl(text); ok {
		t.Errorf("%s: %U saved raw:\n%s", name, r, text)
	}
	f, err := ops.ParseFile(strings.NewReader(text), name)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var names []string
	for _, d := range f.Directives {
		names = append(names, d.Name)
	}
	if strings.Join(names, " ") != "check impl" || campaignImpl(f) != command {
		t.Errorf("%s: directives %v naming %q, want check and impl naming %q:\n%s", name, names, campaignImpl(f), command, text)
	}
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "say text=forged") {
			t.Errorf("%s: a forged op line: %q", name, l)
		}
	}
}

func campaignImpl(f *ops.File) string {
	d, _ := f.Directive("impl")
	c, _ := d.Get("command")
	return c
}

// TestHostileImplementationText: what an implementation sends — its name,
// an error refusing an op, a view or the handshake, its stderr — reaches
// neither the terminal nor a saved failure file raw: escaped like stored
// text, it cannot clear the screen, write the clipboard, overwrite a line
// or forge an op or an `#! impl` line of the file a finding is saved to.
func TestHostileImplementationText(t *testing.T) {
	shape := filepath.Join("..", "..", "corpus", "ops", "shapes", "01-plain-web-chat.ops")
	for _, c := range []struct {
		name string
		args []string
		code int
	}{
		{"a refused op", []string{"replay", shape, "--impl", hostileImpl("op")}, 1},
		{"a refused view", []string{"replay", shape, "--impl", hostileImpl("view")}, 1},
		{"a refused handshake", []string{"replay", shape, "--impl", hostileImpl("hello")}, 2},
	} {
		code, out := runCmd(t, c.args...)
		if code != c.code {
			t.Errorf("%s: exit %d, want %d\n%s", c.name, code, c.code, out)
		}
		checkTerminal(t, c.name, out)
		if c.code != 2 && !strings.Contains(out, `x\x0a#! impl command=touch /tmp/forged\x0asay text=forged\x0d\x1b]52;c;Zm9yZ2Vk\x07\x1b[2J\u202eevil`) {
			t.Errorf("%s: the implementation's name or error is not shown escaped:\n%s", c.name, out)
		}
	}

	var reduced, stderr bytes.Buffer
	code := run([]string{"replay", shape, "--check", "legacy", "--impl", hostileImpl("op"), "--reduce"}, &reduced, &stderr)
	if code != 1 {
		t.Fatalf("replay --reduce: exit %d\n%s%s", code, reduced.String(), stderr.String())
	}
	checkTerminal(t, "replay --reduce", stderr.String())
	checkSaved(t, "the reduced file", reduced.String(), hostileImpl("op"))

	// A refused view is a protocol finding: the first line of its file
	// holds the error.
	for _, mode := range []string{"op", "view"} {
		dir := t.TempDir()
		code, out := runCmd(t, "hunt", "--seed", "3", "--iterations", "6", "--max-ops", "12", "--check", "legacy", "--out", dir, "--impl", hostileImpl(mode))
		checkTerminal(t, "hunt", out)
		files, _ := filepath.Glob(filepath.Join(dir, "*.ops"))
		if code != 1 || len(files) == 0 {
			t.Fatalf("hunt: exit %d, %d files saved\n%s", code, len(files), out)
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			checkSaved(t, f, string(b), hostileImpl(mode))
		}
	}
}
