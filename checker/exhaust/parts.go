package exhaust

import (
	"runtime"
	"time"
)

// A part of the walk (Parts) as the runner follows it, to report it alone:
// what every lane had counted and done when it began.
type openPart struct {
	part, depth int
	lanes       []laneMark
	fails       int
	start       time.Time
	cpu         float64
}

type laneMark struct {
	below []tally // the tallies of the frame above the part's head
	stats laneStats
}

// beginPart marks where part n's head begins. What the part reports is a
// function of the part alone, whichever claimant walks it after whichever
// parts: the lanes' memos of what failed start empty (what passed they
// share: it hides no failure), and the failures reduced are counted and
// told apart per part.
func (r *runner) beginPart(n Node) *openPart {
	d := len(n.Script)
	if err := r.exchange(r.opt.exchange.take); err != nil && r.err == nil {
		r.err = err
	}
	for _, l := range r.lanes {
		r.sum.Forgotten += l.memo.own.forgot
		l.memo.own = newMemo(r.opt.MemoLimit)
	}
	r.seen, r.partFrom = map[string]bool{}, r.sum.Reduced
	p := &openPart{part: n.Part, depth: d, fails: len(r.fails), start: time.Now(), cpu: r.partCPU()}
	for _, l := range r.lanes {
		p.lanes = append(p.lanes, laneMark{below: append([]tally(nil), l.path[d-1].below...), stats: l.stats})
	}
	return p
}

// endPart reports a part once everything in it was walked: the tallies the
// lanes added above its head since it began, and what they did.
func (r *runner) endPart(p *openPart) {
	sum := Summary{MaxOps: r.opt.MaxOps, Kinds: r.sum.Kinds, Shard: partName(p.part, r.parts),
		ByLength: make([]int64, r.opt.MaxOps), FailuresByLength: make([]int64, r.opt.MaxOps), Dedup: !r.opt.NoDedup, Claimant: r.claims.Name,
		Impl: implName(r.opt), NotRun: r.opt.notRun, LeftOut: leftOut(r.opt), Walk: r.opt.walk}
	for i, l := range r.lanes {
		now := l.path[p.depth-1].below
		for k := range now {
			t := now[k]
			was := p.lanes[i].below[k]
			if i == 0 {
				sum.ByLength[p.depth-1+k] = t.scripts - was.scripts
				sum.Scripts += t.scripts - was.scripts
				sum.Between += t.between - was.between
				if t.scripts > was.scripts {
					sum.Depth = p.depth + k
				}
			}
			sum.Runs += t.runs - was.runs
			sum.Skipped += t.skipped - was.skipped
			sum.Unsynced += t.unsynced - was.unsynced
			sum.Failures += t.failures - was.failures
			sum.FailuresByLength[p.depth-1+k] += t.failures - was.failures
		}
		was := p.lanes[i].stats
		sum.ChecksRun += l.stats.checked - was.checked
		sum.Walked += l.stats.walked - was.walked
		sum.HistoryChecks += l.stats.history - was.history
		sum.States += l.stats.states - was.states
		sum.Reused += l.stats.reused - was.reused
		sum.Rebuilds += l.stats.rebuilds - was.rebuilds
		sum.Forks += l.stats.forks - was.forks
	}
	fails := r.fails[p.fails:]
	sum.Reduced = int64(len(fails))
	sum.Seconds = time.Since(p.start).Seconds()
	sum.WorkerSeconds, sum.CPUSeconds = sum.Seconds, r.partCPU()-p.cpu
	if err := r.exchange(r.opt.exchange.give); err != nil && r.err == nil {
		r.err = err
	}
	if err := r.claims.finish(p.part, sum, fails); err != nil && r.err == nil {
		r.err = err
	}
}

// exchange is an exchange's give or take, when the run has one (openExchange).
func (r *runner) exchange(f func() error) error {
	if r.opt.exchange == nil {
		return nil
	}
	return f()
}

// partCPU is the processor time of the worker so far, by the clock its
// parts are measured with (0 without one).
func (r *runner) partCPU() float64 {
	if r.clock == nil {
		return 0
	}
	return r.clock()
}

// partClock is what a worker measures its parts' processor time with, and
// what to call when it is done: its own thread's time, the worker's
// goroutine locked to that thread, so that a claimant walking with several
// workers does not count each one's time in the others' parts; where no
// thread's time is measured, the process's when the worker is its only
// one, else none (nil). The thread's time leaves out the collector's
// background work on other threads.
func partClock(workers int) (clock func() float64, done func()) {
	if _, ok := threadCPUSeconds(); ok {
		runtime.LockOSThread()
		return func() float64 { t, _ := threadCPUSeconds(); return t }, runtime.UnlockOSThread
	}
	if workers == 1 {
		return cpuSeconds, func() {}
	}
	return nil, func() {}
}
