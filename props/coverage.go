package props

import (
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
func cover(t *testing.T, test string, c harness.Check, d harness.Data, required []string, total *gen.Tally) {
	t.Helper()
	missing := total.Missing(required)
	for seed := uint64(1); seed <= topUpSeeds && len(missing) > 0; seed++ {
		var g *gen.Gen
		cs := campaign.Case{Check: c, Data: d, Impl: underTest}
		if c.Damage {
			var err error
			if cs, g, err = coldCase(gen.NewSeeded(seed), c, d, 40, 0); err != nil {
				t.Fatalf("cold: %v", err)
			}
		} else {
			opt := drawnFor(campaign.GenOptions(d))
			opt.Swarm = gen.DrawSwarm(gen.NewSeeded(seed^0x5eed), opt)
			g = gen.New(opt)
			cs.Script = g.Script(gen.NewSeeded(seed), 60)
		}
		var still []string
		var reached []string
		for _, shape := range missing {
			if g.Tally.Shapes[shape] > 0 {
				reached = append(reached, shape)
			} else {
				still = append(still, shape)
			}
		}
		if len(reached) == 0 {
			continue
		}
		t.Logf("topped up %q with seeded script %d (%d ops)", reached, seed, len(cs.Script))
		checkSeeded(t, test, cs)
		missing = still
	}
	if len(missing) > 0 && about().Ops != nil {
		// The op kinds the implementation writes may not reach them.
		t.Logf("%s writes only [%s]: no run and none of %d seeded scripts reached these shapes: %q",
			about().Name, strings.Join(about().Ops, " "), topUpSeeds, missing)
	} else if len(missing) > 0 {
		t.Errorf("no run and none of %d seeded scripts reached these shapes: %q\n%s", topUpSeeds, missing, total)
	}
}

// checkSeeded plays a seeded case and reports a finding as a rapid failure
// would: kept, reduced and saved with its replay command.
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
	if f != nil {
		t.Fatal(record(test, c, f))
	}
}
