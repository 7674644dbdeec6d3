package audit_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"sessiondag/audit"
	"sessiondag/checker/driver"
	"sessiondag/checker/ops"
	"sessiondag/impl/flags"
	"sessiondag/impl/store"
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

// hiddenUser: a manual run, a dispatcher turn the user started as a
// root-level fork that crashed before its reply, another manual run; written
// with the flags on, so flag A's predecessors are the ones the writers
// recorded (the second run continues the first). R's get_branch fallback
// glues the three roots into one chain, the user's message among them;
// A,B walks the recorded predecessors and leaves the message out.
const hiddenUser = `session id=local_hidden0001
flag set=all
manual id=f1 name=word_count args="{\"text\": \"hi\"}"
end output=2
dispatch id=u1 text="hello there\nsecond line" parent=none
crash
manual id=f2 name=word_count args="{\"text\": \"hi\"}"
end output=2
`

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

// TestMovedUserIsNamed: without an op script, the step that takes the
// user's message u1 off the chain names it as moved, with where it went
// (on the branch the arrows of f1 lead to), and the report carries its
// role and text.
func TestMovedUserIsNamed(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "s")
	build(t, dir, hiddenUser, false)
	s := audit.One(dir)
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
	require.Contains(t, st.Detail, `u1 user "hello there"`)
	require.False(t, s.Failed())
	require.True(t, s.MovesUser())

	sum, err := audit.Run([]string{dir}, nil, nil)
	require.NoError(t, err)
	require.False(t, sum.Failed(), "a user message moved to a branch a user reaches does not block")
	require.Equal(t, 1, sum.MovedUsers)
}

// TestStepListsAddedRows: the design note's case (two ROOT-parented users,
// legacy §5.1 L4): R shows the second turn only; A,B adds the first turn,
// its user message and its reply, whether or not the audit has the script.
func TestStepListsAddedRows(t *testing.T) {
	src := filepath.Join("..", "corpus", "sessions", "10-two-root-users-L4")
	bare := filepath.Join(t.TempDir(), "l4")
	copyTree(t, src, bare)
	require.NoError(t, os.Remove(filepath.Join(bare, audit.ScriptName)))
	want := []audit.Row{
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
