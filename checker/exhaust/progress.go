package exhaust

import (
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	tick "sessiondag/internal/progress"
)

// progress is what the workers of a run have done so far, for the lines a
// run prints while it lasts.
type progress struct {
	// parts are the run's parts of the walk (Parts: the scripts of at most
	// min(ShardDepth, MaxOps) ops, each with everything below it that is
	// not another part); begun counts those the walk has entered.
	parts           int64
	scripts, states atomic.Int64
	begun           atomic.Int64
	depth           atomic.Int64
	top             int
	// sizes are the parts' estimated sizes (Sizes), once the first line
	// is printed: a run shorter than a line's interval never pays for them.
	sizes  atomic.Pointer[Sizes]
	sizing sync.Once
	size   func(quit <-chan struct{}) (Sizes, error)
	claims *Claims // the shared directory whose finished parts count, or nil
	// With claims: the parts finished at the first sized count, and the
	// scripts of those finished since, as counted at each line within
	// rateWindow (and the last one before it).
	first   []bool
	samples []sample
}

// sample is the scripts of the parts finished since the first count, at
// a time of the run.
type sample struct {
	at  time.Duration
	did float64
}

// rateWindow is how far back a claimant's time left looks: claimants
// join, crash and end at different times, and the rate since this one
// started would count the minutes it walked alone.
const rateWindow = 10 * time.Minute

func newProgress(o Options) (*progress, error) {
	p := &progress{top: min(ShardDepth, o.MaxOps), claims: o.Claim}
	if o.Progress == nil {
		return p, nil
	}
	owner := func(k int) (bool, error) { return o.Shard.Owns(uint64(k)), nil }
	err := walkOwned(p.top, o.shape, owner, false, visitFunc(func(n Node) bool {
		if n.Owned {
			p.parts++
		}
		return true
	}))
	// One op below the parts, a part is its head and its children, all
	// checked: the parts begun measure the run as well as a sizing would,
	// and a sizing would cost a tenth of the walk.
	if o.MaxOps > ShardDepth+1 {
		p.size = func(quit <-chan struct{}) (Sizes, error) {
			return estimateSizes(o.MaxOps, o.shape, owner, sizeProbes, quit)
		}
	}
	return p, err
}

// entered counts a script the walk entered, and what the lanes have done
// since the last count.
func (p *progress) entered(n Node, lanes []*lane) {
	d := int64(len(n.Script))
	if n.Owned && n.Part >= 0 {
		p.begun.Add(1)
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
				if p.size != nil {
					p.sizing.Do(func() { wg.Go(func() { p.estimate(o.Progress, done) }) })
				}
				scripts, states := p.scripts.Load(), p.states.Load()
				dt := now.Sub(last).Seconds()
				fmt.Fprintf(o.Progress, "exhaust: %s scripts (%.0f/s), %d states (%.0f/s), depth %d, %s\n",
					tick.Count(scripts), float64(scripts-lastScripts)/dt, states, float64(states-lastStates)/dt,
					p.depth.Load(), p.left(scripts, now.Sub(start)))
				lastScripts, lastStates, last = scripts, states, now
			}
		}
	})
	return func() { close(done); wg.Wait() }
}

// estimate sizes the parts, or says why it cannot; it gives up when quit
// is closed (the run is over).
func (p *progress) estimate(w io.Writer, quit <-chan struct{}) {
	sz, err := p.size(quit)
	if errors.Is(err, errQuit) {
		return
	}
	if err != nil {
		fmt.Fprintf(w, "exhaust: the walk's size is not estimated: %v\n", err)
		return
	}
	p.sizes.Store(&sz)
}

// left is the part of a line that says how far the run is: the parts begun
// (with claims, those every claimant finished) and, once the parts are
// sized, the scripts of the whole estimated and the time left at the rate
// so far.
func (p *progress) left(scripts int64, elapsed time.Duration) string {
	sz := p.sizes.Load()
	if p.claims != nil {
		return p.leftClaimed(sz, elapsed)
	}
	begun := p.begun.Load()
	s := fmt.Sprintf("%d of %d parts begun", begun, p.parts)
	if p.size == nil {
		if begun == 0 {
			return s + ", time left unknown"
		}
		return s + ", " + tick.Left(elapsed, float64(begun), float64(p.parts-begun))
	}
	if sz == nil {
		return s + ", sizing the walk"
	}
	total, se := sz.Total(nil)
	s += fmt.Sprintf(", of about %s scripts (±%s)", tick.Count(int64(total)), tick.Count(int64(2*se)))
	if scripts == 0 || float64(scripts) >= total {
		return s + ", time left unknown"
	}
	return s + ", " + tick.Left(elapsed, float64(scripts), total-float64(scripts))
}

// leftClaimed is left for a claimant: the parts every claimant finished,
// and the scripts of those not finished at the rate the claimants
// finished parts in the last rateWindow (since this one started, at
// first).
func (p *progress) leftClaimed(sz *Sizes, elapsed time.Duration) string {
	fin, err := p.claims.finished()
	if err != nil {
		return err.Error()
	}
	s := fmt.Sprintf("%d of %d parts finished by every claimant", len(fin), p.parts)
	if p.size == nil {
		return s
	}
	if sz == nil {
		return s + ", sizing the walk"
	}
	done := make([]bool, len(sz.Scripts))
	for _, k := range fin {
		if k < len(done) {
			done[k] = true
		}
	}
	rest, se := sz.Total(func(k int) bool { return !done[k] })
	s += fmt.Sprintf(", about %s scripts (±%s) in the rest", tick.Count(int64(rest)), tick.Count(int64(2*se)))
	if p.first == nil {
		p.first, p.samples = done, []sample{{at: elapsed}} // what was finished before
		return s + ", time left unknown"
	}
	var since float64
	for k, d := range done {
		if d && !p.first[k] {
			since += sz.Scripts[k]
		}
	}
	for len(p.samples) > 1 && p.samples[1].at <= elapsed-rateWindow {
		p.samples = p.samples[1:]
	}
	from := p.samples[0]
	p.samples = append(p.samples, sample{elapsed, since})
	if since == from.did {
		return s + ", time left unknown"
	}
	return s + ", " + tick.Left(elapsed-from.at, since-from.did, rest)
}
