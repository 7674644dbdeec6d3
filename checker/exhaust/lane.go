package exhaust

import (
	"fmt"
	"slices"

	"sessiondag/protocol"

	"sessiondag/checker/harness"
	"sessiondag/impl/flags"
	"sessiondag/ops"
)

// DefaultChecks are the checks a run makes by default: every check that runs
// on the session after each op without a directory on disk, each where the
// kinds of data it declares admit the script.
func DefaultChecks() []harness.Check {
	var out []harness.Check
	for _, c := range harness.Checks {
		if c.PerOp() && !c.OnDisk {
			out = append(out, c)
		}
	}
	return out
}

// writers are the starts of the writers' flags a script is checked under:
// every kind of data starts with the flags on or with them off.
var writers = []flags.Set{flags.All, flags.Off}

// lane is the checks of one writers' start over the walk. One session, the
// scout, follows the walk down a path; for a sibling it is a fork of the
// session after the parent that no check read (pristine), given one op, or
// with another process as the implementation rebuilt from the prefix
// (applied without checks). The fingerprints come
// from it, and the checks of a script run on it right after its last op,
// on memos no load has filled (rebuilt first if an earlier check filled
// them): every script is checked from the same history whatever order the
// walk took, the one a cold load of its data has. A check about what loads
// keep (harness.Check.History) runs in a session of its own instead, after
// the loads of every config on the session before the last op (check).
//
// With dedup a lane checks each distinct data once (dataKey, historyKey)
// and expands each distinct state once (stateKey), taking the tallies below
// a state from its memo when the state comes again; the counts are those
// of a run without it.
//
// The implementation is another process when impl is set: its sessions may
// stop answering on any request (a harness.Protocol finding), which is the
// failure of the script being checked; the scout is then closed and the
// next script starts another process.
type lane struct {
	writer flags.Set
	checks []harness.Check  // those declaring a kind of data with this start
	impl   protocol.Starter // nil = in-process
	max    int
	// dedup is off when a check reads the script itself (ReadsScript), and
	// when the implementation is another process (impl): the fingerprints
	// are of the in-process implementation's writers and store, and
	// another process's state is not visible to them, so two scripts with
	// equal fingerprints may well leave it in different states.
	dedup bool
	// memoFrom is the least depth whose states the memo keeps: ShardDepth
	// in a part of the walk (above it a script's subtree is dealt to
	// several parts), 1 in a whole one.
	memoFrom int
	memo     memos
	scout    *harness.Session
	loaded   bool // checks ran on the scout: its memos are filled
	// pristine[d] is a fork of the scout after the path's script of d ops,
	// taken before any check read it (nil: none): a sibling, or the scout
	// again after a check, is a fork of it and one op, not the whole prefix
	// rebuilt. Only the in-process implementation forks (impl == nil).
	pristine []*harness.Session
	path     []frame                      // path[d]: the script of d ops on the walk's path
	plans    [harness.Any + 1][2]madePlan // planFor's answers by flips and synced
	buf      []byte
	stats    laneStats
	// failed sees a failure the lane's checks found on an owned script.
	failed func(checks []harness.Check, f *harness.Finding, script []ops.Op)
	// accepted says whether a failure is of a known class (it then passes).
	accepted func(checks []harness.Check, f *harness.Finding, script []ops.Op) bool
}

// laneStats is what a lane did, as opposed to what it covered.
type laneStats struct {
	checked  int64 // sessions checked: distinct data with dedup
	history  int64 // … of them, after a load before the last op (History)
	states   int64 // distinct states expanded (from memoFrom down)
	reused   int64 // states found in the memo: nothing below walked
	rebuilds int64 // scout sessions rebuilt from a prefix
	forks    int64 // … and copied from a pristine one instead
	covered  int64 // the shard's scripts counted so far
	walked   int64 // … of them entered by the walk, not taken from the memo
	failed   int64 // failing scripts the lane's own checks found
	// what progress has been told of
	published, statesPublished int64
}

// frame is one script of the walk's path, as the lane saw it.
type frame struct {
	below  []tally // below[k-1]: the shard's scripts k ops further down
	state  Fingerprint
	keep   bool // put below into the memo under state when left
	failed bool // this script or one above it failed on this lane
	// store is the fingerprint of the implementation's store after the
	// script: the History checks of a script one op longer start from
	// memos filled on it.
	store Fingerprint
}

// newLanes makes a worker's lanes; shared are the memos its lanes share
// with the other workers' (nil: their own).
func newLanes(checks []harness.Check, impl protocol.Starter, max int, dedup bool, memoLimit int, whole bool, shared sharedMemos) []*lane {
	if shared == nil {
		shared = newSharedMemos(memoLimit)
	}
	var out []*lane
	for _, w := range writers {
		l := &lane{writer: w, impl: impl, max: max, dedup: dedup && impl == nil, memo: memos{own: newMemo(memoLimit), shared: shared[w]},
			memoFrom: ShardDepth}
		if whole {
			l.memoFrom = 1
		}
		for _, c := range checks {
			for _, d := range c.Data {
				if d.Writer == w {
					l.checks = append(l.checks, c)
					l.dedup = l.dedup && !c.ReadsScript
					break
				}
			}
		}
		if len(l.checks) > 0 {
			out = append(out, l)
		}
	}
	return out
}

// start begins the lane's walk at the empty script.
func (l *lane) start() error {
	if _, err := l.goTo(nil); err != nil {
		return err
	}
	l.path = []frame{{below: make([]tally, l.max), store: l.storeKey()}}
	return nil
}

// close ends the lane's scout.
func (l *lane) close() {
	if l.scout != nil {
		l.scout.Close()
		l.scout = nil
	}
}

// total is what the lane covered: the tallies of its root, by length.
func (l *lane) total() []tally { return l.path[0].below }

// flips is how the flags in force change over the script from this lane's
// start.
func (l *lane) flips(n Node) harness.Flips {
	if l.writer == flags.All {
		return n.FlipsOn
	}
	return n.Flips
}

// planFor is the checks the lane runs on a script, each with the first kind
// of data it declares that takes the script. It depends on nothing else, so
// each of the few answers is worked out once (plans); callers never change
// the slices.
func (l *lane) planFor(flips harness.Flips, synced bool) (checks []harness.Check, kinds []harness.Data) {
	b := 0
	if synced {
		b = 1
	}
	if int(flips) >= len(l.plans) {
		return l.planOf(flips, synced)
	}
	p := &l.plans[flips][b]
	if !p.made {
		p.checks, p.kinds = l.planOf(flips, synced)
		p.made = true
	}
	return p.checks, p.kinds
}

// planOf is planFor worked out.
func (l *lane) planOf(flips harness.Flips, synced bool) (checks []harness.Check, kinds []harness.Data) {
	for _, c := range l.checks {
		for _, d := range c.Data {
			if d.Writer == l.writer && d.Takes(flips, synced) {
				checks, kinds = append(checks, c), append(kinds, d)
				break
			}
		}
	}
	return checks, kinds
}

// enter tallies a script of the walk, checking it where this lane has
// checks for it, and reports whether the lane needs what lies below it.
// Scripts above ShardDepth are checked by every shard, so that each knows
// which of them fail (nothing below a failure is checked on its lane), but
// counted only by their owner.
func (l *lane) enter(n Node) (bool, error) {
	d := len(n.Script)
	if len(l.path) != d || !n.Owned && d >= ShardDepth {
		return false, nil // below a script the lane does not expand, or another shard's
	}
	up := &l.path[d-1]
	flips := l.flips(n)
	checks, kinds := l.planFor(flips, n.Synced)
	var own tally
	if n.Owned {
		own.scripts = 1
		if !n.Synced {
			if all, _ := l.planFor(flips, true); len(all) > len(checks) {
				own.unsynced = 1 // checks that need the intent in the data left out
			}
		}
	}
	failed := up.failed
	switch {
	case n.Between:
		// Nothing to judge until the pair's second op (harness.Session.Check).
		if n.Owned {
			own.between = 1
		}
	case len(checks) == 0:
	case failed:
		own.skipped = 1
	default:
		bad, err := l.outcome(n, checks, kinds, up.store)
		if err != nil {
			return false, err
		}
		own.runs = 1
		if bad {
			own.failures, failed = 1, true
		}
	}
	if n.Owned {
		up.below[0].add(own)
		l.stats.covered++
		l.stats.walked++
	}
	if n.Leaf {
		return false, nil
	}
	// An implementation that stops answering here leaves no scout: the
	// scripts below start another (goTo), and it is their failure if it
	// stops again.
	if _, err := l.goTo(n.Script); err != nil {
		return false, err
	}
	f := frame{below: make([]tally, l.max-d), failed: failed, store: l.storeKey()}
	if l.dedup && d >= l.memoFrom {
		f.state = l.stateKey(n, failed)
		if t, ok := l.memo.below(f.state); ok && len(t) >= len(f.below) {
			l.stats.reused++
			addBelow(up, t[:len(f.below)])
			for _, u := range t[:len(f.below)] {
				l.stats.covered += u.scripts
			}
			return false, nil
		}
		f.keep = true
	}
	l.path = append(l.path, f)
	return true, nil
}

// leave adds what lay below a script the lane expanded to the script
// above, and keeps it in the memo.
func (l *lane) leave(n Node) {
	d := len(n.Script)
	if len(l.path) != d+1 {
		return
	}
	f := l.path[d]
	l.path = l.path[:d]
	if f.keep {
		l.stats.states++
		l.memo.keepBelow(f.state, f.below)
	}
	addBelow(&l.path[d-1], f.below)
}

// addBelow adds the tallies below a script (by distance) to its parent's.
func addBelow(up *frame, below []tally) {
	for k, t := range below {
		up.below[k+1].add(t)
	}
}

// outcome checks a script, or with dedup takes the outcome of the checks
// on equal data; an owned script's failure, found by its own checks, is
// reported. before is the store's fingerprint before the script's last op.
func (l *lane) outcome(n Node, checks []harness.Check, kinds []harness.Data, before Fingerprint) (bool, error) {
	var cold, hist plan
	for i, c := range checks {
		p := &cold
		if c.History {
			p = &hist
		}
		p.checks, p.kinds = append(p.checks, c), append(p.kinds, kinds[i])
	}
	for _, p := range []plan{cold, hist} {
		if len(p.checks) == 0 {
			continue
		}
		if pf, err := l.goTo(n.Script); err != nil {
			return false, err
		} else if pf != nil {
			// The implementation stopped answering, or refused an op, on
			// the way to the script: that is the script's failure.
			return true, l.failedOnTheWay(n, p, pf)
		}
		var key Fingerprint
		if l.dedup {
			if p.history() {
				key = l.historyKey(p, before)
			} else {
				key = l.dataKey(p)
			}
			if bad, ok := l.memo.outcome(key); ok {
				if bad {
					return true, nil
				}
				continue
			}
		}
		f, err := l.check(n.Script, p)
		if err != nil {
			return false, err
		}
		if f != nil && l.accepted(p.checks, f, n.Script) {
			f = nil // a known class: the script passes, the known file counts it
		}
		if l.dedup {
			l.memo.keepOutcome(key, f != nil)
		}
		if f != nil {
			l.stats.failed++
			if n.Owned {
				l.failed(p.checks, f, n.Script)
			}
			return true, nil
		}
	}
	return false, nil
}

// failedOnTheWay records a finding made on the way to script n, before
// its checks ran: the implementation stopped answering, or refused an op
// the writer model accepts. A finding of a class the known file accepts
// passes, as a check's would.
func (l *lane) failedOnTheWay(n Node, p plan, f *harness.Finding) error {
	f.Data = p.kinds[0]
	if f.Step == 0 {
		f.Step = len(n.Script)
	}
	if l.accepted(p.checks, f, n.Script) {
		return nil
	}
	l.stats.failed++
	if n.Owned {
		l.failed(p.checks, f, n.Script)
	}
	return nil
}

// madePlan is one of planFor's answers, once made.
type madePlan struct {
	made   bool
	checks []harness.Check
	kinds  []harness.Data
}

// plan is the checks run on one session, each with its kind of data.
type plan struct {
	checks []harness.Check
	kinds  []harness.Data
}

// history reports whether the plan's checks are about what loads keep.
func (p plan) history() bool { return len(p.checks) > 0 && p.checks[0].History }

// check runs a plan's checks after the last op of script; the finding
// carries the kind of data of the check that failed. A plan of History
// checks runs in a session of its own: the prefix applied without checks,
// the loads of every config (warm), the last op — one load before the op,
// as a browser loads a session before the next turn, so that a load after
// an append or an update runs over what the earlier one kept; the store
// before the op is then part of the data (historyKey). Any other plan runs
// on the scout, which stands after the script, on memos no load filled.
func (l *lane) check(script []ops.Op, p plan) (*harness.Finding, error) {
	var f *harness.Finding
	var err error
	if p.history() {
		prefix, last := script[:len(script)-1], script[len(script)-1]
		var s *harness.Session
		if p := l.pristineAt(prefix); p != nil {
			s, err = p.Fork()
			l.stats.forks++
		} else {
			s, f, err = l.session(prefix)
		}
		if err != nil {
			return nil, err
		}
		if f == nil {
			warm(s)
			f, err = s.Step(last, p.checks...)
			s.Close()
		}
		l.stats.history++
	} else {
		if l.loaded {
			if p := l.pristineAt(script); p != nil {
				err = l.forkScout(p)
			} else {
				f, err = l.rebuild(script)
			}
			if err != nil {
				return nil, err
			}
		}
		if f == nil {
			l.loaded = true
			f, err = l.scout.Check(p.checks...)
		}
		if f != nil && f.Check == harness.Protocol.Name {
			// The process is gone: the next script starts another.
			l.close()
		}
	}
	l.stats.checked++
	if err != nil {
		return nil, fmt.Errorf("exhaust: a script the writer model accepts: %w\n%s", err, ops.String(script))
	}
	if f != nil {
		if f.Step == 0 {
			f.Step = len(script)
		}
		f.Data = p.kinds[0]
		for i, c := range p.checks {
			if c.Name == f.Check {
				f.Data = p.kinds[i]
			}
		}
	}
	return f, nil
}

// warm makes the loads every check makes: under each config of the rollout
// path, which fills the columns of each rule set, the memos of each node
// and flag A's predecessors.
func warm(s *harness.Session) {
	for _, fl := range flags.Rollout {
		s.Load(fl)
	}
}

// session is a new session with the lane's writers after script, applied
// without checks. A finding on the way — another process that stopped
// answering (harness.Protocol), or writers that disagree on whether an op
// applies (harness.Validity: the walk applies only what the writer model
// accepts, so the implementation refused it) — comes back with the session
// closed: it is the script's failure.
func (l *lane) session(script []ops.Op) (*harness.Session, *harness.Finding, error) {
	s, err := harness.NewSession(harness.Options{Data: harness.Data{Name: "exhaust", Writer: l.writer}, Impl: l.impl})
	if err != nil {
		return nil, nil, fmt.Errorf("exhaust: start a session: %w", err)
	}
	for _, op := range script {
		f, err := s.Apply(op)
		if err != nil {
			s.Close()
			return nil, nil, fmt.Errorf("exhaust: applying a prefix the writer model accepts: %w\n%s", err, ops.String(script))
		}
		if f != nil {
			s.Close()
			return nil, f, nil
		}
	}
	return s, nil, nil
}

// goTo brings the scout to the state after script: one op on from where it
// is when it stands at the script's parent and no check read it, else one
// op on from a fork of the parent's pristine session, else rebuilt. On the
// way it keeps a pristine fork of a script the walk may go below. A finding
// is of harness.Protocol (the implementation stopped answering) or of
// harness.Validity (it refused an op the model accepts), and the lane has
// no scout until the next goTo.
func (l *lane) goTo(script []ops.Op) (*harness.Finding, error) {
	d := len(script)
	if l.scout != nil && slices.Equal(l.scout.Script, script) {
		return nil, nil
	}
	switch {
	case d > 0 && l.scout != nil && !l.loaded && slices.Equal(l.scout.Script, script[:d-1]):
	case d > 0 && l.pristineAt(script[:d-1]) != nil:
		if err := l.forkScout(l.pristineAt(script[:d-1])); err != nil {
			return nil, err
		}
	default:
		if f, err := l.rebuild(script); err != nil || f != nil {
			return f, err
		}
		return nil, l.keepPristine()
	}
	f, err := l.scout.Apply(script[d-1])
	if err != nil {
		return nil, fmt.Errorf("exhaust: applying a script the writer model accepts: %w\n%s", err, ops.String(script))
	}
	if f != nil {
		l.close() // a scout the implementation stopped or refused on is no state to go on from
		return f, nil
	}
	return nil, l.keepPristine()
}

// pristineAt is the pristine session after script, nil if the lane keeps
// none.
func (l *lane) pristineAt(script []ops.Op) *harness.Session {
	if d := len(script); d < len(l.pristine) && l.pristine[d] != nil && slices.Equal(l.pristine[d].Script, script) {
		return l.pristine[d]
	}
	return nil
}

// keepPristine keeps a fork of the scout, which no check has read, when
// the walk may go below its script.
func (l *lane) keepPristine() error {
	d := len(l.scout.Script)
	if l.impl != nil || l.loaded || d >= l.max {
		return nil
	}
	p, err := l.scout.Fork()
	if err != nil {
		return fmt.Errorf("exhaust: %w", err)
	}
	for len(l.pristine) <= d {
		l.pristine = append(l.pristine, nil)
	}
	l.pristine[d] = p
	return nil
}

// forkScout makes the scout a fork of p.
func (l *lane) forkScout(p *harness.Session) error {
	s, err := p.Fork()
	if err != nil {
		return fmt.Errorf("exhaust: %w", err)
	}
	l.close()
	l.scout, l.loaded = s, false
	l.stats.forks++
	return nil
}

// rebuild starts the scout afresh and applies script without checks.
func (l *lane) rebuild(script []ops.Op) (*harness.Finding, error) {
	l.close()
	s, f, err := l.session(script)
	if err != nil || f != nil {
		return f, err
	}
	l.scout, l.loaded = s, false
	l.stats.rebuilds++
	return nil, nil
}
