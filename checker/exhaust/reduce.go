package exhaust

import (
	"slices"

	"sessiondag/checker/harness"
	"sessiondag/checker/ops"
)

// failed records a failing script: reduced with harness.Reduce (the same
// check still fails on the same kind of data) and kept once per reduced
// script, up to MaxReduced.
func (r *runner) failed(l *laneRun, f *harness.Finding, script []ops.Op) {
	r.sum.Failures++
	if r.sum.Reduced >= int64(r.opt.MaxReduced) {
		return
	}
	check := checkOf(l.lane, f.Check)
	fails := func(s []ops.Op) bool { return failsWith(l, check, s) != nil }
	reduced := harness.Reduce(slices.Clone(script), fails)
	// Reduction leaves gaps in the ids: renamed canonically, two
	// reductions that differ only by ids are kept once.
	if c := ops.Canonical(reduced); failsWith(l, check, c) != nil {
		reduced = c
	}
	final := failsWith(l, check, reduced)
	if final == nil {
		// Reduce keeps only scripts that fail when played from scratch, so
		// only the walk's session, which applied the prefix without loads in
		// between, saw this one fail: keep it as found, and say so.
		reduced, final = slices.Clone(script), f
		f.What += " (a replay from scratch, with the checks after every op, does not fail)"
	}
	key := f.Check + "\x00" + final.Data.Slug + "\x00" + ops.String(reduced)
	if r.seen[key] {
		return
	}
	r.seen[key] = true
	r.sum.Reduced++
	fl := Failure{Check: f.Check, Data: final.Data.Slug, What: f.What, Script: slices.Clone(script),
		Reduced: reduced, Finding: final}
	r.fails = append(r.fails, fl)
	if r.opt.OnFailure != nil {
		r.opt.OnFailure(fl)
	}
}

// failsWith plays script from scratch with one check, as a replay of the
// saved file will, and returns its finding. A check the lane runs only on
// data whose intent is in the data does not count on other scripts, so a
// reduction cannot trade the failure for an ambiguous script.
func failsWith(l *laneRun, c harness.Check, script []ops.Op) *harness.Finding {
	if slices.Contains(l.lane.SyncedOnly, c.Name) && !Synced(script) {
		return nil
	}
	data := l.lane.dataOf(script)
	f, err := harness.PlayOn(l.impl, data, script, c)
	if err != nil || f == nil || f.Check != c.Name {
		return nil
	}
	f.Data = data
	if f.Step == 0 {
		f.Step = len(script)
	}
	return f
}

func checkOf(l Lane, name string) harness.Check {
	for _, c := range l.Checks {
		if c.Name == name {
			return c
		}
	}
	return harness.Check{Name: name, Run: func(*harness.Session) *harness.Finding { return nil }}
}
