package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"sessiondag/checker/driver"
	"sessiondag/checker/harness"
	"sessiondag/checker/ops"
	"sessiondag/impl/flags"
)

func cmdReplay(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("replay", stdout, stderr)
	var writer flags.Set
	fs.Var(&writer, "flags", "the writers' flags at the start: off, all, or a list such as A,B (every check)")
	rollout := fs.Bool("rollout", false, "check every step of the rollout path, on data written on and written off")
	checkList := fs.String("check", "", "comma-separated checks to run: "+strings.Join(harness.CheckNames(), ", "))
	out := fs.String("out", "", "also write the session to this directory (must not exist), to inspect it with load")
	pos, err := fs.parse(args)
	if err != nil || len(pos) != 1 {
		return fs.usageError(err)
	}
	file, err := readScript(pos[0])
	if err != nil {
		return fail(stderr, "replay", err)
	}
	if len(file.Ops) == 0 {
		return fail(stderr, "replay", fmt.Errorf("%s holds no ops: nothing to replay", pos[0]))
	}
	var o harness.ReplayOptions
	if o.Checks, err = checksNamed(*checkList); err != nil {
		return fail(stderr, "replay", err)
	}
	if *rollout {
		o.Checks = append(o.Checks, mustCheck("rollout"))
		o.Data = []harness.Data{harness.WrittenOn, harness.DataFor(file.Ops, flags.Off)}
	}
	if flagGiven(fs, "flags") {
		o.Data = []harness.Data{harness.DataFor(file.Ops, writer)}
	}
	if *out != "" {
		if err := writeOut(file.Ops, *out, writer); err != nil {
			return fail(stderr, "replay", err)
		}
	}
	found, err := harness.Replay(file, o)
	if err != nil {
		return fail(stderr, "replay", fmt.Errorf("%s: %w", pos[0], err))
	}
	for _, f := range found {
		fmt.Fprintf(stdout, "%s: %s", pos[0], f.Report(file.Ops, ""))
	}
	if len(found) > 0 {
		return 1
	}
	fmt.Fprintf(stdout, "%s: %d ops; %s\n", pos[0], len(file.Ops), planned(file, o))
	return 0
}

// planned says what a replay that found nothing checked.
func planned(file *ops.File, o harness.ReplayOptions) string {
	checks, data, err := harness.Plan(file, o)
	if err != nil {
		return err.Error()
	}
	var names, kinds []string
	for _, c := range checks {
		names = append(names, c.Name)
	}
	for _, d := range data {
		kinds = append(kinds, d.Name)
	}
	verb := "hold"
	if len(names) == 1 {
		verb = "holds"
	}
	if len(kinds) == 0 {
		return fmt.Sprintf("%s %s", strings.Join(names, ", "), verb)
	}
	return fmt.Sprintf("%s %s after every op, on data %s", strings.Join(names, ", "), verb, strings.Join(kinds, "; "))
}

func readScript(path string) (*ops.File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ops.ParseFile(f, path)
}

func checksNamed(list string) ([]harness.Check, error) {
	var out []harness.Check
	for _, name := range strings.Split(list, ",") {
		if name = strings.TrimSpace(name); name == "" {
			continue
		}
		c, err := harness.CheckNamed(name)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

func mustCheck(name string) harness.Check {
	c, err := harness.CheckNamed(name)
	if err != nil {
		panic(err)
	}
	return c
}

func writeOut(script []ops.Op, dir string, fl flags.Set) error {
	if _, err := os.Stat(dir); err == nil {
		return fmt.Errorf("%s exists; refusing to write into it", dir)
	}
	_, err := driver.Build(script, dir, fl)
	return err
}
