package exhaust

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"sessiondag/checker/campaign"
	"sessiondag/checker/harness"
	"sessiondag/checker/ops"
	"sessiondag/impl/flags"
	"sessiondag/internal/shard"
)

// Options configure a run.
type Options struct {
	MaxOps int
	Shard  shard.Shard
	Kinds  []string        // the op kinds scripts are made of; empty = every kind but session
	Checks []harness.Check // empty = DefaultChecks()
	Tmp    string          // where reductions make directories ("" = the system's)
	// Workers splits the shard further into this many parts walked side
	// by side (0 or 1: one). The result does not depend on it.
	Workers int
	// MaxReduced caps how many failures each worker reduces and keeps
	// (0 = 20); the rest are counted.
	MaxReduced int
	// OnFailure, when set, sees each kept failure as soon as it is reduced
	// (from the worker's goroutine: it must be safe for concurrent use).
	OnFailure func(Failure)
}

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
	if o.MaxReduced == 0 {
		o.MaxReduced = 20
	}
	if len(o.Checks) == 0 {
		o.Checks = DefaultChecks()
	}
	workers := max(o.Workers, 1)
	sums := make([]Summary, workers)
	fails := make([][]Failure, workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			sums[w], fails[w], errs[w] = runPart(o, o.Shard.Split(workers, w))
		})
	}
	wg.Wait()
	sum := Summary{MaxOps: o.MaxOps, Shard: o.Shard.String(), ByLength: make([]int64, max(o.MaxOps, 0))}
	if len(o.Kinds) > 0 {
		sum.Kinds = fmt.Sprint(o.Kinds)
	}
	var found []Failure
	for w := range workers {
		sum.add(sums[w])
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
	sum.Seconds, sum.CPUSeconds = time.Since(start).Seconds(), cpuSeconds()-cpu
	return sum, all, errors.Join(errs...)
}

// runner is a walk's visitor: it counts the shard's scripts, checks each on
// every lane that takes it, and collects what fails.
type runner struct {
	opt   Options
	lanes []*lane
	sum   Summary
	fails []Failure
	seen  map[string]bool // reduced failures kept, by check, data and text
	err   error
}

// runPart is one worker's walk.
func runPart(o Options, sh shard.Shard) (Summary, []Failure, error) {
	start := time.Now()
	r := &runner{opt: o, seen: map[string]bool{}}
	r.lanes = newLanes(o.Checks)
	r.sum.ByLength = make([]int64, max(o.MaxOps, 0))
	err := Walk(o.MaxOps, o.Kinds, sh, r.visit)
	if err == nil {
		err = r.err
	}
	for _, l := range r.lanes {
		r.sum.Rebuilds += int64(l.rebuilds)
	}
	r.sum.WorkerSeconds = time.Since(start).Seconds()
	return r.sum, r.fails, err
}

// visit checks one script. Scripts above ShardDepth are checked by every
// shard, so that each knows which of them fail (nothing below a failure is
// checked), but counted and reported only by their owner.
func (r *runner) visit(n Node) bool {
	if r.err != nil {
		return false
	}
	d := len(n.Script)
	if n.Owned {
		r.sum.Scripts++
		r.sum.ByLength[d-1]++
	}
	for _, l := range r.lanes {
		flips := n.Flips
		if l.writer == flags.All {
			flips = n.FlipsOn
		}
		checks, kinds := l.planFor(flips, n.Synced)
		if !n.Synced && n.Owned {
			if all, _ := l.planFor(flips, true); len(all) > len(checks) {
				r.sum.Unsynced++ // checks that need the intent in the data left out
			}
		}
		if l.below(d) {
			if n.Owned && len(checks) > 0 {
				r.sum.Skipped++
			}
			continue
		}
		if len(checks) == 0 || !n.Owned && d >= ShardDepth {
			continue
		}
		f, err := l.check(n.Script, checks, kinds)
		if err != nil {
			r.err = err
			return false
		}
		if n.Owned {
			r.sum.Runs++
			if f != nil {
				r.failed(checks, f, n.Script)
			}
		}
	}
	return true
}
