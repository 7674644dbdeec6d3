package exhaust

import (
	"fmt"

	"sessiondag/checker/harness"
	"sessiondag/checker/ops"
	"sessiondag/impl/flags"
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

// lane is the checks of one writers' start: the scripts of a walk are
// checked in one session that follows the walk down a path, extended while
// the walk goes down and rebuilt from the prefix (applied without checks)
// when the walk turns to a sibling.
type lane struct {
	writer    flags.Set
	checks    []harness.Check // those declaring a kind of data with this start
	sess      *harness.Session
	failDepth int // depth of the failing script the walk is below, 0 = none
	rebuilds  int
}

func newLanes(checks []harness.Check) []*lane {
	var out []*lane
	for _, w := range writers {
		l := &lane{writer: w}
		for _, c := range checks {
			for _, d := range c.Data {
				if d.Writer == w {
					l.checks = append(l.checks, c)
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

// planFor is the checks the lane runs on a script, each with the first kind
// of data it declares that takes the script.
func (l *lane) planFor(flips harness.Flips, synced bool) (checks []harness.Check, kinds []harness.Data) {
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

// below reports whether a script of depth d lies below a script that
// failed on this lane (it then fails too, at the same op, as a replay
// would report it) and forgets a failure the walk has left.
func (l *lane) below(d int) bool {
	if l.failDepth > 0 && d <= l.failDepth {
		l.failDepth = 0
	}
	return l.failDepth > 0
}

// check runs checks after the last op of script; the finding carries the
// kind of data of the check that failed.
func (l *lane) check(script []ops.Op, checks []harness.Check, kinds []harness.Data) (*harness.Finding, error) {
	prefix, last := script[:len(script)-1], script[len(script)-1]
	if l.sess == nil || !isPrefix(l.sess.Script, prefix) {
		s, err := harness.NewSession(harness.Options{Data: harness.Data{Name: "exhaust", Writer: l.writer}})
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
	f, err := l.sess.Step(last, checks...)
	if err != nil {
		return nil, fmt.Errorf("exhaust: a script the writer model accepts: %w\n%s", err, ops.String(script))
	}
	if f != nil {
		l.failDepth = len(script)
		f.Data = kinds[0]
		for i, c := range checks {
			if c.Name == f.Check {
				f.Data = kinds[i]
			}
		}
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
