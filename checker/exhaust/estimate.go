package exhaust

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	tick "sessiondag/internal/progress"
	"sessiondag/model"
	"sessiondag/ops"
)

// Sizes are the estimated sizes of a walk's parts, before the walk: the
// scripts each part holds (its head and everything below it), and the
// variance of each estimate. The parts above ShardDepth and the scripts of
// at most ShardDepth ops are counted, not estimated; below, each part is
// sized by Knuth's estimator (Knuth, "Estimating the efficiency of
// backtrack programs", 1975): a probe follows one random path down,
// choosing uniformly among the scripts the walk would enter, and the
// product of the choices it had at each depth is an unbiased estimate of
// the scripts at that depth. Probes are drawn from a generator seeded by
// the part's number: the same walk is sized the same every time.
type Sizes struct {
	Scripts  []float64 // by part number; 0 for parts of another shard
	Variance []float64
}

// Total is the estimated scripts of the parts kept (keep nil: all of
// them) and the standard error of that estimate.
func (s Sizes) Total(keep func(part int) bool) (scripts, stderr float64) {
	var v float64
	for p, n := range s.Scripts {
		if keep == nil || keep(p) {
			scripts += n
			v += s.Variance[p]
		}
	}
	return scripts, math.Sqrt(v)
}

// sizeProbes is how many random paths size a part: two, for the
// variance; over thousands of parts the estimate of the whole is within
// about a percent (TestSizesEstimateTheWalk).
const sizeProbes = 2

// errQuit is estimateSizes's error when told to quit.
var errQuit = errors.New("exhaust: sizing stopped")

// estimateSizes sizes the parts of a walk of at most max ops of shape s that
// the owner keeps, by probes random paths below each, unless quit is
// closed first (nil: never).
func estimateSizes(max int, s shape, owner func(part int) (bool, error), probes int, quit <-chan struct{}) (Sizes, error) {
	var sz Sizes
	top := min(ShardDepth, max)
	var err error
	visit := visitFunc(func(n Node) bool {
		if err != nil {
			return false
		}
		select {
		case <-quit:
			err = errQuit
			return false
		default:
		}
		sz.Scripts = append(sz.Scripts, 0)
		sz.Variance = append(sz.Variance, 0)
		if !n.Owned {
			return true
		}
		sz.Scripts[n.Part] = 1
		if len(n.Script) < top || max == top {
			return true
		}
		var run *model.LegacyRun
		if run, err = replay(n.Script); err != nil {
			return false
		}
		w, werr := newWalker(max, s, nil, nil)
		if werr != nil {
			err = werr
			return false
		}
		mean, variance := w.probe(n.Script, run, n.front, probes, rand.New(rand.NewPCG(uint64(n.Part), 0x5e55)))
		sz.Scripts[n.Part] += mean
		sz.Variance[n.Part] = variance
		return true
	})
	if werr := walkOwned(top, s, owner, false, visit); werr != nil {
		return Sizes{}, werr
	}
	return sz, err
}

// probe estimates the scripts strictly below path (in state run and f):
// the mean of probes Knuth estimates and the variance of that mean. One
// level below the estimate is exact, and one probe makes it.
func (w *walker) probe(path []ops.Op, run *model.LegacyRun, f *frontier, probes int, rng *rand.Rand) (mean, variance float64) {
	if w.max-len(path) == 1 {
		probes = 1
	}
	sum, sq := 0.0, 0.0
	for range probes {
		x := w.probeOnce(path, run, f, rng)
		sum += x
		sq += x * x
	}
	n := float64(probes)
	mean = sum / n
	if probes > 1 {
		variance = (sq - n*mean*mean) / (n - 1) / n
	}
	return mean, max(variance, 0)
}

// probeOnce follows one random path down from path and returns the sum over
// its depths of the product of the choices it had down to each.
func (w *walker) probeOnce(path []ops.Op, run *model.LegacyRun, f *frontier, rng *rand.Rand) float64 {
	w.path = slices.Clone(path)
	total, weight := 0.0, 1.0
	for len(w.path) < w.max {
		type child struct {
			op  ops.Op
			run *model.LegacyRun
			f   frontier
		}
		var kids []child
		// A refused op leaves the writer as it was: a fork is made only
		// to replace one that took an op.
		var r *model.LegacyRun
		for _, c := range w.choices(f) {
			if r == nil {
				r = run.Fork()
			}
			if g, ok := f.extend(c, r); ok {
				kids = append(kids, child{c.op, r, g})
				r = nil
			}
		}
		if len(kids) == 0 {
			break
		}
		weight *= float64(len(kids))
		total += weight
		k := kids[rng.IntN(len(kids))]
		w.path = append(w.path, k.op)
		run, f = k.run, &k.f
	}
	return total
}

// Estimate is the size of a run's walk, estimated before it (Sizes).
type Estimate struct {
	Scripts float64 // the scripts the run covers
	StdErr  float64 // the standard error of Scripts
	Parts   int     // the parts it walks
}

func (e Estimate) String() string {
	return fmt.Sprintf("about %s scripts (±%s, two standard errors) in %s parts",
		tick.Count(int64(math.Round(e.Scripts))), tick.Count(int64(math.Round(2*e.StdErr))), tick.Count(int64(e.Parts)))
}

// EstimateRun sizes the walk Run(o) would make: the parts of its shard
// (with claims, all of them), without checking a script.
func EstimateRun(o Options) (Estimate, error) {
	o, err := o.prepared()
	if err != nil {
		return Estimate{}, err
	}
	owns := func(k int) bool { return o.Shard.Owns(uint64(k)) }
	sz, err := estimateSizes(o.MaxOps, o.shape, func(k int) (bool, error) { return owns(k), nil }, sizeProbes, nil)
	if err != nil {
		return Estimate{}, err
	}
	e := Estimate{}
	e.Scripts, e.StdErr = sz.Total(owns)
	for k := range sz.Scripts {
		if owns(k) {
			e.Parts++
		}
	}
	return e, nil
}
