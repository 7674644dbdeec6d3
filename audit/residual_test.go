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
// the cause the walk finds. Both expectations are legacy §6 #14 and §4
// variant B read by hand: the data is migration data (written with the
// flags off), which flag A reads as recorded.
func TestResidualWithScript(t *testing.T) {
	// u6 was typed without a reload after u5's reply failed: the web path
	// leaves the browser's head on u5, so u6 records u5 as its parent and
	// the failed reply is a sibling, not on the chain — at R too.
	s := audit.One(filepath.Join("..", "corpus", "sessions", "18-errors"))
	require.Len(t, s.Residual, 1)
	r := residue(t, s, "u5_reply")
	require.Equal(t, "after-failed-reply", r.Cause)
	require.Equal(t, "u6", r.By)
	require.False(t, r.AtR)
	require.Equal(t, audit.Row{ID: "u5_reply", Role: "assistant", Text: "[error] RuntimeError: boom"}, r.Row)

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
	var failed *audit.CauseTotal
	for i, c := range sum.Residual.Intended {
		if c.Cause == "after-failed-reply" {
			failed = &sum.Residual.Intended[i]
		}
	}
	require.NotNil(t, failed)
	require.Equal(t, filepath.Join("..", "corpus", "sessions", "18-errors"), failed.Example)
	require.Equal(t, "u5_reply", failed.ExampleRow)
	require.Equal(t, failed.Rows, failed.MissingAtR, "R does not show a failed reply the next turn skips either")
}
