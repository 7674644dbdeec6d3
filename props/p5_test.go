package props

import (
	"sync"
	"testing"

	"pgregory.net/rapid"

	"sessiondag/checker/gen"
	"sessiondag/checker/harness"
	"sessiondag/impl/flags"
)

// legacyData is data written with every flag off, legacy shapes included,
// with no browser rule: what the invariants of the implementation run on.
var legacyData = harness.Data{Name: "written with the flags off", Slug: "migration", Writer: flags.Off,
	Gen: gen.Options{Legacy: true}}

// TestP5NoDroppedUsers: rebuilding runtime cards never removes a user row
// from the chain, under every config of the rollout path (legacy §5.2).
func TestP5NoDroppedUsers(t *testing.T) {
	t.Parallel()
	data := writtenBy(legacyData)
	judges(t, []harness.Check{check("cards")}, data)
	rapid.Check(t, func(t *rapid.T) { machine(t, "TestP5NoDroppedUsers", data, harness.Options{}, check("cards")) })
}

// TestP6AggregationConservation: aggregation, as the load runs it, folds
// each tool row exactly once into the assistant it names, or keeps it in
// place as an orphan; nothing is lost, duplicated or reordered, and blocks
// are copies (a change to one does not reach what the store holds).
func TestP6AggregationConservation(t *testing.T) {
	t.Parallel()
	judges(t, []harness.Check{check("aggregation")}, legacyData)
	rapid.Check(t, func(t *rapid.T) {
		machine(t, "TestP6AggregationConservation", legacyData, harness.Options{}, check("aggregation"))
	})
}

// TestColumnsAgree: what a load keeps between loads (per-session columns
// extended on append and refreshed on update, folded assistants, flag A's
// cached predecessors) shows exactly what the load through maps keyed by id
// shows, at every rollout step after every op; flag flips included. A
// full-budget run must also have written every row whose target arrives
// after it and updated every kind of row a load caches
// (gen.RequiredCache): those are the paths where a cache can go stale.
func TestColumnsAgree(t *testing.T) {
	t.Parallel()
	total := gen.NewTally()
	var mu sync.Mutex
	data := harness.Flipped
	data.Gen.SyncedBrowser = false // every legacy shape, ambiguous ones included
	judges(t, []harness.Check{check("columns")}, data)
	rapid.Check(t, func(t *rapid.T) {
		g := machine(t, "TestColumnsAgree", data, harness.Options{}, check("columns"))
		mu.Lock()
		total.Add(g.Tally)
		mu.Unlock()
	})
	t.Logf("coverage:\n%s", total)
	cover(t, "TestColumnsAgree", data, gen.RequiredCache, total, check("columns"))
}
