package exhaust

// tally is what a run counts of some scripts: the shard's scripts, the runs
// made or covered (a script × a lane with checks for it), those not run
// below a failing script, those whose intent is not in the data (checks
// needing it left out), and the runs that failed.
type tally struct {
	scripts, runs, skipped, unsynced, failures int64
}

func (t *tally) add(u tally) {
	t.scripts += u.scripts
	t.runs += u.runs
	t.skipped += u.skipped
	t.unsynced += u.unsynced
	t.failures += u.failures
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
