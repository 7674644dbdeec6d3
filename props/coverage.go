package props

import (
	"fmt"
	"strings"
	"testing"

	"sessiondag/checker/campaign"
	"sessiondag/checker/gen"
	"sessiondag/checker/harness"
	"sessiondag/ops"
)

// topUpSeeds bounds the search for a seeded script that has a shape.
const topUpSeeds = 2000

// cover makes every required shape checked in every run, whatever rapid's
// seed: the shapes the rapid runs drew (total) count; each one they did not
// is topped up with the first seeded script (seed 1, 2, …, each with its own
// swarm configuration) that has it, and that script is checked the same
// way. A shape no seeded script reaches is a defect of the generator and
// fails the test.
//
// Against another implementation the seeded scripts are drawn from the op
// kinds it writes and cut before an op it does not take (campaign.Takes),
// and a shape counts as reached only when the ops played reach it. A shape
// no such script reaches is not reachable with what it declares: it is
// listed, not required. One that some script reaches but the test's
// drawing had no time left to play is returned: the test has then no
// verdict.
func cover(t *testing.T, test string, c harness.Check, d harness.Data, required []string, total *gen.Tally, draw *drawing) (out coverage) {
	t.Helper()
	missing := total.Missing(required)
	out.required = len(required)
	for seed := uint64(1); seed <= topUpSeeds && len(missing) > 0; seed++ {
		cs, tally := seeded(t, c, d, seed)
		var still, reached []string
		for _, shape := range missing {
			if tally.Shapes[shape] > 0 {
				reached = append(reached, shape)
			} else {
				still = append(still, shape)
			}
		}
		if len(reached) == 0 {
			continue
		}
		missing = still
		if !draw.left() || !draw.more() {
			out.unplayed = append(out.unplayed, reached...)
			continue
		}
		t.Logf("topped up %q with seeded script %d (%d ops)", reached, seed, len(cs.Script))
		checkSeeded(t, test, cs)
	}
	switch {
	case len(missing) > 0 && underTest != nil:
		out.unreachable = missing
		t.Logf("%s writes only [%s]: none of %d seeded scripts drawn from them reaches these shapes, which are not required of it: %q",
			about().Name, strings.Join(about().Ops, " "), topUpSeeds, missing)
	case len(missing) > 0:
		t.Errorf("no run and none of %d seeded scripts reached these shapes: %q\n%s", topUpSeeds, missing, total)
	}
	return out
}

// coverage is what cover found of the required shapes.
type coverage struct {
	required    int
	unreachable []string // not reachable with what the implementation declares
	unplayed    []string // reachable, but no time was left to check a script that reaches them
}

// String says it for the report.
func (c coverage) String() string {
	if c.required == 0 {
		return ""
	}
	reachable := c.required - len(c.unreachable)
	if reachable == 0 {
		return fmt.Sprintf("none of its %d required shapes is reachable with the declared kinds", c.required)
	}
	s := fmt.Sprintf("required shapes: %d of %d reachable with the declared kinds", reachable, c.required)
	if len(c.unplayed) > 0 {
		return s + fmt.Sprintf(", %d not checked within the share", len(c.unplayed))
	}
	return s + ", all checked"
}

// seeded is the seeded case of the top-up for seed and the tally of the
// ops it plays: against another implementation, its script cut before the
// first op it does not take.
func seeded(t *testing.T, c harness.Check, d harness.Data, seed uint64) (campaign.Case, *gen.Tally) {
	t.Helper()
	cs := campaign.Case{Check: c, Data: d, Impl: underTest}
	if c.Damage {
		cs, g, err := coldCase(gen.NewSeeded(seed), c, d, 40, 0)
		if err != nil {
			t.Fatalf("cold: %v", err)
		}
		return cs, g.Tally
	}
	opt := drawnFor(campaign.GenOptions(d))
	opt.Swarm = gen.DrawSwarm(gen.NewSeeded(seed^0x5eed), opt)
	g := gen.New(opt)
	cs.Script = g.Script(gen.NewSeeded(seed), 60)
	if underTest == nil {
		return cs, g.Tally
	}
	cs.Script = campaign.Taken(about(), cs.Script)
	return cs, gen.Follow(cs.Script, opt.StartStep).Tally
}

// checkSeeded plays a seeded case and reports a finding as a rapid failure
// would: kept, reduced and saved with its replay command — unless the
// known file accepts its class, and the test goes on.
func checkSeeded(t *testing.T, test string, c campaign.Case) {
	t.Helper()
	f, err := c.Play(scratch())
	if notWritten(err) {
		t.Logf("a seeded script stops at an op the implementation does not write: %v", err)
		return
	}
	if err != nil {
		t.Fatalf("a seeded script the writers refuse: %v\n%s", err, ops.String(c.Script))
	}
	if f != nil && !accepted(t, c, f) {
		t.Fatal(record(test, c, f))
	}
}
