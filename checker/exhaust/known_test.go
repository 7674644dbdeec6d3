package exhaust

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"sessiondag/checker/harness"
	"sessiondag/impl/flags"
	"sessiondag/ops"
)

// complete fails when the chain loaded under fl misses a row of the
// intended conversation.
func complete(fl flags.Set) harness.Check {
	return harness.Check{Name: "complete", Prop: "P4", Doc: "no intended row missing under " + fl.String(),
		Data: []harness.Data{harness.OffAny}, Run: func(s *harness.Session) *harness.Finding {
			if g := harness.ViewGap(harness.Projected(s.Load(fl)), s.Intended()); g.Missing > 0 {
				return &harness.Finding{What: fmt.Sprintf("flags %s: %s", fl, g)}
			}
			return nil
		}}
}

// cutoffs runs the walk over kinds up to max ops with the "complete under
// flags off" check on data written with the flags off and returns the
// reduced failing scripts.
func cutoffs(t *testing.T, max int, kinds []string) []string {
	t.Helper()
	sum, fails, err := Run(Options{MaxOps: max, Kinds: kinds, MaxReduced: 1000,
		Checks: []harness.Check{complete(flags.Off)}})
	require.NoError(t, err)
	t.Logf("%d scripts, %d failing, %d distinct reduced", sum.Scripts, sum.Failures, len(fails))
	var out []string
	for _, f := range fails {
		out = append(out, ops.String(f.Reduced.Case.Script))
		t.Logf("reduced:\n%s", ops.String(f.Reduced.Case.Script))
	}
	return out
}

// requireFound checks that the walk found script and that A,B load it
// whole.
func requireFound(t *testing.T, found []string, script string) {
	t.Helper()
	require.Contains(t, found, script)
	parsed, err := ops.Parse(strings.NewReader(script), "")
	require.NoError(t, err)
	require.LessOrEqual(t, len(parsed), 6)
	whole, err := harness.Play(harness.WrittenOff, parsed, complete(flags.A|flags.B))
	require.NoError(t, err)
	require.Nil(t, whole, "flags A,B must load it whole:\n%s", script)
}

// TestFindsKnownCutoffs: the two historic cut-offs of the original (flags
// off) are chains that miss intended rows, and the walk finds each at the
// size it needs. The design note's case, two ROOT-parented users (a
// dispatcher turn the browser never saw, then a web turn with no client
// head), takes 6 ops: the web server makes its conversation of a session
// from the store's head when a web op first needs it (ops/README.md,
// "conversation"), so it has no head only when that op was a function run
// from the fn-form route before anything was stored; a manual function run
// after a chat turn takes 5 (the run's end puts the head on it). The whole
// vocabulary reaches 4 ops in the nightly run but 5 only in a long one, so
// this test walks the scope of the chat ops that make them: the kinds
// props' TestKnownLegacyCutoff draws from. With A,B every one loads whole.
func TestFindsKnownCutoffs(t *testing.T) {
	t.Run("two ROOT-parented users", func(t *testing.T) {
		kinds := []string{"user", "reply", "done", "reload", "dispatch", "manual", "end"}
		found := cutoffs(t, 6, kinds)
		requireFound(t, found, "manual id=n1 args=\"{}\"\nend\ndispatch id=n2\nreply\ndone\nuser id=n3 text=\"{}\"\n")
	})
	t.Run("manual function after chat", func(t *testing.T) {
		kinds := []string{"user", "reply", "done", "reload", "manual", "end", "exec", "say"}
		found := cutoffs(t, 5, kinds)
		// Reduced with its values at their simplest (campaign.Passes): a
		// web message is never empty, "{}" is the simplest text.
		requireFound(t, found, "user id=n1 text=\"{}\"\nreply\ndone\n"+`manual id=n2 args="{}"`+"\nend\n")
		// At 4 ops only a web turn typed after a run the browser reloaded
		// during (a stale client head) is cut off: no chat before the run.
		for _, s := range cutoffs(t, 4, kinds) {
			require.NotContains(t, s, "reply", "4 ops are too few for a chat turn, a run and its end")
		}
	})
}
