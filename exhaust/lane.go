package exhaust

import (
	"fmt"

	"sessiondag/harness"
	"sessiondag/impl/flags"
	"sessiondag/ops"
)

// Lane is one kind of data with the checks that apply to it.
type Lane struct {
	Data   harness.Data
	Checks []harness.Check
}

// DefaultLanes are P1–P5 on the data each applies to: written with the
// flags on (target, rollout, cutoff, cards) and written with them off,
// flipped mid-session when the script has flag ops (legacy, rollout,
// cutoff, cards).
func DefaultLanes() []Lane {
	return []Lane{
		{harness.WrittenOn, checksNamed("target", "rollout", "cutoff", "cards")},
		{harness.WrittenOff, checksNamed("legacy", "rollout", "cutoff", "cards")},
	}
}

func checksNamed(names ...string) []harness.Check {
	out := make([]harness.Check, len(names))
	for i, n := range names {
		c, err := harness.CheckNamed(n)
		if err != nil {
			panic(err) // the names are harness's own
		}
		out[i] = c
	}
	return out
}

// takes reports whether the lane checks a script: flag ops move the writers
// forward along the rollout path, so a script with one is data flipped
// mid-session, which only writers that start with every flag off can be.
func (l Lane) takes(flagged bool) bool { return !flagged || l.Data.Writer == flags.Off }

// dataOf is the kind of data a script is on this lane.
func (l Lane) dataOf(script []ops.Op) harness.Data {
	if l.Data.Writer == flags.Off || l.Data.Writer == flags.All {
		return harness.DataFor(script, l.Data.Writer)
	}
	return l.Data
}

// laneRun checks the scripts of a walk on one lane. Its session follows
// the walk: it is extended while the walk goes down, and rebuilt from the
// prefix (applied without checks) when the walk turns to a sibling.
type laneRun struct {
	lane      Lane
	sess      *harness.Session
	failDepth int // depth of the failing script the walk is below, 0 = none
	rebuilds  int
}

// below reports whether a script of depth d lies below a script that
// failed on this lane (it then fails too, at the same op, as harness.Play
// would report it) and forgets a failure the walk has left.
func (l *laneRun) below(d int) bool {
	if l.failDepth > 0 && d <= l.failDepth {
		l.failDepth = 0
	}
	return l.failDepth > 0
}

// check runs the lane's checks after the last op of script.
func (l *laneRun) check(script []ops.Op) (*harness.Finding, error) {
	prefix, last := script[:len(script)-1], script[len(script)-1]
	if l.sess == nil || !isPrefix(l.sess.Script, prefix) {
		s, err := harness.NewSession(harness.Options{Data: l.lane.Data})
		if err != nil {
			return nil, fmt.Errorf("exhaust: start a session: %w", err)
		}
		l.sess = s
		l.rebuilds++
	}
	for _, op := range prefix[len(l.sess.Script):] {
		if f, err := l.sess.Apply(op); f != nil || err != nil {
			// The prefix was checked before this script and passed.
			return nil, fmt.Errorf("exhaust: re-applying a checked prefix: %v %v\n%s", f, err, ops.String(prefix))
		}
	}
	f, err := l.sess.Step(last, l.lane.Checks...)
	if err != nil {
		return nil, fmt.Errorf("exhaust: a script the writer model accepts: %w\n%s", err, ops.String(script))
	}
	if f != nil {
		l.failDepth = len(script)
		f.Data = l.lane.dataOf(script)
		if f.Step == 0 {
			f.Step = len(script)
		}
	}
	return f, nil
}

// isPrefix reports whether a is a prefix of b.
func isPrefix(a, b []ops.Op) bool {
	if len(a) > len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
