package exhaust

import (
	"os"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"sessiondag/checker/campaign"
	"sessiondag/checker/harness"
	"sessiondag/impl/flags"
)

// twoRows fails once the chain a browser loads with the flags off shows
// two rows or more: a planted failure of many scripts, read from the data
// like every real check.
var twoRows = harness.Check{Name: "two-rows", Prop: "test", Doc: "a chain of two rows",
	Data: []harness.Data{harness.OffAny}, Run: func(s *harness.Session) *harness.Finding {
		if len(s.Load(flags.Off).Chain) >= 2 {
			return &harness.Finding{What: "a chain of two rows"}
		}
		return nil
	}}

// dedupKinds are op kinds whose scripts often leave equal data and equal
// states: writer-only ops (reload, clock, think, say), moves of the head,
// turns with their replies, and the flags and writers changing hands.
var dedupKinds = []string{"user", "reply", "say", "think", "tool", "done", "reload", "clock", "checkout", "rewind", "retry", "flag", "writer", "dispatch"}

// TestDedupSameVerdicts: deduplication changes the work, never the
// verdict. With and without it, every count is the same — scripts, runs,
// runs skipped below a failure, runs on unsynced data, failures — on the
// default checks (no failure) and on a planted check that fails on many
// scripts, on one worker and on two sharing what passed (memos); the
// failures it reduces are among those reduced without it, and it checks
// fewer sessions. The full vocabulary at 4 ops, on main and
// on mutants, is `make exhaust-dedup` (bench/exhaust-dedup.txt).
func TestDedupSameVerdicts(t *testing.T) {
	// The planted check fails early on most scripts, which makes 4 ops
	// cheap; the default checks pass everywhere and walk everything, so
	// they walk 3 ops by default (a tenth of the cost) and 4 with
	// SESSIONDAG_DEDUP_OPS=4, as make exhaust runs them.
	planted, full := 4, 3
	if n, err := strconv.Atoi(os.Getenv("SESSIONDAG_DEDUP_OPS")); err == nil && n > 0 {
		full = n
	}
	if testing.Short() {
		planted, full = 3, 3
	}
	for _, checks := range [][]harness.Check{DefaultChecks(), {twoRows}} {
		max := full
		if checks[0].Name == twoRows.Name {
			max = planted
		}
		o := Options{MaxOps: max, Kinds: dedupKinds, Checks: checks, MaxReduced: 1 << 20}
		with, fw, err := Run(o)
		require.NoError(t, err)
		o.Workers = 2
		two, f2, err := Run(o)
		require.NoError(t, err)
		o.Workers, o.NoDedup = 0, true
		without, fo, err := Run(o)
		require.NoError(t, err)
		name := checks[0].Name
		require.Equal(t, counts(without), counts(with), "%s: the counts differ", name)
		require.Equal(t, without.ByLength, with.ByLength, name)
		require.Equal(t, counts(without), counts(two), "%s: the counts of two workers differ", name)
		require.Equal(t, without.ByLength, two.ByLength, name)
		require.Less(t, two.ChecksRun, without.ChecksRun, "%s: two workers checked no fewer sessions", name)
		require.Less(t, with.ChecksRun, without.ChecksRun, "%s: deduplication checked no fewer sessions", name)
		require.Positive(t, with.Reused, "%s: no state was found again", name)
		all := map[string]bool{}
		for _, f := range fo {
			all[campaign.Key(f.Reduced.Case)] = true
		}
		for _, f := range append(fw, f2...) {
			require.True(t, all[campaign.Key(f.Reduced.Case)], "%s: a failure reduced only with deduplication", name)
		}
		t.Logf("%s: %d scripts, %d runs, %d failures; sessions checked %d → %d (two workers %d), states expanded %d (%d), found again %d (%d)",
			name, with.Scripts, with.Runs, with.Failures, without.ChecksRun, with.ChecksRun, two.ChecksRun, with.States, two.States, with.Reused, two.Reused)
		if name == twoRows.Name {
			require.Positive(t, with.Failures)
			require.Positive(t, with.Skipped)
			require.NotEmpty(t, fw)
			require.NotEmpty(t, f2)
		} else {
			require.Zero(t, with.Failures)
			require.Zero(t, two.Failures)
		}
	}
}

// counts are what a run covered, which must not depend on deduplication.
func counts(s Summary) [6]int64 {
	return [6]int64{s.Scripts, s.Runs, s.Skipped, s.Unsynced, s.Failures, int64(s.Depth)}
}
