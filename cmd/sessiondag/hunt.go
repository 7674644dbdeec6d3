package main

import (
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"time"

	"sessiondag/checker/harness"
	"sessiondag/checker/hunt"
	"sessiondag/internal/verdict"
)

// cmdHunt runs a search campaign over the checks (package hunt): text or
// JSON lines on stdout, the seed on stderr first, so that a run stopped
// from outside can still be repeated. Exit 1 when it found a failure.
func cmdHunt(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("hunt", stdout, stderr)
	minutes := fs.Float64("minutes", 0, "the time budget in minutes")
	seed := fs.seedFlag(0, "the campaign's seed (default: drawn, and printed)")
	shardOf := fs.shardFlag("0/1", "the iterations (those ≡ i mod n)")
	out := fs.outFlag("corpus/ops/failures", "where to write the failing scripts")
	asJSON := fs.jsonFlag("a line per failure, then the summary, each tagged \"kind\"")
	checksOf := fs.checkFlag("every check")
	knownOf := fs.knownFlag()
	iterations := fs.Uint64("iterations", 0, "play only the iterations below this number (with or without a budget)")
	maxOps := fs.Int("max-ops", hunt.DefaultMaxOps, "the longest script drawn")
	only := fs.Uint64("iteration", 0, "play only this iteration of the campaign (as a failure's file names it)")
	verbose := fs.Bool("v", false, "name each failure's file on stderr as it is written")
	stop := fs.Bool("stop", false, "end at the first distinct failure (the iterations under way finish)")
	quiet := fs.Bool("quiet", false, "no progress lines on standard error")
	impl := addImplFlags(fs)
	pos, err := fs.parse(args)
	if err != nil || len(pos) != 0 {
		return fs.usageError(err)
	}
	switch {
	case *minutes < 0:
		return fail(stderr, "hunt", fmt.Errorf("--minutes %g: want a time budget ≥ 0", *minutes))
	case *minutes == 0 && *iterations == 0 && !flagGiven(fs, "iteration"):
		return fs.usageError(nil)
	}
	if err := fs.atLeast("max-ops", int64(*maxOps), 1); err != nil {
		return fail(stderr, "hunt", err)
	}
	cfg := hunt.Config{Seed: *seed, Budget: time.Duration(*minutes * float64(time.Minute)), Iterations: *iterations,
		MaxOps: *maxOps, Out: *out, Stop: *stop}
	if !*quiet {
		cfg.Progress = stderr
		if d, err := time.ParseDuration(os.Getenv("SESSIONDAG_PROGRESS_EVERY")); err == nil {
			cfg.ProgressEvery = d
		}
	}
	if !flagGiven(fs, "seed") {
		cfg.Seed = rand.Uint64() >> 11 // 53 bits: exact in any JSON reader
	}
	if cfg.Shard, err = shardOf(); err != nil {
		return fail(stderr, "hunt", err)
	}
	if cfg.Targets, err = checksOf(); err != nil {
		return fail(stderr, "hunt", err)
	}
	if cfg.Targets == nil {
		cfg.Targets = harness.Checks
	}
	if cfg.Known, err = knownOf(); err != nil {
		return fail(stderr, "hunt", err)
	}
	pool, err := impl.open(*impl.command, stderr)
	if err != nil {
		return fail(stderr, "hunt", err)
	}
	if pool != nil {
		defer pool.Close()
		cfg.Impl = pool
	}
	if *verbose {
		cfg.Log = stderr
	}
	if flagGiven(fs, "iteration") {
		cfg.Only = only
	}
	fmt.Fprintf(stderr, "hunt: seed %d, shard %s\n", cfg.Seed, cfg.Shard)
	r, err := hunt.Run(interrupt, cfg)
	if r != nil {
		if *asJSON {
			if jerr := r.JSON(stdout); jerr != nil && err == nil {
				err = jerr
			}
		} else {
			r.Text(stdout)
		}
	}
	if err != nil {
		return fail(stderr, "hunt", err)
	}
	v := r.Verdict()
	if interrupt.Err() != nil {
		fmt.Fprintln(stderr, "sessiondag hunt: interrupted: the report covers the iterations played")
		if v.Outcome == verdict.Fail {
			return verdict.ExitFail
		}
		return verdict.ExitInterrupted
	}
	return v.Exit()
}
