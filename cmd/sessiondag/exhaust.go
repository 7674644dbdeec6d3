package main

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"sessiondag/checker/exhaust"
	"sessiondag/internal/shard"
)

// cmdExhaust checks every valid op script of at most N ops (checker/exhaust/):
// prints the summary and the failures, each reduced and saved as a `#!
// check` file with its replay command. Exit 1 on a failure.
func cmdExhaust(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("exhaust", stdout, stderr)
	maxOps := fs.Int("max-ops", 0, "check every valid script of 1…N ops")
	shardOf := fs.shardFlag("", "the scripts")
	asJSON := fs.jsonFlag("a line per failure, then {\"kind\":\"exhaust\",\"summary\":…}")
	out := fs.outFlag("corpus/ops/failures", "where the reduced failing scripts are saved")
	kinds := fs.String("kinds", "", "comma-separated op kinds to build scripts of (default: every kind but session)")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "walk the shard in this many parts side by side")
	maxReduced := fs.Int("max-reduced", 20, "failures each worker reduces and saves (negative: none); the rest are counted")
	stop := fs.Bool("stop", false, "end at the first failing script")
	checksOf := fs.checkFlag("every check that runs after each op without a directory")
	knownOf := fs.knownFlag()
	dedup := fs.Bool("dedup", true, "check each distinct data once and walk below each distinct state once (false: every script, the same counts; off with --impl)")
	memo := fs.Int("memo", exhaust.DefaultMemoLimit, "entries each memo map of a worker keeps per generation")
	quiet := fs.Bool("quiet", false, "no progress lines on standard error")
	claim := fs.String("claim", "", "claim the walk's parts in this shared directory instead of a shard, and write each part walked there (DIR/parts, DIR/failures) and the states expanded, for the other claimants (DIR/memos)")
	claimant := fs.String("claimant", "", "this claimant's name in --claim DIR; a claimant run again under its name finishes the parts it claimed (default: the host, the process and a random number: a name no other claimant has)")
	claimStart := fs.String("claim-start", "", "begin claiming at part i/n of the walk's parts, then wrap around (give n claimants 0/n … n-1/n: each walks neighbouring parts, whose states its memos share)")
	estimate := fs.Bool("estimate", false, "print the estimated size of the walk (scripts, parts) without checking a script")
	impl := addImplFlags(fs)
	pos, err := fs.parse(args)
	if err != nil || len(pos) != 0 || !flagGiven(fs, "max-ops") {
		return fs.usageError(err)
	}
	for _, c := range []struct {
		name   string
		v, min int
	}{{"max-ops", *maxOps, 1}, {"workers", *workers, 1}, {"max-reduced", *maxReduced, 0}} {
		if err := fs.atLeast(c.name, int64(c.v), int64(c.min)); err != nil {
			return fail(stderr, "exhaust", err)
		}
	}
	o := exhaust.Options{MaxOps: *maxOps, Workers: *workers, MaxReduced: *maxReduced, NoDedup: !*dedup, MemoLimit: *memo,
		Stop: *stop}
	if !*quiet {
		o.Progress = stderr
	}
	if o.Shard, err = shardOf(); err != nil {
		return fail(stderr, "exhaust", err)
	}
	if o.Claim, err = claimsOf(*claim, *claimant, *claimStart); err != nil {
		return fail(stderr, "exhaust", err)
	}
	if o.Checks, err = checksOf(); err != nil {
		return fail(stderr, "exhaust", err)
	}
	if o.Known, err = knownOf(); err != nil {
		return fail(stderr, "exhaust", err)
	}
	if *kinds != "" {
		o.Kinds = strings.Split(*kinds, ",")
	}
	pool, err := impl.open(*impl.command, stderr)
	if err != nil {
		return fail(stderr, "exhaust", err)
	}
	if pool != nil {
		defer pool.Close()
		o.Impl = pool
	}
	if *estimate {
		return printEstimate(o, stdout, stderr)
	}
	// The sessions are small and short-lived: collecting less often buys
	// time (GOGC 1600 took a fifth less processor time than 400 at 3 ops,
	// bench/exhaust-dedup.md), and a soft limit keeps the heap within a
	// 1 GiB pod whatever the memos hold (a GOGC or GOMEMLIMIT the caller
	// sets wins).
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(1600)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(768 << 20)
	}
	var mu sync.Mutex
	files := map[string]string{} // a failure's key → where it was saved
	var saveErr error
	o.OnFailure = func(f exhaust.Failure) {
		if o.Claim != nil {
			return // saved with its part, under the claims' directory
		}
		if ending.Load() {
			// A signal ended the run: endNow killed the implementations
			// under the walk (after setting ending), so the plays of this
			// failure's reduction ran against dead processes and say
			// nothing of it. Saved, it would read "a replay from scratch
			// does not fail".
			return
		}
		path, err := f.Save(*out)
		mu.Lock()
		defer mu.Unlock()
		files[f.Record("").Key], saveErr = path, errors.Join(saveErr, err)
	}
	sum, fails, err := exhaust.Run(o)
	if err != nil {
		return fail(stderr, "exhaust", err)
	}
	recs := make([]exhaust.FailureRecord, len(fails))
	for i, f := range fails {
		recs[i] = f.Record(files[f.Record("").Key])
	}
	if *asJSON {
		if err := exhaust.WriteJSON(stdout, sum, recs); err != nil {
			return fail(stderr, "exhaust", err)
		}
	} else {
		exhaust.WriteText(stdout, sum, recs)
	}
	for _, l := range o.Known.Lines() {
		fmt.Fprintln(stderr, "exhaust: "+l)
	}
	if saveErr != nil {
		return fail(stderr, "exhaust", saveErr)
	}
	return sum.Verdict().Exit()
}

// printEstimate prints the estimated size of the walk of o.
func printEstimate(o exhaust.Options, stdout, stderr io.Writer) int {
	start := time.Now()
	e, err := exhaust.EstimateRun(o)
	if err != nil {
		return fail(stderr, "exhaust", err)
	}
	fmt.Fprintf(stdout, "exhaust: %d ops: %v; sized in %s\n", o.MaxOps, e, time.Since(start).Round(time.Second))
	return 0
}

// claimsOf is the claims of --claim dir (nil without it), the claimant
// named name (default: defaultClaimant), beginning at part start.
func claimsOf(dir, name, start string) (*exhaust.Claims, error) {
	if dir == "" {
		if start != "" {
			return nil, fmt.Errorf("--claim-start %s: without --claim there is nothing to claim", start)
		}
		return nil, nil
	}
	if name == "" {
		name = defaultClaimant()
	}
	c := &exhaust.Claims{Dir: dir, Name: name}
	if start != "" {
		var err error
		if c.Start, err = shard.Parse(start); err != nil {
			return nil, fmt.Errorf("--claim-start: %w", err)
		}
	}
	return c, nil
}

// defaultClaimant names a claimant no other shares: the host, the process
// and 32 random bits (two claimants on one host, or two hosts of one name,
// would otherwise claim each other's parts as their own). A claimant run
// again under its default name is another claimant: the parts it had
// claimed stay unfinished, so a claimant to be run again after a crash
// (a pod of an Indexed Job) is given its name (--claimant pod-$INDEX).
func defaultClaimant() string {
	host, err := os.Hostname()
	if err != nil || host == "" || strings.ContainsAny(host, "/\n") {
		host = "host"
	}
	return fmt.Sprintf("%s-%d-%08x", host, os.Getpid(), rand.Uint32())
}
