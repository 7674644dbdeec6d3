package props

import (
	"testing"

	"pgregory.net/rapid"

	"sessiondag/checker/harness"
)

// TestP3RolloutSafety: along off → A → A,B → A–C → A–D, every change of the
// loaded view between neighbouring configs moves it closer to the intended
// conversation (harness.IsFix) or only touches rows wrong either way; a
// change that is neither is a regression of that step. Checked after every
// op, on all three kinds of data (harness.DataKinds).
func TestP3RolloutSafety(t *testing.T) { eachKind(t, "TestP3RolloutSafety", check("rollout")) }

// TestP4NoEarlyCutoff: with A and B on the loaded chain is not cut off, and
// the get_branch fallback never changes the result (so turning on C is
// safe), on all three kinds of data.
func TestP4NoEarlyCutoff(t *testing.T) { eachKind(t, "TestP4NoEarlyCutoff", check("cutoff")) }

// TestDRetiresParentID: under flag D no reader reads parent_id, and turning
// D on changes no view at all, on all three kinds of data.
func TestDRetiresParentID(t *testing.T) { eachKind(t, "TestDRetiresParentID", check("retire-d")) }

// eachKind runs a check as a state machine on every kind of data, each kind
// a parallel subtest.
func eachKind(t *testing.T, title string, c harness.Check) {
	t.Parallel()
	judges(t, []harness.Check{c})
	for _, kind := range harness.DataKinds {
		t.Run(kind.Name, func(t *testing.T) {
			t.Parallel()
			judges(t, nil, kind)
			rapid.Check(t, func(t *rapid.T) { machine(t, title, kind, harness.Options{}, c) })
		})
	}
}
