package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"sessiondag/checker/campaign"
	"sessiondag/checker/driver"
	"sessiondag/checker/harness"
	"sessiondag/checker/ops"
	"sessiondag/impl/flags"
)

func cmdReplay(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("replay", stderr)
	var writer flags.Set
	fs.Var(&writer, "flags", "the writers' flags at the start: off, all, or a list such as A,B (every check)")
	rollout := fs.Bool("rollout", false, "check every step of the rollout path, on data written on and written off")
	checkList := fs.String("check", "", "comma-separated checks to run: "+strings.Join(harness.CheckNames(), ", "))
	out := fs.String("out", "", "also write the session to this directory (must not exist), to inspect it with load")
	reduce := fs.Bool("reduce", false, "reduce the failure (campaign.Passes) and print the reduced file")
	impl := addImplFlags(fs)
	pos, err := parseArgs(fs, args)
	if err != nil || len(pos) != 1 {
		fmt.Fprintln(stderr, "usage: sessiondag replay FILE.ops [--rollout] [--check NAMES] [--flags F] [--out DIR] [--reduce] [--impl CMD]")
		return 2
	}
	file, err := readScript(pos[0])
	if err != nil {
		return fail(stderr, "replay", err)
	}
	// A failure found on another implementation names it in the file.
	command := campaign.ImplOf(file)
	if impl.given() {
		command = *impl.command
	}
	pool, err := impl.open(command, stderr)
	if err != nil {
		return fail(stderr, "replay", err)
	}
	if pool != nil {
		defer pool.Close()
	}
	o := campaign.ReplayOptions{Impl: starter(pool)}
	if *checkList != "" {
		if o.Checks, err = harness.Select(*checkList); err != nil {
			return fail(stderr, "replay", err)
		}
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
	if *reduce {
		return reduceFile(file, o, pos[0], stdout, stderr)
	}
	found, err := campaign.Replay(file, o)
	if errors.Is(err, harness.ErrNotApplicable) {
		return fail(stderr, "replay", fmt.Errorf("%s: nothing run against %s: %w", pos[0], pool.About().Name, err))
	}
	if err != nil {
		return fail(stderr, "replay", fmt.Errorf("%s: %w", pos[0], err))
	}
	for _, why := range campaign.NotRun(file, o) {
		fmt.Fprintf(stdout, "%s: not run: %s\n", pos[0], why)
	}
	for _, f := range found {
		c := campaign.Case{Check: mustCheck(f.Check), Data: f.Data, Script: file.Ops, Impl: o.Impl}.Of(f)
		fmt.Fprintf(stdout, "%s: %s", pos[0], campaign.Report(c, f, ""))
	}
	if len(found) > 0 {
		return 1
	}
	against := ""
	if pool != nil {
		against = " against " + pool.About().Name
	}
	fmt.Fprintf(stdout, "%s: %d ops%s; %s\n", pos[0], len(file.Ops), against, planned(file, o))
	return 0
}

// reduceFile reduces the one case a file holds and prints the reduced file:
// exit 1 when it failed (and was reduced), 0 when it holds.
func reduceFile(file *ops.File, o campaign.ReplayOptions, name string, stdout, stderr io.Writer) int {
	c, err := campaign.CaseOf(file, o)
	if err != nil {
		return fail(stderr, "replay", fmt.Errorf("%s: --reduce: %w", name, err))
	}
	f, err := c.Play(o.Tmp)
	if err != nil {
		return fail(stderr, "replay", fmt.Errorf("%s: %w", name, err))
	}
	if f == nil {
		fmt.Fprintf(stdout, "%s: %d ops; %s holds: nothing to reduce\n", name, len(file.Ops), c.Check.Name)
		return 0
	}
	red := campaign.Reduce(c, f, o.Tmp)
	var passes []string
	for _, p := range campaign.Passes {
		if n := red.Kept[p.Name]; n > 0 {
			passes = append(passes, fmt.Sprintf("%s %d", p.Name, n))
		}
	}
	fmt.Fprintf(stderr, "replay: %s: reduced from %d ops to %d in %d plays (%s)\n", name, len(c.Of(f).Script),
		len(red.Case.Script), red.Plays, strings.Join(passes, ", "))
	fmt.Fprint(stdout, campaign.File(red.Case, red.Finding, "sessiondag replay --reduce "+name).String())
	return 1
}

// planned says what a replay that found nothing checked.
func planned(file *ops.File, o campaign.ReplayOptions) string {
	groups, err := campaign.Plan(file, o)
	if err != nil {
		return err.Error()
	}
	var parts []string
	for _, g := range groups {
		if o.Impl != nil && o.Impl.About().TakesData(g.Data) != nil {
			continue
		}
		var names []string
		for _, c := range g.Checks {
			if o.Impl == nil || c.Applies(o.Impl.About()) == nil {
				names = append(names, c.Name)
			}
		}
		if len(names) == 0 {
			continue
		}
		verb := "hold"
		if len(names) == 1 {
			verb = "holds"
		}
		part := fmt.Sprintf("%s %s after every op on data %s", strings.Join(names, ", "), verb, g.Data.Name)
		if g.Outside {
			part += " (the script is outside that kind: " + outside(g.Data) + ")"
		}
		parts = append(parts, part)
	}
	if len(parts) == 0 {
		return "no check applies to this script"
	}
	return strings.Join(parts, "; ")
}

func readScript(path string) (*ops.File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ops.ParseFile(f, path)
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

// outside says why a script can fall outside a kind of data.
func outside(d harness.Data) string {
	if d.Synced {
		return "its intent is not in the data, or it is not valid"
	}
	return "it is not valid, or has flag ops the kind does not have"
}
