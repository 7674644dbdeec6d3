package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// regressionsDir is where promoted scripts live: every `go test ./props`
// replays them (TestCorpusReplay).
const regressionsDir = "corpus/ops/regressions"

var regressionName = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)

// cmdPromote keeps a found failure as a regression test: the saved script
// (with its `#! check` line, so the replay runs the check that found it)
// moves under corpus/ops/regressions/NAME.ops, with a first comment line
// saying what it caught.
func cmdPromote(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("promote", stderr)
	note := fs.String("note", "", "what the script caught, for its first comment line (default: the saved header)")
	to := fs.String("to", regressionsDir, "the directory of regression scripts")
	pos, err := parseArgs(fs, args)
	if err != nil || len(pos) != 2 {
		fmt.Fprintln(stderr, "usage: sessiondag promote FILE.ops NAME [--note TEXT]")
		return 2
	}
	src, name := pos[0], pos[1]
	if !regressionName.MatchString(name) {
		return fail(stderr, "promote", fmt.Errorf("name %q: use lower-case words joined by '-'", name))
	}
	file, err := readScript(src)
	if err != nil {
		return fail(stderr, "promote", err)
	}
	if len(file.Ops) == 0 {
		return fail(stderr, "promote", fmt.Errorf("%s holds no ops", src))
	}
	if *note != "" {
		file.Header = append([]string{*note}, file.Header...)
	}
	dst := filepath.Join(*to, name+".ops")
	if _, err := os.Stat(dst); err == nil {
		return fail(stderr, "promote", fmt.Errorf("%s exists", dst))
	}
	if err := os.MkdirAll(*to, 0o755); err != nil {
		return fail(stderr, "promote", err)
	}
	if err := os.WriteFile(dst, []byte(file.String()), 0o644); err != nil {
		return fail(stderr, "promote", err)
	}
	if strings.Contains(filepath.ToSlash(src), "corpus/ops/failures/") {
		if err := os.Remove(src); err != nil {
			return fail(stderr, "promote", err)
		}
	}
	fmt.Fprintf(stdout, "promoted %s → %s (replayed by every go test ./props; commit it)\n", src, dst)
	return 0
}
