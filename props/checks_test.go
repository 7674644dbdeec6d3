package props

import (
	"fmt"
	"strings"
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
// cannot judge it is not run, saying what it needs; the check draws cases
// for its share of the suite's budget, its required shapes first (those
// the implementation's declared kinds reach), and is undecided when it
// could not check them all or no case at all.
func runCheck(t *testing.T, c harness.Check, d harness.Data) {
	judges(t, []harness.Check{c}, d)
	draw := budget.begin(t)
	total := gen.NewTally()
	var required []string
	if c.Reach != "" {
		required = gen.Requirements[c.Reach]
	}
	var cov coverage
	if underTest != nil && required != nil {
		cov = cover(t, t.Name(), c, d, required, total, draw)
	}
	var mu sync.Mutex
	test := t.Name()
	rapid.Check(t, func(rt *rapid.T) {
		var tally *gen.Tally
		if c.Damage {
			tally = coldMachine(rt, test, c, d)
		} else if tally = machine(rt, test, c, d, draw); tally == nil {
			return
		}
		mu.Lock()
		total.Add(tally)
		mu.Unlock()
	})
	if underTest == nil {
		if required != nil {
			t.Logf("coverage:\n%s", total)
			cover(t, test, c, d, required, total, draw)
		}
		return
	}
	t.Logf("drew %s; %s", draw, cov)
	switch {
	case len(cov.unplayed) > 0:
		undecided(t, fmt.Sprintf("%s; these reachable shapes were not checked within its share: %q", draw, cov.unplayed))
	case draw.count() == 0:
		undecided(t, fmt.Sprintf("no case checked within its share (%s)", draw))
	}
	covered(t, strings.TrimSuffix(draw.String()+"; "+cov.String(), "; "))
}

// FuzzSessionOps runs P1's state machine from fuzzer bytes (rapid.MakeFuzz),
// swarm configuration included: `go test -fuzz FuzzSessionOps ./props`
// explores op sequences with coverage guidance; crashers land in
// testdata/fuzz/FuzzSessionOps.
func FuzzSessionOps(f *testing.F) {
	judges(f, []harness.Check{check("legacy")}, harness.OffAny)
	if underTest != nil && flagString("test.fuzz") == "" {
		// It has no seed inputs: without -fuzz it would check nothing.
		notRun(f, "go test -fuzz=FuzzSessionOps", fmt.Errorf("%w: it has no seed inputs of its own", harness.ErrNotApplicable))
	}
	f.Fuzz(rapid.MakeFuzz(func(t *rapid.T) {
		machine(t, "FuzzSessionOps", check("legacy"), harness.OffAny, nil)
	}))
}
