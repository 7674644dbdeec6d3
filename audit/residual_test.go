package audit_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"sessiondag/audit"
)

// residue finds row id in a session's residual.
func residue(t *testing.T, s *audit.Session, id string) audit.Residue {
	t.Helper()
	for _, r := range s.Residual {
		if r.Row.ID == id {
			return r
		}
	}
	t.Fatalf("%s: %s is not in the residual %+v", s.Dir, id, s.Residual)
	return audit.Residue{}
}

// TestResidualWithScript: the intended rows the last config misses, with
// the cause the walk finds. The expectations are read by hand from the op
// scripts, ops/README.md and legacy §4 variant B: the data is migration data
// (written with the flags off), which flag A reads as recorded.
func TestResidualWithScript(t *testing.T) {
	// A web turn whose provider failed (a standalone error row) leaves the
	// server's conversation on its user row u5 and the store's head on the
	// error row: u6 records u5 as its parent, and means to continue where
	// the server is (model.Target: the store's head), so the error row is
	// intended and no config shows it — R neither.
	dir := filepath.Join(t.TempDir(), "s")
	build(t, dir, "session id=local_standalone01\nuser id=u5 text=boom\nerror-standalone id=e1 type=ProviderError msg=down\nuser id=u6 text=again\nreply\ndone\n", true)
	s := audit.One(dir)
	require.True(t, s.Intended)
	require.Len(t, s.Residual, 1)
	r := residue(t, s, "e1")
	require.Equal(t, "after-failed-reply", r.Cause)
	require.Equal(t, "u6", r.By)
	require.False(t, r.AtR)
	require.Equal(t, audit.Row{ID: "e1", Role: "system", Text: "[error] ProviderError: down"}, r.Row)

	// legacy §6 #14: a folded error of a web turn puts the store's head back
	// on its user row, where the server's conversation stands (R12): the
	// next turn records u5 and means it, so nothing is left behind.
	s = audit.One(filepath.Join("..", "corpus", "sessions", "18-errors"))
	require.True(t, s.Intended)
	require.Empty(t, s.Residual)

	// Variant B: u3 was typed in a browser still on u1's reply, so the
	// manual run between is off the chain.
	s = audit.One(filepath.Join("..", "corpus", "sessions", "07-manual-variant-B"))
	require.Len(t, s.Residual, 1)
	r = residue(t, s, "f00000000001")
	require.Equal(t, "stale-parent", r.Cause)
	require.Equal(t, "u3", r.By)
	require.True(t, r.Row.Card)
	require.Equal(t, "word_count", r.Row.Function)

	// Written with the flags on, the same sessions leave nothing behind.
	for _, name := range []string{"18-errors-on", "07-manual-variant-B-on"} {
		s = audit.One(filepath.Join("..", "corpus", "sessions", name))
		require.Empty(t, s.Residual, name)
	}
}

// TestResidualWithoutScript: conversation rows no config shows, with the
// cause; the expectations were read off the session files by hand.
func TestResidualWithoutScript(t *testing.T) {
	conf := filepath.Join("..", "corpus", "conformance", "sessions")
	for _, c := range []struct {
		session, row, cause, by string
	}{
		// c3cd6089 was edited (222670bb, forked_from c3cd6089): the head
		// is on the edit's branch.
		{"local_0011000000", "c3cd6089", "retry-sibling", "e65f53e9_reply"},
		// 102f29a4's turn failed (a standalone error row); cc022238
		// records 102f29a4 as its parent.
		{"local_0011000000", "2eb14ab2f2d0", "after-failed-reply", "102f29a4"},
		// a /spawn command row and its sub-agent, beside the next turn.
		{"local_0011000000", "ef7ac86d", "sub-agent", "cc022238_reply"},
		{"local_0011000000", "66c7a644fb12_reply", "sub-agent", "cc022238_reply"},
		// a dispatcher turn with no parent continues where the head was;
		// the next web turn records the reply before it (a browser that
		// had not seen it).
		{"local_0011000001", "63367c29a80b", "side-branch", "72dc4ee6_reply"},
		// the stored head is on a clean sub-agent's reply.
		{"local_0011000008", "1a8f25c8", "head-in-sub-agent", "a5ec6cc16db7"},
		// the stored head is on a retry user; everything written after
		// it is past the head.
		{"local_0011000023", "e715fa7c", "past-head", "b2a37119"},
	} {
		s := audit.One(filepath.Join(conf, c.session))
		require.False(t, s.Intended)
		r := residue(t, s, c.row)
		require.Equal(t, c.cause, r.Cause, "%s %s", c.session, c.row)
		require.Equal(t, c.by, r.By, "%s %s", c.session, c.row)
		require.NotEqual(t, c.cause, audit.CauseText(c.cause), "every cause has words")
	}
	// Tool rows and function internals are never residual rows.
	s := audit.One(filepath.Join(conf, "local_0011000000"))
	for _, r := range s.Residual {
		require.NotEqual(t, "tool", r.Row.Role, "%+v", r)
	}
}

// TestResidualTotals: a summary counts residual rows by cause, keeps the
// first session in sorted order as the example, and names every cause in
// words.
func TestResidualTotals(t *testing.T) {
	sum, err := audit.Run([]string{filepath.Join("..", "corpus")}, nil, nil)
	require.NoError(t, err)
	require.NotEmpty(t, sum.Residual.Intended)
	require.NotEmpty(t, sum.Residual.Unshown)
	for _, list := range [][]audit.CauseTotal{sum.Residual.Intended, sum.Residual.Unshown} {
		for i, c := range list {
			require.NotEqual(t, c.Cause, c.Text, "a cause without words: %s", c.Cause)
			require.NotEqual(t, "unexplained", c.Cause, "%+v", c)
			require.LessOrEqual(t, c.Sessions, c.Rows)
			if i > 0 {
				require.GreaterOrEqual(t, list[i-1].Rows, c.Rows, "most rows first")
			}
		}
	}
	// With a script, the stale browsers of legacy §4 variant B (07, one
	// card), of shape 27 (a CLI turn and its reply) and of shape 34 (an
	// async task's follow-up turn, which moves the store's head and not the
	// web server's conversation): their target chains (corpus/expected) hold
	// rows the recorded conversation leaves out, R's chain too; the example
	// is the first session in sorted order.
	stale := total(t, sum.Residual.Intended, "stale-parent")
	require.Equal(t, 5, stale.Rows)
	require.Equal(t, 3, stale.Sessions)
	require.Equal(t, filepath.Join("..", "corpus", "sessions", "07-manual-variant-B"), stale.Example)
	require.Equal(t, "f00000000001", stale.ExampleRow)
	require.Equal(t, stale.Rows, stale.MissingAtR, "R does not show a row a stale browser's turn skips either")
	// Without one, the failed turn TestResidualWithoutScript reads by hand,
	// in the first session of the corpus in sorted order.
	failed := total(t, sum.Residual.Unshown, "after-failed-reply")
	require.Equal(t, filepath.Join("..", "corpus", "conformance", "sessions", "local_0011000000"), failed.Example)
	require.Equal(t, "2eb14ab2f2d0", failed.ExampleRow)
}

// total is the cause's line of a residual summary.
func total(t *testing.T, list []audit.CauseTotal, cause string) audit.CauseTotal {
	t.Helper()
	for _, c := range list {
		if c.Cause == cause {
			return c
		}
	}
	t.Fatalf("no %s in %+v", cause, list)
	return audit.CauseTotal{}
}
