package exhaust

import (
	"fmt"
	"time"

	"sessiondag/harness"
	"sessiondag/ops"
)

// Options configure a run.
type Options struct {
	MaxOps int
	Shard  Shard
	Kinds  []string // the op kinds scripts are made of; empty = every kind but session
	Lanes  []Lane   // empty = DefaultLanes
	// MaxReduced caps how many failures are reduced and kept (0 = 20); the
	// rest are counted. A failing script below one that already failed is
	// not checked again (it fails at the same op).
	MaxReduced int
	// OnFailure, when set, sees each failure as soon as it is reduced.
	OnFailure func(Failure)
}

// Failure is one failing script: what failed, on which data, the script as
// the walk found it and as reduced, and the finding on the reduced script.
type Failure struct {
	Check   string
	Data    string // the data kind's slug
	What    string
	Script  []ops.Op
	Reduced []ops.Op
	Finding *harness.Finding // on Reduced, ready for Finding.File
}

// Summary is what a run checked. Counts add up across shards (Merge).
type Summary struct {
	MaxOps   int     `json:"max_ops"`
	Kinds    string  `json:"kinds,omitempty"` // the op kinds used, when not every kind
	Shard    string  `json:"shard"`           // "i/n", or "0/1" for a whole run
	Scripts  int64   `json:"scripts"`         // distinct valid scripts enumerated
	ByLength []int64 `json:"by_length"`       // scripts of 1, 2, … ops
	Runs     int64   `json:"runs"`            // script × kind of data checked
	Skipped  int64   `json:"skipped"`         // script × data not checked: below a failing script
	Failures int64   `json:"failures"`        // failing script × data (those below a failure not counted)
	Reduced  int64   `json:"reduced"`         // distinct reduced failures kept
	Rebuilds int64   `json:"rebuilds"`        // sessions rebuilt from a prefix
	Seconds  float64 `json:"seconds"`
}

// runner is a walk's visitor: it counts the shard's scripts, checks each on
// every lane that takes it, and collects what fails.
type runner struct {
	opt   Options
	lanes []*laneRun
	sum   Summary
	fails []Failure
	seen  map[string]bool // reduced failures kept, by check, data and text
	err   error
}

// Run walks every valid script of at most o.MaxOps ops in the shard and
// checks each one after its last op on every lane that takes it.
func Run(o Options) (Summary, []Failure, error) {
	start := time.Now()
	if o.MaxReduced == 0 {
		o.MaxReduced = 20
	}
	if len(o.Lanes) == 0 {
		o.Lanes = DefaultLanes()
	}
	r := &runner{opt: o, seen: map[string]bool{}}
	for _, l := range o.Lanes {
		r.lanes = append(r.lanes, &laneRun{lane: l})
	}
	r.sum = Summary{MaxOps: o.MaxOps, Shard: shardText(o.Shard), ByLength: make([]int64, max(o.MaxOps, 0))}
	if len(o.Kinds) > 0 {
		r.sum.Kinds = fmt.Sprint(o.Kinds)
	}
	err := Walk(o.MaxOps, o.Kinds, o.Shard, r.visit)
	if err == nil {
		err = r.err
	}
	for _, l := range r.lanes {
		r.sum.Rebuilds += int64(l.rebuilds)
	}
	r.sum.Seconds = time.Since(start).Seconds()
	return r.sum, r.fails, err
}

func shardText(s Shard) string {
	if s.N <= 1 {
		return "0/1"
	}
	return fmt.Sprintf("%d/%d", s.I, s.N)
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
		if l.below(d) {
			if n.Owned && l.lane.takes(n.Flagged) {
				r.sum.Skipped++
			}
			continue
		}
		if !l.lane.takes(n.Flagged) || !n.Owned && d >= ShardDepth {
			continue
		}
		f, err := l.check(n.Script)
		if err != nil {
			r.err = err
			return false
		}
		if n.Owned {
			r.sum.Runs++
			if f != nil {
				r.failed(l.lane, f, n.Script)
			}
		}
	}
	return true
}
