package exhaust

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// progress is what the workers of a run have done so far, for the lines a
// run prints while it lasts.
type progress struct {
	// pieces are the shard's scripts of depth min(ShardDepth, MaxOps):
	// the walk's parts, each with everything below it; started counts
	// those the walk has entered (startedAt).
	pieces          int64
	scripts, states atomic.Int64
	startedAt       atomic.Int64
	depth           atomic.Int64
	top             int
}

func newProgress(o Options) (*progress, error) {
	p := &progress{top: min(ShardDepth, o.MaxOps)}
	if o.Progress == nil {
		return p, nil
	}
	err := walkWith(p.top, o.shape, o.Shard, visitFunc(func(n Node) bool {
		if n.Owned && len(n.Script) == p.top {
			p.pieces++
		}
		return true
	}))
	return p, err
}

// entered counts a script the walk entered, and what the lanes have done
// since the last count.
func (p *progress) entered(n Node, lanes []*lane) {
	d := int64(len(n.Script))
	if n.Owned && int(d) == p.top {
		p.startedAt.Add(1)
	}
	if p.depth.Load() < d {
		p.depth.Store(d)
	}
	if len(lanes) == 0 {
		return
	}
	s := &lanes[0].stats
	if s.covered-s.published >= 256 || n.Leaf && d == int64(p.top) {
		p.scripts.Add(s.covered - s.published)
		s.published = s.covered
		var states int64
		for _, l := range lanes {
			states += l.stats.states - l.stats.statesPublished
			l.stats.statesPublished = l.stats.states
		}
		p.states.Add(states)
	}
}

// report prints a line every o.ProgressEvery until the returned stop is
// called.
func (p *progress) report(o Options, start time.Time) (stop func()) {
	if o.Progress == nil {
		return func() {}
	}
	every := o.ProgressEvery
	if every <= 0 {
		every = 10 * time.Second
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(every)
		defer t.Stop()
		var lastScripts, lastStates int64
		last := start
		for {
			select {
			case <-done:
				return
			case now := <-t.C:
				scripts, states := p.scripts.Load(), p.states.Load()
				dt := now.Sub(last).Seconds()
				fmt.Fprintf(o.Progress, "exhaust: %s scripts (%.0f/s), %d states (%.0f/s), depth %d, %d of %d parts begun, %s\n",
					count(scripts), float64(scripts-lastScripts)/dt, states, float64(states-lastStates)/dt,
					p.depth.Load(), p.startedAt.Load(), p.pieces, p.left(now.Sub(start)))
				lastScripts, lastStates, last = scripts, states, now
			}
		}
	})
	return func() { close(done); wg.Wait() }
}

// left estimates the time left from the share of parts begun.
func (p *progress) left(elapsed time.Duration) string {
	begun := p.startedAt.Load()
	if begun == 0 || p.pieces == 0 {
		return "time left unknown"
	}
	rest := time.Duration(float64(elapsed) * float64(p.pieces-begun) / float64(begun))
	return "about " + rest.Round(time.Second).String() + " left"
}

// count writes n with thousands separators.
func count(n int64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
