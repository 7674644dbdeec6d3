package exhaust

import (
	"fmt"
	"slices"
	"strings"

	"sessiondag/checker/harness"
	"sessiondag/checker/ops"
	"sessiondag/impl/flags"
)

// Lane is one kind of data with the checks that apply to it.
type Lane struct {
	Data   harness.Data
	Checks []harness.Check
	// SyncedOnly names the checks that run only on scripts whose intent
	// is in the data (Node.Synced), as the property suite runs them.
	SyncedOnly []string
}

// DefaultLanes are P1–P5 on the data each applies to: written with the
// flags on (target, rollout, cutoff, cards), and written with them off,
// flipped mid-session when the script has flag ops (legacy, rollout,
// cutoff, cards). As in the property suite, P1 and P5 hold on all legacy
// data while P3 and P4 are checked on the data kinds harness.WrittenOff
// and Flipped, which leave out the legacy shapes whose intent no reader
// can recover (a web turn from a stale browser, a row without a parent
// after a checkout): there a step may hide a row R showed by luck, which
// the audit reports and model/README.md documents.
func DefaultLanes() []Lane {
	return []Lane{
		{Data: harness.WrittenOn, Checks: checksNamed("target", "rollout", "cutoff", "cards")},
		{Data: harness.WrittenOff, Checks: checksNamed("legacy", "rollout", "cutoff", "cards"),
			SyncedOnly: []string{"rollout", "cutoff"}},
	}
}

// checksFor are the lane's checks for a script.
func (l Lane) checksFor(synced bool) []harness.Check {
	if synced || len(l.SyncedOnly) == 0 {
		return l.Checks
	}
	var out []harness.Check
	for _, c := range l.Checks {
		if !slices.Contains(l.SyncedOnly, c.Name) {
			out = append(out, c)
		}
	}
	return out
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

// ForImpl keeps the lanes an implementation can be judged on, each with the
// checks that apply to it (harness.Check.Applies), and says why each check
// or lane left out is.
func ForImpl(lanes []Lane, a harness.About) ([]Lane, []string) {
	var out []Lane
	var notRun []string
	why := func(err error) string { return strings.TrimPrefix(err.Error(), harness.ErrNotApplicable.Error()+": ") }
	for _, l := range lanes {
		if err := a.TakesData(l.Data); err != nil {
			notRun = append(notRun, why(err))
			continue
		}
		var checks []harness.Check
		for _, c := range l.Checks {
			if err := c.Applies(a); err != nil {
				notRun = append(notRun, fmt.Sprintf("[%s] %s", l.Data.Slug, why(err)))
				continue
			}
			checks = append(checks, c)
		}
		if len(checks) > 0 {
			l.Checks = checks
			out = append(out, l)
		}
	}
	return out, notRun
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
	impl      harness.Starter // nil = in-process
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
func (l *laneRun) check(script []ops.Op, synced bool) (*harness.Finding, error) {
	prefix, last := script[:len(script)-1], script[len(script)-1]
	if l.sess == nil || !isPrefix(l.sess.Script, prefix) {
		if l.sess != nil {
			l.sess.Close()
		}
		s, err := harness.NewSession(harness.Options{Data: l.lane.Data, Impl: l.impl})
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
	f, err := l.sess.Step(last, l.lane.checksFor(synced)...)
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
