package exhaust

import (
	"sync"

	"sessiondag/impl/flags"
)

// tally is what a run counts of some scripts: the shard's scripts, the runs
// made or covered (a script × a lane with checks for it), those not run
// below a failing script, those whose intent is not in the data (checks
// needing it left out), and the runs that failed.
type tally struct {
	scripts, runs, skipped, unsynced, failures int64
	between                                    int64 // scripts not checked: Node.Between
}

// fields are the tally's counts in one order, for the exchange's records.
func (t *tally) fields() [6]*int64 {
	return [6]*int64{&t.scripts, &t.runs, &t.skipped, &t.unsynced, &t.failures, &t.between}
}

func (t *tally) add(u tally) {
	t.scripts += u.scripts
	t.runs += u.runs
	t.skipped += u.skipped
	t.unsynced += u.unsynced
	t.failures += u.failures
	t.between += u.between
}

// memo is what a lane has learned: for each state it expanded, the tallies
// below it by distance (below[k-1]: the scripts k ops further down); for
// each distinct data it checked, whether the checks failed. It is a cache:
// each map holds at most limit entries (the outcomes, four times as many:
// they are a tenth of the size) in each of two generations, and when the
// newer one is full the older is dropped. A forgotten entry is found again
// by walking or checking again, with the same result.
type memo struct {
	limit          int
	states, oldSt  map[Fingerprint][]tally
	checked, oldCk map[Fingerprint]bool
	forgot         int64 // entries dropped
}

func newMemo(limit int) *memo {
	return &memo{limit: limit, states: map[Fingerprint][]tally{}, checked: map[Fingerprint]bool{}}
}

// below is the tallies below state, if it was expanded.
func (m *memo) below(state Fingerprint) ([]tally, bool) {
	if t, ok := m.states[state]; ok {
		return t, true
	}
	t, ok := m.oldSt[state]
	if ok {
		m.keepBelow(state, t)
	}
	return t, ok
}

func (m *memo) keepBelow(state Fingerprint, t []tally) {
	if len(m.states) >= m.limit {
		m.forgot += int64(len(m.oldSt))
		m.oldSt, m.states = m.states, make(map[Fingerprint][]tally, len(m.states))
	}
	m.states[state] = t
}

// outcome is whether the checks failed on data, if they ran on it.
func (m *memo) outcome(data Fingerprint) (failed, ok bool) {
	if failed, ok = m.checked[data]; ok {
		return failed, true
	}
	if failed, ok = m.oldCk[data]; ok {
		m.keepOutcome(data, failed)
	}
	return failed, ok
}

func (m *memo) keepOutcome(data Fingerprint, failed bool) {
	if len(m.checked) >= 4*m.limit {
		m.forgot += int64(len(m.oldCk))
		m.oldCk, m.checked = m.checked, make(map[Fingerprint]bool, len(m.checked))
	}
	m.checked[data] = failed
}

// memos is a lane's memo in two parts. What it found failing (a data whose
// checks failed, a state with a failure below it) it keeps in its own, so
// that each worker reports the failures its own walk finds, first in walk
// order, whatever the others walked. What it found passing it keeps in the
// memo that the lanes of one writers' start share across the workers
// (shared): a state or a data found again by any worker, anywhere its
// subtree is one worker's (from memoFrom down), is expanded or checked
// once. Nothing it skips for a shared entry holds a failure, so the
// failures a worker reports are those of its walk alone.
type memos struct {
	own    *memo
	shared *syncMemo
}

func (m memos) below(state Fingerprint) ([]tally, bool) {
	if t, ok := m.own.below(state); ok {
		return t, true
	}
	return m.shared.below(state)
}

func (m memos) keepBelow(state Fingerprint, t []tally) {
	for _, u := range t {
		if u.failures > 0 {
			m.own.keepBelow(state, t)
			return
		}
	}
	m.shared.keepBelow(state, t)
}

func (m memos) outcome(data Fingerprint) (failed, ok bool) {
	if failed, ok = m.own.outcome(data); ok {
		return failed, true
	}
	return m.shared.outcome(data)
}

func (m memos) keepOutcome(data Fingerprint, failed bool) {
	if failed {
		m.own.keepOutcome(data, true)
		return
	}
	m.shared.keepOutcome(data, false)
}

// syncMemo is a memo safe for the workers' goroutines. The tallies it
// hands out are never changed after they are kept.
type syncMemo struct {
	mu sync.Mutex
	m  *memo
	// With an exchange, the states kept since the last give (drain), and
	// those other claimants gave, in a memo of their own: they are many
	// and mostly of parts this claimant never walks, and kept with its
	// own they would push out the states its next parts meet.
	log     []given
	logs    bool
	learned *memo
}

func newSyncMemo(limit int) *syncMemo { return &syncMemo{m: newMemo(limit), learned: newMemo(limit)} }

func (s *syncMemo) below(state Fingerprint) ([]tally, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t, ok := s.m.below(state); ok {
		return t, true
	}
	return s.learned.below(state)
}

func (s *syncMemo) keepBelow(state Fingerprint, t []tally) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m.keepBelow(state, t)
	if s.logs {
		s.log = append(s.log, given{state, t})
	}
}

// learn keeps a state another claimant expanded (exchange), to give to
// no one.
func (s *syncMemo) learn(state Fingerprint, t []tally) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.learned.keepBelow(state, t)
}

// logging starts the log of the states kept, for an exchange.
func (s *syncMemo) logging() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.logs = true
}

// drain returns the states kept since the last drain.
func (s *syncMemo) drain() []given {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.log
	s.log = nil
	return out
}

func (s *syncMemo) outcome(data Fingerprint) (failed, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.m.outcome(data)
}

func (s *syncMemo) keepOutcome(data Fingerprint, failed bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m.keepOutcome(data, failed)
}

// forgot is the entries the shared memo dropped (of its own).
func (s *syncMemo) forgot() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.m.forgot
}

// sharedMemos are the shared memos of a run, one per writers' start.
type sharedMemos map[flags.Set]*syncMemo

func newSharedMemos(limit int) sharedMemos {
	out := sharedMemos{}
	for _, w := range writers {
		out[w] = newSyncMemo(limit)
	}
	return out
}

// forgot is the entries the shared memos dropped.
func (s sharedMemos) forgot() int64 {
	var n int64
	for _, w := range writers {
		n += s[w].forgot()
	}
	return n
}
