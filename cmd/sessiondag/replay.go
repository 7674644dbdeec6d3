package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"sessiondag/checker/campaign"
	"sessiondag/checker/gen"
	"sessiondag/checker/harness"
	"sessiondag/impl/flags"
	"sessiondag/impl/store"
	"sessiondag/internal/termtext"
	"sessiondag/internal/verdict"
	"sessiondag/ops"
	"sessiondag/protocol"
	"sessiondag/protocol/process"
)

func cmdReplay(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("replay", stdout, stderr)
	var writer flags.Set
	fs.Var(&writer, "flags", "the writers' flags at the start: off, all, or a list such as A,B (every check)")
	var rollout rolloutFlag
	fs.Var(&rollout, "rollout", "check every step of the rollout path, on data written on and written off; "+
		"--rollout=PLAN plays the script under a rollout plan (phases SETS:OPS separated by /, writers of a phase by +: off:10/A+off:20/A,B:5/A:10/all)")
	checksOf := fs.checkFlag("those the file's #! check line names, else every check")
	knownOf := fs.knownFlag()
	out := fs.outFlag("", "also write the session to this directory (must not exist), to inspect it with load")
	reduce := fs.Bool("reduce", false, "reduce the failure (campaign.Passes) and print the reduced file")
	everyOp := fs.Bool("every-op", false, fmt.Sprintf("run the checks after every op of a long script too (their work grows with the square of its length; by default it grows with its length: after every op while the session holds at most %d nodes, then spread, and after the last)", campaign.SpreadPerOp))
	impl := addImplFlags(fs)
	runImpl := fs.Bool("run-impl", false, "run the implementation the file's #! impl line names (or set "+runImplEnv+"=1); without it, or --impl, the line is only shown")
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
	if rollout.plan != nil {
		// The plan decides who writes on which flags: the script's own flag
		// and writer ops give way to it.
		played, left := rollout.plan.Apply(file.Ops)
		for _, at := range left {
			// A compaction of a branch the plan's writers recorded shorter.
			fmt.Fprintf(stderr, "replay: op %d (%s) does not apply under the plan's writers: left out\n",
				at+1, strings.TrimSpace(ops.String(file.Ops[at:at+1])))
		}
		file.Ops = played
	}
	command, asked := replayImpl(file, impl, *runImpl)
	if !asked {
		fmt.Fprint(stderr, notAsked(pos[0], command))
		return verdict.ExitUsage
	}
	pool, err := impl.open(command, stderr)
	if err != nil {
		return fail(stderr, "replay", err)
	}
	if pool != nil {
		defer pool.Close()
	}
	o := campaign.ReplayOptions{Impl: starter(pool), PerOp: campaign.SpreadPerOp}
	if *everyOp {
		o.PerOp = 0
	}
	if o.Checks, err = checksOf(); err != nil {
		return fail(stderr, "replay", err)
	}
	known, err := knownOf()
	if err != nil {
		return fail(stderr, "replay", err)
	}
	switch {
	case rollout.plan != nil:
		o.Checks = append(o.Checks, mustCheck("rollout"), mustCheck("rollback"))
		o.Data = []harness.Data{harness.DataFor(file.Ops, flags.Off)}
	case rollout.on:
		o.Checks = append(o.Checks, mustCheck("rollout"))
		o.Data = []harness.Data{harness.WrittenOn, harness.DataFor(file.Ops, flags.Off)}
	}
	if flagGiven(fs, "flags") {
		o.Data = []harness.Data{harness.DataFor(file.Ops, writer)}
	}
	if *out != "" {
		if err := writeOut(pos[0], file, *out, writer, rollout.plan != nil); err != nil {
			return fail(stderr, "replay", err)
		}
	}
	if *reduce {
		return reduceFile(file, o, pos[0], stdout, stderr)
	}
	return replayed(stdout, stderr, pos[0], file, o, known, pool, reproduceReplay(args, command != "" && !flagGiven(fs, "impl")))
}

// replayed plays file with o, prints each finding (a known class's as
// known) and the verdict line, and returns its exit code.
func replayed(stdout, stderr io.Writer, path string, file *ops.File, o campaign.ReplayOptions, known *campaign.Known, pool *process.Pool, reproduce string) int {
	found, scheds, err := campaign.ReplayScheduled(file, o)
	if errors.Is(err, harness.ErrNotApplicable) {
		against := ""
		if pool != nil {
			against = " against " + pool.About().Name
		}
		v := verdict.UndecidedBecause(fmt.Sprintf("%s: nothing run%s: %s", path, against, harness.Why(err)))
		fmt.Fprintln(stdout, line(leftOut(v, pool).Line()))
		return v.Exit()
	}
	if err != nil {
		return fail(stderr, "replay", fmt.Errorf("%s: %w", path, err))
	}
	for _, why := range campaign.NotRun(file, o) {
		fmt.Fprintf(stdout, "%s: not run: %s\n", path, why)
	}
	var news []*harness.Finding
	for _, f := range found {
		c := campaign.Case{Check: mustCheck(f.Check), Data: f.Data, Script: file.Ops, Impl: o.Impl}.Of(f)
		if e, _ := known.Accepts(c, f, o.Tmp); e != nil {
			fmt.Fprintf(stdout, "%s: known finding (%s): %s [%s], after op %d: %s\n", path, e.Name(), f.Check, f.Data.Name, f.Step, e.Reason)
			continue
		}
		news = append(news, f)
		fmt.Fprintf(stdout, "%s: %s", path, campaign.ReportReproduced(c, f, reproduce))
	}
	if len(news) > 0 {
		v := verdict.FailBecause(fmt.Sprintf("%s: %d findings", path, len(news)))
		knownLines(stdout, path, known)
		fmt.Fprintln(stdout, line(leftOut(v, pool).Line()))
		return v.Exit()
	}
	against := ""
	if pool != nil {
		against = " against " + pool.About().Name
	}
	spread := spreadNote(scheds)
	if len(found) == 0 {
		after := "after every op"
		if spread != "" {
			after = "after each op checked"
		}
		fmt.Fprintf(stdout, "%s: %d ops%s; %s\n", path, len(file.Ops), against, planned(file, o, after))
	}
	v := verdict.PassBecause()
	if spread != "" {
		fmt.Fprintf(stdout, "%s: %s\n", path, spread)
		v = verdict.PassBecause(fmt.Sprintf("checked after %d of the %d ops (--every-op: after every one)", scheds[0].Checked, scheds[0].Ops))
	}
	if n := len(found); n > 0 {
		v = verdict.PassBecause(fmt.Sprintf("%d findings of known classes (%s), nothing new", n, known.File))
	}
	knownLines(stdout, path, known)
	fmt.Fprintln(stdout, line(leftOut(v, pool).Line()))
	return verdict.ExitPass
}

// knownLines says what each entry of the known file accepted, and which
// matched nothing (stale once their class is fixed), as every driver does.
func knownLines(w io.Writer, path string, known *campaign.Known) {
	for _, l := range known.Lines() {
		fmt.Fprintf(w, "%s: %s\n", path, l)
	}
}

// leftOut is v saying what the comparisons left out for the implementation
// replayed against (protocol.About.LeftOut), when anything.
func leftOut(v verdict.Verdict, pool *process.Pool) verdict.Verdict {
	if pool == nil {
		return v
	}
	if note := protocol.LeftOutNote(pool.About().LeftOut()); note != "" {
		v.Reasons = append(v.Reasons, note)
	}
	return v
}

// runImplEnv set to 1 runs the implementation a file's `#! impl` line
// names, as --run-impl does.
const runImplEnv = "SESSIONDAG_RUN_IMPL"

// replayImpl is the implementation command a replay of file runs ("" =
// in-process): --impl when given; else the one the file's `#! impl` line
// names (a failure found on another implementation names it), but only
// when the user asked for it (--run-impl, SESSIONDAG_RUN_IMPL=1): a
// shared file is not a program. Unasked, it returns the command and false.
func replayImpl(file *ops.File, impl implFlags, run bool) (string, bool) {
	named := campaign.ImplOf(file)
	switch {
	case impl.given():
		return *impl.command, true
	case named == "":
		return "", true
	}
	return named, run || os.Getenv(runImplEnv) == "1"
}

// notAsked says that a file names an implementation that was not run, the
// command (escaped: it is the file's text), and how to run it.
func notAsked(path, command string) string {
	return fmt.Sprintf("sessiondag replay: %s was found on the implementation its #! impl line names; it is run only when asked:\n"+
		"    %s\n"+
		"  --run-impl (or %s=1) runs it, --impl CMD runs another, --impl= replays the file in-process\n",
		termtext.Line(path), termtext.Line(command), runImplEnv)
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

// spreadNote says after how many ops the checks ran when a schedule spread
// them ("" when they ran after every op).
func spreadNote(scheds []harness.Schedule) string {
	for _, sc := range scheds {
		if !sc.EveryOp() {
			return fmt.Sprintf("the checks ran after %d of the %d ops: after every op while the session held at most %d nodes, then spread so that their work grows with the script's length, not its square (--every-op runs them after every op)",
				sc.Checked, sc.Ops, campaign.SpreadPerOp)
		}
	}
	return ""
}

// planned says what a replay that found nothing checked, after which ops.
func planned(file *ops.File, o campaign.ReplayOptions, after string) string {
	groups, err := campaign.Plan(file, o)
	if err != nil {
		return err.Error()
	}
	var parts []string
	for _, g := range groups {
		if o.Impl != nil && harness.TakesData(o.Impl.About(), g.Data) != nil {
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
		part := fmt.Sprintf("%s %s %s on data %s", strings.Join(names, ", "), verb, after, g.Data.Name)
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

// writeOut writes the session a script makes to dir, with the script beside
// it: the file's own bytes, so that replaying what gen wrote makes the same
// directory byte for byte; the script played when a rollout plan changed it
// (planned); with writers starting on other flags than off, the script with
// a flag op first that says so.
func writeOut(path string, file *ops.File, dir string, fl flags.Set, planned bool) error {
	if _, err := os.Stat(dir); err == nil {
		return fmt.Errorf("%s exists; refusing to write into it", dir)
	}
	text, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if planned {
		text = []byte(file.String())
	}
	if fl != flags.Off {
		f := *file
		at := 0
		if len(f.Ops) > 0 {
			if _, ok := f.Ops[0].(ops.Session); ok {
				at = 1
			}
		}
		f.Ops = slices.Insert(slices.Clone(f.Ops), at, ops.Op(ops.Flag{Set: fl.String()}))
		text = []byte(f.String())
	}
	return writeSession(dir, file.Ops, text, fl, store.WriteOptions{})
}

// outside says why a script can fall outside a kind of data.
func outside(d harness.Data) string {
	if d.Synced {
		return "its intent is not in the data, or it is not valid"
	}
	return "it is not valid, or has flag ops the kind does not have"
}

// rolloutFlag is --rollout (every step of the path) or --rollout=PLAN (a
// rollout plan, gen.ParseRollout).
type rolloutFlag struct {
	on   bool
	plan *gen.Rollout
}

func (r *rolloutFlag) IsBoolFlag() bool { return true }

func (r *rolloutFlag) String() string {
	if r == nil || r.plan == nil {
		return fmt.Sprint(r != nil && r.on)
	}
	return r.plan.String()
}

func (r *rolloutFlag) Set(text string) error {
	if b, err := strconv.ParseBool(text); err == nil {
		r.on, r.plan = b, nil
		return nil
	}
	p, err := gen.ParseRollout(text)
	if err != nil {
		return err
	}
	r.on, r.plan = true, p
	return nil
}

// reproduceReplay is the command that plays a replay again: its arguments
// less --out (a directory that now exists) and --reduce, and --run-impl
// when the file's #! impl line ran because the environment asked.
func reproduceReplay(args []string, fromLine bool) string {
	words := []string{"sessiondag", "replay"}
	for i := 0; i < len(args); i++ {
		name, _, hasValue := strings.Cut(strings.TrimLeft(args[i], "-"), "=")
		switch {
		case strings.HasPrefix(args[i], "-") && name == "out":
			if !hasValue {
				i++
			}
			continue
		case strings.HasPrefix(args[i], "-") && (name == "reduce" || name == "run-impl"):
			continue
		}
		words = append(words, campaign.ShellQuote(args[i]))
	}
	if fromLine {
		words = append(words, "--run-impl")
	}
	return strings.Join(words, " ")
}
