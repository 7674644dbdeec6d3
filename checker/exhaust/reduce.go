package exhaust

import (
	"slices"

	"sessiondag/checker/campaign"
	"sessiondag/checker/harness"
	"sessiondag/ops"
)

// failed records a failing script: reduced with campaign.Reduce (the same
// check still fails on the same kind of data, played from scratch) and kept
// once per reduced case, up to MaxReduced (with claims, per part).
func (r *runner) failed(checks []harness.Check, f *harness.Finding, script []ops.Op) {
	if r.opt.MaxReduced < 0 || r.sum.Reduced-r.partFrom >= int64(r.opt.MaxReduced) {
		return
	}
	red := campaign.Reduce(r.caseOf(checks, f, script), f, r.opt.Tmp)
	if !red.Reproduced {
		// Only the walk's session, which applied the prefix without loads
		// in between, saw this one fail: kept as found, and said so.
		red.Finding.What += " (a replay from scratch, with the checks after every op, does not fail)"
	}
	key := campaign.Key(red.Case)
	if r.seen[key] {
		return
	}
	r.seen[key] = true
	r.sum.Reduced++
	fl := Failure{Script: slices.Clone(script), Reduced: red}
	r.fails = append(r.fails, fl)
	if r.opt.OnFailure != nil {
		r.opt.OnFailure(fl)
	}
}

// caseOf is the case a finding of one of checks on script is.
func (r *runner) caseOf(checks []harness.Check, f *harness.Finding, script []ops.Op) campaign.Case {
	c := campaign.Case{Check: harness.Validity, Data: f.Data, Script: slices.Clone(script), Impl: r.opt.Impl}
	if f.Check == harness.Protocol.Name {
		c.Check = harness.Protocol
	}
	for _, ch := range checks {
		if ch.Name == f.Check {
			c.Check = ch
		}
	}
	return c
}

// accepted reports whether a finding is of a class the known file accepts
// (Options.Known): the script then counts as passing.
func (r *runner) accepted(checks []harness.Check, f *harness.Finding, script []ops.Op) bool {
	if r.opt.Known == nil {
		return false
	}
	e, _ := r.opt.Known.Accepts(r.caseOf(checks, f, script), f, r.opt.Tmp)
	return e != nil
}
