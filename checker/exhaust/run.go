package exhaust

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	"sessiondag/protocol"

	"sessiondag/checker/campaign"
	"sessiondag/checker/harness"
	"sessiondag/internal/shard"
	"sessiondag/ops"
)

// Options configure a run.
type Options struct {
	MaxOps int
	Shard  shard.Shard
	Kinds  []string        // the op kinds scripts are made of; empty = every kind but session
	Checks []harness.Check // empty = DefaultChecks()
	Tmp    string          // where reductions make directories ("" = the system's)
	// Workers splits the shard further into this many parts walked side
	// by side (0 or 1: one). The counts do not depend on it; with dedup,
	// which failures it reduces does (each part keeps what failed in its
	// own memo), and what each part checks does (what passed they share:
	// memos).
	Workers int
	// NoDedup checks every script and walks below every state, as if no
	// two were equal (the counts are the same; only the work differs).
	NoDedup bool
	// MemoLimit bounds each memo map of a worker's lane (0 = DefaultMemoLimit).
	MemoLimit int
	// MaxReduced caps how many failures each worker reduces and keeps
	// (with claims, each part: what a part reports is then its own, not
	// the split's) (0 = 20, negative = none); the rest are counted.
	MaxReduced int
	// Stop ends the walk at the first failing script: the counts are then
	// of the scripts walked so far (Summary.Stopped).
	Stop bool
	// OnFailure, when set, sees each kept failure as soon as it is reduced
	// (from the worker's goroutine: it must be safe for concurrent use).
	OnFailure func(Failure)
	// Known are the classes of failure a review accepted
	// (campaign.Known): a script failing with one of them passes, and the
	// file counts it.
	Known *campaign.Known
	// Progress, when set, gets a line every ProgressEvery (0 = 10 s) while
	// the run lasts: scripts and states per second, depth, the parts begun
	// (with claims, finished by every claimant) and, once the walk is sized
	// (Sizes), its estimated scripts and the time left.
	Progress      io.Writer
	ProgressEvery time.Duration
	// Claim, when set, deals the parts of the walk (Parts) by claims in a
	// shared directory instead of by Shard, and writes each part walked
	// here, with its failures, as files there (Claims). With several
	// workers, worker w claims as Claim.Name plus "." and w.
	Claim *Claims
	// Impl starts the implementation checked; nil = the implementation in
	// this repository, in-process. Another is checked with the checks and
	// kinds of data that can judge it (harness.ApplicableTo), on scripts of
	// the op kinds it writes, as it writes them (its together pairs and
	// without variants: shape).
	Impl protocol.Starter

	// shape is the scripts walked: of Kinds, as Impl writes them.
	shape shape
	// notRun is what cannot judge Impl (harness.ApplicableTo), for the
	// summaries of the run and of its parts.
	notRun []string
	// shared are the memos the workers' lanes share (memos); with claims,
	// exchange passes them between the claimants.
	shared   sharedMemos
	exchange *exchange
	walk     string // the walk's key (WalkID), for the summaries
	// giveBelow is the fewest ops below a state the exchange gives (0 =
	// 2; tests give states of small walks).
	giveBelow int
}

// DefaultMemoLimit is the states each lane's memo keeps per generation
// (with four times as many outcomes): about 200 bytes a state and 30 an
// outcome, two generations, two lanes: some 350 MB at most per worker;
// with claims, the states other claimants gave take as many again as its
// states, some 210 MB more a process (exchange).
const DefaultMemoLimit = 1 << 18

// Failure is one failing script: the script as the walk found it and the
// failure reduced (campaign.Reduce), with the finding on the reduced case.
type Failure struct {
	Script  []ops.Op
	Reduced campaign.Reduced
}

// Run walks every valid script of at most o.MaxOps ops in the shard and
// checks each one after its last op on every lane that takes it. Failures
// come in walk order, one per reduced script.
func Run(o Options) (Summary, []Failure, error) {
	start, cpu := time.Now(), cpuSeconds()
	o, err := o.prepared()
	if err != nil {
		return Summary{}, nil, err
	}
	workers := max(o.Workers, 1)
	// The shared memos hold what the workers' own memos held apart.
	o.shared = newSharedMemos(o.MemoLimit * workers)
	walk, err := walkIDOf(o)
	if err != nil {
		return Summary{}, nil, err
	}
	o.walk = walk.Key()
	parts := 0
	if o.Claim != nil {
		if !o.Shard.IsWhole() {
			return Summary{}, nil, fmt.Errorf("exhaust: claims deal the whole walk: no shard %v with them", o.Shard)
		}
		if err := o.Claim.prepare(walk); err != nil {
			return Summary{}, nil, err
		}
		parts = walk.Parts
	}
	prog, err := newProgress(o)
	if err != nil {
		return Summary{}, nil, err
	}
	if o.Claim != nil && !o.NoDedup {
		if o.exchange, err = openExchange(o.Claim.Dir, o.Claim.Name, o); err != nil {
			return Summary{}, nil, err
		}
	}
	stop := prog.report(o, start)
	sums := make([]Summary, workers)
	fails := make([][]Failure, workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			var claims *Claims
			if o.Claim != nil {
				claims = o.Claim.worker(w, workers)
			}
			sums[w], fails[w], errs[w] = runPart(o, o.Shard.Split(workers, w), prog, claims, parts)
		})
	}
	wg.Wait()
	stop()
	if o.exchange != nil {
		if err := o.exchange.close(); err != nil {
			errs = append(errs, err)
		}
	}
	sum := Summary{MaxOps: o.MaxOps, Shard: o.Shard.String(), ByLength: make([]int64, max(o.MaxOps, 0)),
		Dedup: !o.NoDedup, Kinds: kindsOf(o), Impl: implName(o), NotRun: o.notRun, LeftOut: leftOut(o), Walk: o.walk}
	if o.Claim != nil {
		sum.Shard, sum.Claimant, sum.Parts = claimedShard, o.Claim.Name, parts
		held, err := o.Claim.unfinished(parts)
		errs = append(errs, err)
		sum.Unfinished = held
	}
	var found []Failure
	for w := range workers {
		sum.add(sums[w])
		sum.Stopped = sum.Stopped || sums[w].Stopped
		found = append(found, fails[w]...)
	}
	// Each reduced script once, found by the first script in walk order
	// whichever worker walked it: the result is the same on any number.
	sortFailures(found)
	var all []Failure
	seen := map[string]bool{}
	for _, f := range found {
		if k := campaign.Key(f.Reduced.Case); !seen[k] {
			seen[k] = true
			all = append(all, f)
		}
	}
	sum.Reduced = int64(len(all))
	sum.Forgotten += o.shared.forgot()
	sum.Seconds, sum.CPUSeconds = time.Since(start).Seconds(), cpuSeconds()-cpu
	return sum, all, errors.Join(errs...)
}

// prepared is o with its defaults filled in and, against another
// implementation, the checks and the shape of the walk that can judge it.
func (o Options) prepared() (Options, error) {
	if o.MaxReduced == 0 {
		o.MaxReduced = 20
	}
	if o.MemoLimit == 0 {
		o.MemoLimit = DefaultMemoLimit
	}
	if o.giveBelow == 0 {
		o.giveBelow = 2
	}
	if len(o.Checks) == 0 {
		o.Checks = DefaultChecks()
	}
	if o.Impl != nil {
		a := o.Impl.About()
		o.Checks, o.notRun = harness.ApplicableTo(o.Checks, a)
		if len(o.Checks) == 0 {
			return o, fmt.Errorf("exhaust: no check can judge %s: %s", a.Name, strings.Join(o.notRun, "; "))
		}
		// The fingerprints are of the in-process implementation (keys.go):
		// they cannot tell two states of another process apart, so a run
		// against one checks every script and walks below every state.
		o.NoDedup = true
		if len(o.Kinds) == 0 && a.Ops != nil {
			for _, k := range ops.Kinds()[1:] {
				if !a.Writes(k) {
					o.Kinds = slices.DeleteFunc(slices.Clone(a.Ops), func(k string) bool { return k == "session" })
					break
				}
			}
		}
	}
	o.shape = shape{kinds: o.Kinds}
	if o.Impl != nil {
		var err error
		if o.shape, err = shapeOf(o.Kinds, o.Impl.About()); err != nil {
			return o, err
		}
	}
	return o, nil
}

// leftOut is what the comparisons leave out for the implementation
// checked (protocol.About.LeftOut): nothing in-process.
func leftOut(o Options) []string {
	if o.Impl == nil {
		return nil
	}
	return o.Impl.About().LeftOut()
}

// implName is the Impl of a run's summary: "" in-process.
func implName(o Options) string {
	if o.Impl == nil {
		return ""
	}
	return o.Impl.About().Name
}

// kindsOf is the Kinds of a run's summary.
func kindsOf(o Options) string {
	if len(o.Kinds) == 0 {
		return ""
	}
	return fmt.Sprint(o.Kinds)
}

// partName is the shard a part's summary names: part k of n.
func partName(k, n int) string { return fmt.Sprintf("%d/%d", k, n) }

// runner is a walk's visitor: it hands each script to every lane, and
// collects what fails.
type runner struct {
	opt   Options
	lanes []*lane
	sum   Summary
	fails []Failure
	seen  map[string]bool // reduced failures kept, by check, data and text (with claims, of the part)
	// partFrom is the failures reduced before the part being walked began
	// (with claims; 0 without).
	partFrom int64
	prog     *progress
	err      error
	// With claims: the parts, and the one whose head is being walked.
	claims *Claims
	parts  int
	open   *openPart
	clock  func() float64 // the processor time of the worker (partClock)
}

// runPart is one worker's walk: of its shard, or of the parts it claims.
func runPart(o Options, sh shard.Shard, prog *progress, claims *Claims, parts int) (Summary, []Failure, error) {
	start := time.Now()
	r := &runner{opt: o, seen: map[string]bool{}, prog: prog, claims: claims, parts: parts}
	if claims != nil {
		var done func()
		r.clock, done = partClock(max(o.Workers, 1))
		defer done()
	}
	r.sum.Kinds = kindsOf(o)
	r.lanes = newLanes(o.Checks, o.Impl, o.MaxOps, !o.NoDedup, o.MemoLimit, sh.IsWhole() && claims == nil, o.shared)
	for _, l := range r.lanes {
		l.failed, l.accepted = r.failed, r.accepted
		if err := l.start(); err != nil {
			return Summary{}, nil, err
		}
	}
	var err error
	if claims != nil {
		for _, owner := range claims.passes(parts) {
			if err = walkOwned(o.MaxOps, o.shape, r.unlessDone(owner), false, r); err != nil {
				break
			}
		}
	} else {
		err = walkWith(o.MaxOps, o.shape, sh, r)
	}
	for _, l := range r.lanes {
		l.close()
	}
	if err == nil {
		err = r.err
	}
	if err == nil {
		err = r.tally()
	}
	r.sum.WorkerSeconds = time.Since(start).Seconds()
	return r.sum, r.fails, err
}

// unlessDone is owner until the walk is over (an error, or the first
// failure with Stop): the walker asks for the parts it passes on its way
// out, and a part claimed then would be walked by no one.
func (r *runner) unlessDone(owner func(int) (bool, error)) func(int) (bool, error) {
	return func(k int) (bool, error) {
		if r.err != nil || r.opt.Stop && r.stopped() {
			return false, nil
		}
		return owner(k)
	}
}

func (r *runner) enter(n Node) bool {
	if r.err != nil {
		return false
	}
	if r.opt.Stop && r.stopped() {
		return false
	}
	var part *openPart
	if r.claims != nil && n.Owned && n.Part >= 0 {
		part = r.beginPart(n)
	}
	descend := false
	for _, l := range r.lanes {
		below, err := l.enter(n)
		if err != nil {
			r.err = err
			return false
		}
		descend = descend || below
	}
	r.prog.entered(n, r.lanes)
	switch {
	case part == nil:
	case descend && len(n.Script) == ShardDepth:
		r.open = part // everything below is the part's
	default:
		r.endPart(part)
	}
	return descend
}

func (r *runner) leave(n Node) {
	for _, l := range r.lanes {
		l.leave(n)
	}
	if r.open != nil && len(n.Script) == ShardDepth {
		r.endPart(r.open)
		r.open = nil
	}
}

// stopped reports whether a lane found a failing script.
func (r *runner) stopped() bool {
	for _, l := range r.lanes {
		if l.stats.failed > 0 {
			r.sum.Stopped = true
			return true
		}
	}
	return false
}

// tally adds up what the lanes covered and did. Every lane covers every
// script of the shard, each in its own walk through its memo: they must
// agree on how many there are.
func (r *runner) tally() error {
	r.sum.ByLength = make([]int64, max(r.opt.MaxOps, 0))
	r.sum.FailuresByLength = make([]int64, max(r.opt.MaxOps, 0))
	for i, l := range r.lanes {
		var scripts int64
		for k, t := range l.total() {
			if i == 0 {
				r.sum.ByLength[k] = t.scripts
				r.sum.Between += t.between // scripts, as every lane counts them
				if t.scripts > 0 {
					r.sum.Depth = k + 1
				}
			}
			scripts += t.scripts
			r.sum.Runs += t.runs
			r.sum.Skipped += t.skipped
			r.sum.Unsynced += t.unsynced
			r.sum.Failures += t.failures
			r.sum.FailuresByLength[k] += t.failures
		}
		if i == 0 {
			r.sum.Scripts = scripts
		} else if scripts != r.sum.Scripts {
			return fmt.Errorf("exhaust: the lanes covered %d and %d scripts: a memo took unequal states as equal", r.sum.Scripts, scripts)
		}
		r.sum.ChecksRun += l.stats.checked
		r.sum.Walked += l.stats.walked
		r.sum.HistoryChecks += l.stats.history
		r.sum.States += l.stats.states
		r.sum.Reused += l.stats.reused
		r.sum.Rebuilds += l.stats.rebuilds
		r.sum.Forks += l.stats.forks
		r.sum.Forgotten += l.memo.own.forgot
	}
	return nil
}
