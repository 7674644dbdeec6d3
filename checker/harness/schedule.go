package harness

import (
	"cmp"
	"os"
	"path/filepath"

	"sessiondag/protocol"

	"sessiondag/ops"
)

// A Schedule spreads a play's checks over a long script so that their work
// grows with the script's length, not with its square. Every check reads
// the whole session (a load under each config, the models' views, a cold
// load of the directory), so checking after every op of an n-op script
// costs work in n², which is what made replaying a long session's script
// hang. A Schedule gives each op PerOp nodes' worth of checking: the checks
// run after an op once the credit saved since the last run covers the
// session's nodes — after every op while the session holds at most PerOp
// nodes, then after about every (nodes/PerOp)-th op — and always after the
// last op. A play under a schedule that finds a failure looks between the
// last op it passed and the failing one for the op where it begins
// (PlayScheduled). A nil Schedule, or PerOp 0, checks after every op.
type Schedule struct {
	PerOp int
	// What the play did: the ops after which the checks ran, of the ops.
	Checked, Ops int

	credit int
}

// due reports whether the checks run after an op that leaves nodes nodes
// (last: the script's last op), and counts it.
func (sc *Schedule) due(nodes int, last bool) bool {
	if sc == nil {
		return true
	}
	sc.Ops++
	if sc.PerOp <= 0 {
		sc.Checked++
		return true
	}
	sc.credit += sc.PerOp
	if !last && sc.credit < nodes {
		return false
	}
	sc.Checked++
	// What a small session left over is not saved up for a large one.
	sc.credit = min(max(sc.credit-nodes, 0), sc.PerOp)
	return true
}

// EveryOp reports whether the play checked after every op.
func (sc *Schedule) EveryOp() bool { return sc == nil || sc.Checked == sc.Ops }

// PlayScheduled is PlayOn with the checks run after the ops sc picks
// (nil: every op). Its finding is the first of the ops checked; when the
// op checked before it passed and ops lie between them, it is moved to
// the op of that stretch after which the checks first fail past one that
// passes (a bisection, each probe a play from scratch), so that it names
// the op where the failure begins as a play after every op would, when
// the failure stays once it is there.
func PlayScheduled(impl protocol.Starter, data Data, script []ops.Op, sc *Schedule, checks ...Check) (*Finding, error) {
	s, done, err := newPlay(impl, data, script, checks)
	if err != nil {
		return nil, err
	}
	defer done()
	passed := 0 // the ops after which the checks last passed (0: none yet)
	for i, op := range script {
		if f, err := s.Apply(op); f != nil || err != nil {
			return f, err
		}
		if s.joined != "" || !sc.due(s.Legacy.NodeCount(), i == len(script)-1) {
			continue
		}
		f, err := s.Check(checks...)
		if err != nil || f == nil {
			passed = i + 1
			if err != nil {
				return nil, err
			}
			continue
		}
		if passed < i {
			return firstFailing(impl, data, script, passed, i+1, f, checks)
		}
		return f, nil
	}
	return nil, s.Between()
}

// firstFailing bisects between pass ops (the checks passed after them) and
// fail ops (they failed with f): the finding after the first op of the
// stretch that fails past one that passes.
func firstFailing(impl protocol.Starter, data Data, script []ops.Op, pass, fail int, f *Finding, checks []Check) (*Finding, error) {
	for fail-pass > 1 {
		mid := pass + (fail-pass)/2
		g, err := checkAfter(impl, data, script[:mid], checks)
		if err != nil {
			return nil, err
		}
		if g != nil {
			fail, f = mid, g
		} else {
			pass = mid
		}
	}
	return f, nil
}

// checkAfter plays script with no check on the way and runs the checks
// after its last op (nothing between two ops written in one step: nil).
func checkAfter(impl protocol.Starter, data Data, script []ops.Op, checks []Check) (*Finding, error) {
	s, done, err := newPlay(impl, data, script, checks)
	if err != nil {
		return nil, err
	}
	defer done()
	for _, op := range script {
		if f, err := s.Apply(op); f != nil || err != nil {
			return f, err
		}
	}
	return s.Check(checks...)
}

// newPlay is the session a play of script runs in, with a directory of
// its own when a check reads one (the in-process implementation), and what
// ends it.
func newPlay(impl protocol.Starter, data Data, script []ops.Op, checks []Check) (*Session, func(), error) {
	o := Options{Data: data, SessionID: SessionIDOf(script), Impl: impl}
	parent := ""
	for _, c := range checks {
		if c.OnDisk && o.Dir == "" && impl == nil {
			var err error
			if parent, err = os.MkdirTemp("", "sessiondag-play-"); err != nil {
				return nil, nil, err
			}
			o.Dir, o.NoSync = filepath.Join(parent, cmp.Or(o.SessionID, ops.DefaultSession)), true
		}
	}
	s, err := NewSession(o)
	if err != nil {
		os.RemoveAll(parent)
		return nil, nil, err
	}
	return s, func() {
		s.Close()
		os.RemoveAll(parent)
	}, nil
}
