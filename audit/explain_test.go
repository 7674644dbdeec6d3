package audit_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"sessiondag/audit"
	"sessiondag/checker/driver"
	"sessiondag/impl/flags"
	"sessiondag/impl/node"
	"sessiondag/impl/store"
	"sessiondag/ops"
)

// build writes a session through the writers into dir (flags off at the
// start; the script may turn them on) and, when withScript, leaves the
// script beside it as the audit's op script.
func build(t *testing.T, dir, script string, withScript bool) {
	t.Helper()
	parsed, err := ops.ParseString(script)
	require.NoError(t, err)
	_, err = driver.BuildWith(parsed, dir, flags.Off, store.WriteOptions{NoSync: true})
	require.NoError(t, err)
	if withScript {
		require.NoError(t, os.WriteFile(filepath.Join(dir, audit.ScriptName), []byte(script), 0o644))
	}
}

// movedUser: a manual run, a dispatcher turn the user started as a
// root-level fork that crashed before its reply, another manual run;
// written with the flags on, so flag A's predecessors are the ones the
// writers recorded (the second run continues the first). R's get_branch
// fallback glues the three roots into one chain, the user's message among
// them; A,B walks the recorded predecessors and shows the message on its
// own branch, the root-level fork, where the sibling arrows lead.
const movedUser = `session id=local_moved00001
flag set=all
manual id=f1 name=word_count args="{\"text\": \"hi\"}"
end output=2
dispatch id=u1 text="hello there\nsecond line" parent=none rooted
crash
manual id=f2 name=word_count args="{\"text\": \"hi\"}"
end output=2
`

// hidingUser is a plain chat of two turns whose second user row also
// records a predecessor, written as flag A's writers write it, that
// contradicts its parent_id: a root. R's own walk shows both turns; A,B
// follow the predecessor and show the second turn alone, the first user
// message on no chain they show at this head.
const hidingUser = `session id=local_hidden0001
user id=u1 text="hello there\nsecond line"
reply
say text=hi
done
user id=u2 text=again
reply
say text=ok
done
`

// buildHiding writes hidingUser into dir and gives u2 its contradicting
// predecessor.
func buildHiding(t *testing.T, dir string) {
	t.Helper()
	build(t, dir, hidingUser, false)
	files, err := filepath.Glob(filepath.Join(dir, "history", "*-u-u2.json"))
	require.NoError(t, err)
	require.Len(t, files, 1)
	data, err := os.ReadFile(files[0])
	require.NoError(t, err)
	n, err := node.Decode(data)
	require.NoError(t, err)
	n.Metadata.Set("predecessor", node.Str(node.RootID))
	require.NoError(t, os.WriteFile(files[0], n.Encode(), 0o644))
}

func step(t *testing.T, s *audit.Session, from, to string) audit.Step {
	t.Helper()
	for _, st := range s.Steps {
		if st.From == from && st.To == to {
			return st
		}
	}
	t.Fatalf("%s: no step %s → %s in %+v", s.Dir, from, to, s.Steps)
	return audit.Step{}
}

// TestMovedUserIsNamed: the step that takes the user's message u1 off the
// chain, which R showed only because its fallback glued another root on,
// names it as moved, with where it went (on the branch the arrows of f1
// lead to, the root-level fork), and the report carries its role and text;
// with the op script as without it, the step is a fix and nothing blocks.
func TestMovedUserIsNamed(t *testing.T) {
	for _, withScript := range []bool{false, true} {
		dir := filepath.Join(t.TempDir(), "s")
		build(t, dir, movedUser, withScript)
		s := audit.One(dir)
		require.Equal(t, withScript, s.Intended)
		require.Equal(t, 3, s.Configs[0].ChainLen, "R's fallback shows f1, u1, f2")
		require.True(t, s.Configs[0].Fallback)
		st := step(t, s, "A", "A,B")
		require.Equal(t, audit.Fix, st.Verdict, "%+v", st)
		went := &audit.Place{Kind: audit.PlaceBranch, Tip: "u1", Via: "switcher", SwitchAt: []string{"f1"}, Loaded: true}
		want := []audit.Row{{ID: "u1", Role: "user", Text: "hello there", Went: went}}
		require.Equal(t, want, st.Removed)
		require.Equal(t, want, st.Moved)
		require.Empty(t, st.Hidden)
		require.Empty(t, st.Added)
		if !withScript {
			require.Contains(t, st.Detail, `u1 user "hello there"`)
		}
		require.False(t, s.Failed())
		require.True(t, s.MovesUser())

		sum, err := audit.Run([]string{dir}, nil, nil)
		require.NoError(t, err)
		require.False(t, sum.Failed(), "a user message moved to a branch a user reaches does not block")
		require.Equal(t, 1, sum.MovedUsers)
	}
}

// TestWalkedUserMovedIsNamed: a user message on R's own walk (not glued on
// by the fallback) that A,B take off the chain because the next turn
// records a contradicting predecessor: where it went decides, as for any
// row (docs/rollout.md §8.3): both are roots, so u2's sibling arrows lead
// to the first turn's tip, and the step names u1 as moved there; the
// session is at risk, not blocking.
func TestWalkedUserMovedIsNamed(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "s")
	buildHiding(t, dir)
	s := audit.One(dir)
	require.Equal(t, 4, s.Configs[0].ChainLen, "R's walk shows both turns")
	require.False(t, s.Configs[0].Fallback)
	st := step(t, s, "A", "A,B")
	require.Equal(t, audit.Fix, st.Verdict, "%+v", st)
	went := &audit.Place{Kind: audit.PlaceBranch, Tip: "u1_reply", Via: "switcher", SwitchAt: []string{"u2"}, Loaded: true}
	require.Equal(t, []audit.Row{
		{ID: "u1", Role: "user", Text: "hello there", Went: went},
		{ID: "u1_reply", Role: "assistant", Text: "hi", Went: went},
	}, st.Removed)
	require.Equal(t, st.Removed[:1], st.Moved)
	require.Empty(t, st.Lost)
	require.False(t, s.Failed())
	require.True(t, s.MovesUser())
}

// TestStepListsAddedRows: the design note's case (two ROOT-parented users,
// legacy §5.1 L4): R shows the second turn only; A,B adds what comes before
// it, whether or not the audit has the script. At R the session starts with
// a run from the fn-form route (R11: the web turn records no parent because
// the server made its conversation before anything was stored), and the
// first turn inherits the run as its parent: the intended chain
// (model.Target, corpus/expected/10-two-root-users-L4.json) is the run's
// card, the first turn's user and reply, then the second turn; the card is
// the run's row as legacy §3.6 copies it (role assistant, its content, an
// output null as "null", its function).
func TestStepListsAddedRows(t *testing.T) {
	src := filepath.Join("..", "corpus", "sessions", "10-two-root-users-L4")
	bare := filepath.Join(t.TempDir(), "l4")
	copyTree(t, src, bare)
	require.NoError(t, os.Remove(filepath.Join(bare, audit.ScriptName)))
	want := []audit.Row{
		{ID: "f00000000010", Role: "assistant", Text: "null", Card: true, Function: "prepare"},
		{ID: "0a0b0c0d0e01", Role: "user", Text: "hello"},
		{ID: "0a0b0c0d0e01_reply", Role: "assistant", Text: "hi"},
	}
	for _, dir := range []string{src, bare} {
		s := audit.One(dir)
		require.Equal(t, dir == src, s.Intended)
		st := step(t, s, "A", "A,B")
		require.Equal(t, audit.Fix, st.Verdict, "%s: %+v", dir, st)
		require.Equal(t, want, st.Added, dir)
		require.Empty(t, st.Removed, dir)
		require.NotNil(t, st.Removed, "JSON lists an empty removed as []")
		require.Empty(t, step(t, s, "off", "A").Added)
	}
}

// TestRowText: a row's text is its first non-empty line, cut before a
// character, never inside one.
func TestRowText(t *testing.T) {
	root := t.TempDir()
	long := strings.Repeat("é", 79) + "日本語"
	build(t, filepath.Join(root, "s"), "session id=local_text000001\nuser id=u1 text=\""+long+"\\nnext\"\nreply\nsay text=\"\\n  ok  \\nmore\"\ndone\n", false)
	var got []audit.Item
	_, err := audit.RunWith([]string{root}, audit.Options{Columns: true}, func(s *audit.Session) {
		got = s.Columns[0].Items
	})
	require.NoError(t, err)
	require.Len(t, got, 2)
	require.Equal(t, strings.Repeat("é", 79)+"…", got[0].Row.Text)
	require.Equal(t, "ok", got[1].Row.Text)
}
