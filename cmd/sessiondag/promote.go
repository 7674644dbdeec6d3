package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"sessiondag/checker/campaign"
)

// regressionsDir is where promoted scripts live: every `go test ./props`
// replays them (TestCorpusReplay).
const regressionsDir = "corpus/ops/regressions"

var regressionName = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)

// repoRoot is the root of the sessiondag repository: the nearest directory
// above the current one, else above the script, whose go.mod declares
// module sessiondag.
func repoRoot(script string) (string, error) {
	var starts []string
	if wd, err := os.Getwd(); err == nil {
		starts = append(starts, wd)
	}
	if abs, err := filepath.Abs(script); err == nil {
		starts = append(starts, filepath.Dir(abs))
	}
	for _, dir := range starts {
		for d := dir; ; d = filepath.Dir(d) {
			if b, err := os.ReadFile(filepath.Join(d, "go.mod")); err == nil && modulePath(b) == "sessiondag" {
				return d, nil
			}
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	return "", fmt.Errorf("no sessiondag repository (a go.mod of module sessiondag) above %s or %s: run it inside the repository or give --to", strings.Join(starts[:min(1, len(starts))], ""), script)
}

// modulePath is the module a go.mod declares.
func modulePath(gomod []byte) string {
	for _, line := range strings.Split(string(gomod), "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
			return strings.Trim(strings.TrimSpace(rest), `"`)
		}
	}
	return ""
}

// cmdPromote keeps a fixed failure as a regression test: the saved script
// (with its `#! check` line, so the replay runs the check that found it)
// is replayed, refused while it still fails, and moves under
// corpus/ops/regressions/NAME.ops of the repository it is run in (found
// from the current directory, else from the script's), with a first
// comment line saying what it caught.
func cmdPromote(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("promote", stdout, stderr)
	note := fs.String("note", "", "what the script caught, for its first comment line (default: the saved header)")
	to := fs.String("to", "", "the directory of regression scripts (default: corpus/ops/regressions of the repository)")
	pos, err := fs.parse(args)
	if err != nil || len(pos) != 2 {
		return fs.usageError(err)
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
	if *to == "" {
		root, err := repoRoot(src)
		if err != nil {
			return fail(stderr, "promote", err)
		}
		*to = filepath.Join(root, regressionsDir)
	}
	found, err := campaign.Replay(file, campaign.ReplayOptions{})
	if err != nil {
		return fail(stderr, "promote", fmt.Errorf("%s: %w", src, err))
	}
	if len(found) > 0 {
		f := found[0]
		c := campaign.Case{Check: mustCheck(f.Check), Data: f.Data, Script: file.Ops}.Of(f)
		fmt.Fprintf(stdout, "%s: %s", src, campaign.Report(c, f, ""))
		fmt.Fprintf(stderr, "sessiondag promote: %s still fails (above): fix the cause first, then promote it\n", src)
		return 1
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
