package exhaust

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"sessiondag/checker/campaign"
	"sessiondag/checker/harness"
	"sessiondag/internal/shard"
	"sessiondag/ops"
)

// planted fails once a `say` follows a `reload` anywhere before it.
var planted = harness.Check{Name: "planted", Prop: "test", Doc: "a say after a reload",
	Data: []harness.Data{harness.WrittenOff}, ReadsScript: true, Run: func(s *harness.Session) *harness.Finding {
		text := ops.String(s.Script)
		r := strings.Index(text, "reload\n")
		if r >= 0 && strings.Contains(text[r:], "say ") {
			return &harness.Finding{What: "a say after a reload"}
		}
		return nil
	}}

var plantedKinds = []string{"user", "reply", "say", "done", "reload"}

func plantedRun(t *testing.T, o Options) (Summary, []Failure) {
	t.Helper()
	o.MaxOps, o.Kinds = 5, plantedKinds
	o.Checks = []harness.Check{planted}
	sum, fails, err := Run(o)
	require.NoError(t, err)
	return sum, fails
}

// TestRunFindsReducesAndSaves: a planted failure is found in every script
// that has it, each reduced to the 4 ops it needs and kept once per reduced
// script, in walk order; nothing below a failing script is run; the saved
// file replays to the same failure.
func TestRunFindsReducesAndSaves(t *testing.T) {
	sum, fails := plantedRun(t, Options{})
	all := len(scripts(t, 5, plantedKinds, shard.Whole))
	require.EqualValues(t, all, sum.Scripts)
	require.EqualValues(t, all, sum.Runs+sum.Skipped, "every script is run or lies below a failing one")
	require.Positive(t, sum.Skipped)
	require.Less(t, int64(len(fails)), sum.Failures, "reductions to the same script are kept once")
	require.EqualValues(t, len(fails), sum.Reduced)
	dir := t.TempDir()
	for i, f := range fails {
		require.Len(t, f.Reduced.Case.Script, 4, "reduced:\n%s", ops.String(f.Reduced.Case.Script))
		text := ops.String(f.Reduced.Case.Script)
		require.Less(t, strings.Index(text, "reload"), strings.Index(text, "say"))
		if i > 0 {
			require.Negative(t, walkOrder(fails[i-1].Script, f.Script), "failures out of walk order")
		}
		path, err := f.Save(dir)
		require.NoError(t, err)
		file, err := os.Open(path)
		require.NoError(t, err)
		parsed, err := ops.ParseFile(file, path)
		file.Close()
		require.NoError(t, err)
		found, err := campaign.Replay(parsed, campaign.ReplayOptions{Checks: []harness.Check{planted}})
		require.NoError(t, err)
		require.Len(t, found, 1, "the saved file does not reproduce the failure:\n%s", parsed.String())
		require.Equal(t, "migration", found[0].Data.Slug)
		require.Equal(t, 4, found[0].Step)
		require.Equal(t, filepath.Base(path), campaign.Name(f.Reduced.Case))
	}
}

// TestRunWorkersAndCap: the result does not depend on the number of
// workers; the cap on reductions keeps the counts.
func TestRunWorkersAndCap(t *testing.T) {
	one, f1 := plantedRun(t, Options{})
	two, f2 := plantedRun(t, Options{Workers: 3})
	require.Equal(t, []int64{one.Scripts, one.Runs, one.Skipped, one.Failures, one.Reduced},
		[]int64{two.Scripts, two.Runs, two.Skipped, two.Failures, two.Reduced})
	require.Equal(t, one.ByLength, two.ByLength)
	require.Equal(t, len(f1), len(f2))
	for i := range f1 {
		require.Equal(t, ops.String(f1[i].Reduced.Case.Script), ops.String(f2[i].Reduced.Case.Script))
	}
	capped, fc := plantedRun(t, Options{MaxReduced: 1})
	require.Len(t, fc, 1)
	require.Equal(t, one.Failures, capped.Failures)
}

// TestSyncedOnlyChecks: a check the lane keeps to data whose intent is in
// the data never fails on other scripts, and reducing a failure never trades
// it for such a script (here: a load in the middle of a CLI turn, which makes
// the web server's conversation at the turn's user row and the web turn
// after it stale).
func TestSyncedOnlyChecks(t *testing.T) {
	userAfterCLI := harness.Check{Name: "user-after-cli", Prop: "test", Doc: "a web turn after a CLI turn",
		Data: []harness.Data{harness.WrittenOff}, ReadsScript: true, Run: func(s *harness.Session) *harness.Finding {
			text := ops.String(s.Script)
			if d := strings.Index(text, "dispatch "); d >= 0 && strings.Contains(text[d:], "user ") {
				return &harness.Finding{What: "a web turn after a CLI turn"}
			}
			return nil
		}}
	sum, fails, err := Run(Options{MaxOps: 5, Kinds: []string{"dispatch", "reply", "done", "reload", "user"},
		MaxReduced: 1000, Checks: []harness.Check{userAfterCLI}})
	require.NoError(t, err)
	require.Positive(t, sum.Unsynced)
	require.NotEmpty(t, fails)
	for _, f := range fails {
		require.True(t, harness.IntentInData(f.Script), "failed on an unsynced script:\n%s", ops.String(f.Script))
		require.True(t, harness.IntentInData(f.Reduced.Case.Script), "reduced to an unsynced script:\n%s", ops.String(f.Reduced.Case.Script))
	}
}
