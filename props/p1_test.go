package props

import (
	"sync"
	"testing"

	"pgregory.net/rapid"

	"sessiondag/checker/gen"
	"sessiondag/checker/harness"
)

// TestP1LegacyFidelity: with every flag off the implementation shows exactly
// what the original (model.Legacy) shows, in every view, after every op of
// every generated session. It also requires the generator to have reached
// every shape of legacy §5/§6 that the rollout is about, and every shape
// the harness needs to reach (gen.Required).
func TestP1LegacyFidelity(t *testing.T) {
	t.Parallel()
	total := gen.NewTally()
	var mu sync.Mutex
	data := harness.Data{Name: "written with the flags off", Slug: "migration", Gen: gen.Options{Legacy: true}}
	judges(t, []harness.Check{check("legacy")}, data)
	rapid.Check(t, func(t *rapid.T) {
		g := machine(t, "TestP1LegacyFidelity", data, harness.Options{}, check("legacy"))
		mu.Lock()
		total.Add(g.Tally)
		mu.Unlock()
	})
	t.Logf("coverage:\n%s", total)
	cover(t, "TestP1LegacyFidelity", data, gen.Required, total, check("legacy"))
}

// FuzzSessionOps runs P1's state machine from fuzzer bytes (rapid.MakeFuzz),
// swarm configuration included: `go test -fuzz FuzzSessionOps ./props`
// explores op sequences with coverage guidance; crashers land in
// testdata/fuzz/FuzzSessionOps.
func FuzzSessionOps(f *testing.F) {
	data := harness.Data{Name: "written with the flags off", Slug: "migration", Gen: gen.Options{Legacy: true}}
	judges(f, []harness.Check{check("legacy")}, data)
	f.Fuzz(rapid.MakeFuzz(func(t *rapid.T) {
		machine(t, "FuzzSessionOps", data, harness.Options{}, check("legacy"))
	}))
}
