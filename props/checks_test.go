package props

import (
	"sync"
	"testing"

	"pgregory.net/rapid"

	"sessiondag/checker/gen"
	"sessiondag/checker/harness"
)

// TestChecks runs every check of harness.Checks as a rapid state machine on
// each kind of data it declares, each pair a parallel subtest named
// Prop-name/data (TestChecks/P3-rollout/migration): generated op scripts
// drive the implementation's writers and the reference models side by side,
// the check after every op. A check that declares shapes it must reach
// (Check.Reach) fails when a full run misses one.
func TestChecks(t *testing.T) {
	t.Parallel()
	for _, c := range harness.Checks {
		t.Run(c.Prop+"-"+c.Name, func(t *testing.T) {
			t.Parallel()
			for _, d := range c.Data {
				t.Run(d.Slug, func(t *testing.T) {
					t.Parallel()
					runCheck(t, c, d)
				})
			}
		})
	}
}

// runCheck is one check on one kind of data, with its reach. Against
// another implementation (SESSIONDAG_IMPL) a check or a kind of data that
// cannot judge it is skipped, saying why.
func runCheck(t *testing.T, c harness.Check, d harness.Data) {
	judges(t, []harness.Check{c}, d)
	total := gen.NewTally()
	var mu sync.Mutex
	test := t.Name()
	rapid.Check(t, func(rt *rapid.T) {
		var g *gen.Gen
		if c.Damage {
			g = coldMachine(rt, test, c, d)
		} else {
			g = machine(rt, test, c, d)
		}
		mu.Lock()
		total.Add(g.Tally)
		mu.Unlock()
	})
	if c.Reach != "" {
		t.Logf("coverage:\n%s", total)
		cover(t, test, c, d, gen.Requirements[c.Reach], total)
	}
}

// FuzzSessionOps runs P1's state machine from fuzzer bytes (rapid.MakeFuzz),
// swarm configuration included: `go test -fuzz FuzzSessionOps ./props`
// explores op sequences with coverage guidance; crashers land in
// testdata/fuzz/FuzzSessionOps.
func FuzzSessionOps(f *testing.F) {
	judges(f, []harness.Check{check("legacy")}, harness.OffAny)
	f.Fuzz(rapid.MakeFuzz(func(t *rapid.T) {
		machine(t, "FuzzSessionOps", check("legacy"), harness.OffAny)
	}))
}
