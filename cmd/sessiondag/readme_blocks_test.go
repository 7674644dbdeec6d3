package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// toolEnv makes this test binary `sessiondag` itself (TestMain), so that a
// shell runs the commands the README shows.
const toolEnv = "SESSIONDAG_TEST_AS_TOOL"

// A console block of a document: the commands it shows (`$ …` lines, with
// an optional `# exit N` at the end, 0 by default) and the output each
// prints. An output line `…` stands for any number of lines.
type consoleRun struct {
	command string
	exit    int
	want    []string
	line    int // of the command in the document
	block   int // which console block of the document, from 1
}

var exitNote = regexp.MustCompile(`\s+# exit (\d+)$`)

// consoleBlocks reads the ```console blocks of a markdown document. A
// fenced block that shows a `$ ` command but is not marked console is an
// error: every command a document shows is run.
func consoleBlocks(doc []byte) ([]consoleRun, error) {
	var out []consoleRun
	inBlock, console, block := false, false, 0
	for i, l := range strings.Split(string(doc), "\n") {
		switch {
		case strings.HasPrefix(l, "```") && !inBlock:
			inBlock, console = true, strings.TrimSpace(strings.TrimPrefix(l, "```")) == "console"
			if console {
				block++
			}
		case strings.HasPrefix(l, "```"):
			inBlock = false
		case inBlock && strings.HasPrefix(l, "$ ") && !console:
			return nil, fmt.Errorf("line %d: a command in a block not marked console: %s", i+1, l)
		case inBlock && console && strings.HasPrefix(l, "$ "):
			r := consoleRun{command: strings.TrimPrefix(l, "$ "), line: i + 1, block: block}
			if m := exitNote.FindStringSubmatch(r.command); m != nil {
				r.exit, _ = strconv.Atoi(m[1])
				r.command = strings.TrimSuffix(r.command, m[0])
			}
			out = append(out, r)
		case inBlock && console && len(out) > 0:
			out[len(out)-1].want = append(out[len(out)-1].want, l)
		}
	}
	return out, nil
}

// timings are the durations a run prints, which no two runs share.
var timings = regexp.MustCompile(`\b\d+(\.\d+)?(s|ms|µs)\b`)

// matchLines reports whether got matches want, `…` in want standing for any
// run of lines; durations are compared as durations, not values.
func matchLines(want, got []string) bool {
	// go-cmp writes a diff line's marker followed by a space or, at random,
	// a no-break space, so that no golden holds its output: a document shows
	// the space.
	norm := func(s string) string {
		return timings.ReplaceAllString(strings.TrimRight(strings.ReplaceAll(s, "\u00a0", " "), " "), "<t>")
	}
	for len(want) > 0 && want[len(want)-1] == "" {
		want = want[:len(want)-1]
	}
	for len(got) > 0 && got[len(got)-1] == "" {
		got = got[:len(got)-1]
	}
	if len(want) == 0 {
		return len(got) == 0
	}
	if strings.TrimSpace(want[0]) == "…" {
		for k := 0; k <= len(got); k++ {
			if matchLines(want[1:], got[k:]) {
				return true
			}
		}
		return false
	}
	return len(got) > 0 && norm(want[0]) == norm(got[0]) && matchLines(want[1:], got[1:])
}

// TestREADMEShowsWhatRuns: every command README.md shows runs, from the
// repository's root, and prints what the README shows (its exit code too):
// the front door cannot go stale. `make demo` is `sessiondag audit`.
func TestREADMEShowsWhatRuns(t *testing.T) {
	runConsoleBlocks(t, "README.md", func(c string) string { return strings.Replace(c, "make demo", "sessiondag audit", 1) })
}

// TestProtocolDocShowsWhatRuns: every command docs/protocol.md shows — the
// walkthrough of the shipped example: its hello, replay, hunt, a finding,
// known findings — runs and prints what the document shows. Its run of the
// property suite (`go test ./props` through the example, some ten minutes
// on 2 cores) runs with SESSIONDAG_DOC_SUITE=1 (make check-example).
func TestProtocolDocShowsWhatRuns(t *testing.T) {
	t.Parallel()
	runConsoleBlocks(t, filepath.Join("docs", "protocol.md"), nil)
}

// docSuiteEnv set to 1 runs the console blocks of a document that run the
// property suite (a `go test` command): too long for make test.
const docSuiteEnv = "SESSIONDAG_DOC_SUITE"

// runConsoleBlocks runs every command of the console blocks of a document
// (its path from the repository's root) with sh, from the root, with this
// test binary as `sessiondag` on the PATH and a temporary directory of its
// own as TMPDIR, each command rewritten first when rewrite is given, and
// checks each exit code and output. A block with a command that runs the
// property suite runs only with SESSIONDAG_DOC_SUITE=1, one that needs
// python3 only where python3 is installed: the other blocks run either way.
func runConsoleBlocks(t *testing.T, doc string, rewrite func(string) string) {
	if testing.Short() {
		t.Skip("runs the document's commands")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	text, err := os.ReadFile(filepath.Join(root, doc))
	if err != nil {
		t.Fatal(err)
	}
	runs, err := consoleBlocks(text)
	if err != nil {
		t.Fatalf("%s: %v", doc, err)
	}
	if len(runs) == 0 {
		t.Fatalf("%s shows no command in a console block", doc)
	}
	bin := t.TempDir()
	tool := fmt.Sprintf("#!/bin/sh\n%s=1 exec '%s' \"$@\"\n", toolEnv, os.Args[0])
	if err := os.WriteFile(filepath.Join(bin, "sessiondag"), []byte(tool), 0o755); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "TMPDIR="+t.TempDir())
	held := heldBlocks(runs)
	for _, r := range runs {
		if why, ok := held[r.block]; ok {
			t.Logf("%s:%d: not run (%s): %s", doc, r.line, why, r.command)
			continue
		}
		command := r.command
		if rewrite != nil {
			command = rewrite(command)
		}
		cmd := exec.Command("sh", "-c", command+" 2>&1")
		cmd.Dir, cmd.Env = root, env
		out, err := cmd.Output()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("%s:%d: %s: %v", doc, r.line, r.command, err)
		}
		got := strings.Split(string(bytes.TrimRight(out, "\n")), "\n")
		if code != r.exit || !matchLines(r.want, got) {
			t.Errorf("%s:%d: %s: exit %d (the document: %d), output:\n%s\nthe document shows:\n%s",
				doc, r.line, r.command, code, r.exit, out, strings.Join(r.want, "\n"))
		}
	}
}

// heldBlocks are the console blocks that do not run here, and why: one
// with a command that runs the property suite (without
// SESSIONDAG_DOC_SUITE=1), one with a command that needs python3 where it
// is not installed. A block's commands run in turn, a later one reading
// what an earlier one wrote, so a block is held whole.
func heldBlocks(runs []consoleRun) map[int]string {
	_, noPython := exec.LookPath("python3")
	held := map[int]string{}
	for _, r := range runs {
		switch {
		case strings.Contains(r.command, "go test ") && os.Getenv(docSuiteEnv) != "1":
			held[r.block] = "it runs the property suite: " + docSuiteEnv + "=1 runs it"
		case strings.Contains(r.command, "python3") && noPython != nil:
			held[r.block] = "no python3 on this machine"
		}
	}
	return held
}

// TestMatchLines: the README's `…` and durations, shown able to fail.
func TestMatchLines(t *testing.T) {
	for _, c := range []struct {
		want, got string
		ok        bool
	}{
		{"a\nb", "a\nb", true},
		{"a\nb", "a\nc", false},
		{"a\n…\nd", "a\nb\nc\nd", true},
		{"a\n…\nd", "a\nd", true},
		{"a\n…\nd", "a\nb\nc", false},
		{"in 0.29s", "in 12.5s", true},
		{"audited 230 sessions", "audited 240 sessions", false},
	} {
		if got := matchLines(strings.Split(c.want, "\n"), strings.Split(c.got, "\n")); got != c.ok {
			t.Errorf("matchLines(%q, %q) = %v", c.want, c.got, got)
		}
	}
	if _, err := consoleBlocks([]byte("```\n$ sessiondag audit\n```\n")); err == nil {
		t.Error("a command in an unmarked block is not refused")
	}
	runs, err := consoleBlocks([]byte("```console\n$ sessiondag x   # exit 3\nout\n```\n"))
	if err != nil || len(runs) != 1 || runs[0].command != "sessiondag x" || runs[0].exit != 3 || runs[0].want[0] != "out" {
		t.Errorf("consoleBlocks: %+v %v", runs, err)
	}
	// A block that runs the property suite is held whole (its later
	// commands read what the suite wrote) unless asked for; the next runs.
	t.Setenv(docSuiteEnv, "")
	runs, err = consoleBlocks([]byte("```console\n$ go test ./props\nok\n$ cat bin/v.txt\n```\n\n```console\n$ sessiondag x\n```\n"))
	held := heldBlocks(runs)
	if err != nil || len(runs) != 3 || runs[1].block != 1 || runs[2].block != 2 || held[1] == "" || held[2] != "" {
		t.Errorf("heldBlocks: %+v: %v %v", runs, held, err)
	}
}
