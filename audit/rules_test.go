package audit_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"sessiondag/audit"
)

// setPredecessor rewrites the stored conversation predecessor of node id
// (a row written with flag A on): the one edit the writers never make, so
// that a table case can put a branch where no sibling arrow leads.
func setPredecessor(t *testing.T, dir, id, pred string) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "history", "*-"+id+".json"))
	require.NoError(t, err)
	require.Len(t, files, 1, id)
	b, err := os.ReadFile(files[0])
	require.NoError(t, err)
	var n map[string]any
	require.NoError(t, json.Unmarshal(b, &n))
	n["metadata"].(map[string]any)["predecessor"] = pred
	b, err = json.MarshalIndent(n, "", "  ")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(files[0], b, 0o644))
}

// A whereCase is a small session, a step, and what docs/rollout.md §8 says
// of each row the step removes and of the step.
type whereCase struct {
	name   string
	script string
	edit   func(t *testing.T, dir string) // after the writers, before the audit
	step   [2]string
	// want: each removed row's place, as the rule's statement gives it
	// (Loaded is checked apart: every place here is confirmed by a load).
	want    map[string]audit.Place
	verdict string
	hidden  []string // user messages no user finds (ruleUserUnfindable)
	lost    []string // rows no load shows (ruleLost)
	moved   []string // user messages on another branch
}

// secondTurnCut is a two-turn chat written with the flags on whose second
// turn's predecessor names a row that is not in the session: A,B's chain
// starts at the second turn and no arrow leads back (the second turn is
// alone in its sibling set), and no row is caller-less (no branch list).
const secondTurnCut = `session id=local_cut000001
flag set=all
user id=u1 text=first
reply
say text=hi
done
user id=u2 text=second
reply
say text=ok
done
`

func cutSecondTurn(t *testing.T, dir string) { setPredecessor(t, dir, "u2", "gone") }

var whereCases = []whereCase{
	{
		// f1, u1 (a dispatcher root fork that crashed) and f2 written with
		// the flags on; R's get_branch fallback glues the three roots.
		// A,B walks f2 → f1; u1 is a root too, so the arrows of f1 (the
		// roots' sibling set: f1, u1) lead to u1, the deepest leaf below
		// it.
		name: "moved-by-the-arrows", script: movedUser, step: [2]string{"A", "A,B"},
		want: map[string]audit.Place{
			"u1": {Kind: audit.PlaceBranch, Tip: "u1", Via: "switcher", SwitchAt: []string{"f1"}},
		},
		verdict: audit.Fix, moved: []string{"u1"},
	},
	{
		// u1's turn failed (a standalone error row e1, caller-less); u2,
		// typed next, records u1 as its parent (R's chain u1, u2, its
		// reply) and e1 as its predecessor, edited to a missing row: A,B
		// shows u2 and its reply alone. No arrow leads back; the branch
		// list offers e1 (caller-less, no row records it as parent), whose
		// chain is u1, e1.
		name: "moved-to-the-branch-list",
		script: `session id=local_blist00001
flag set=all
user id=u1 text=first
error-standalone id=e1 type=ProviderError msg=down
user id=u2 text=second
reply
say text=ok
done
`,
		edit: cutSecondTurn, step: [2]string{"A", "A,B"},
		want: map[string]audit.Place{
			"u1": {Kind: audit.PlaceBranch, Tip: "e1", Via: "branch-list"},
		},
		verdict: audit.Fix, moved: []string{"u1"},
	},
	{
		// The same cut after a plain first turn: no arrow, no branch list;
		// the first turn shows only when its own row is checked out. The
		// reply was on R's own chain (no fallback), so it is lost too.
		name: "user-message-only-at-its-head", script: secondTurnCut, edit: cutSecondTurn, step: [2]string{"A", "A,B"},
		want: map[string]audit.Place{
			"u1":       {Kind: audit.PlaceHead, Tip: "u1"},
			"u1_reply": {Kind: audit.PlaceHead, Tip: "u1_reply"},
		},
		verdict: audit.Regression, hidden: []string{"u1"}, lost: []string{"u1_reply"},
	},
	{
		// A manual run, then a web turn: R's fallback glues the run on
		// (rule 3); the turn's predecessor, edited to a missing row, keeps
		// it off A,B's chain and no arrow or branch list leads to it. It
		// is no user's message, R showed it only by the fallback's glue,
		// and a load at its row shows it: a fix.
		name: "other-row-only-at-its-head",
		script: `session id=local_run0000001
flag set=all
manual id=f1 name=word_count args="{}"
end output=2
user id=u2 text=second
reply
say text=ok
done
`,
		edit: cutSecondTurn, step: [2]string{"A", "A,B"},
		want: map[string]audit.Place{
			"f1": {Kind: audit.PlaceHead, Tip: "f1"},
		},
		verdict: audit.Fix,
	},
	{
		// The stored head is an orphan tool row whose caller is not in the
		// session: R shows it (as a card); under A,B it stands for no
		// conversation row, and no load at any head shows it.
		name: "lost",
		script: `session id=local_orphan0001
user id=u1 text=hello
reply
say text=hi
done
orphan id=o1 name=probe caller=zz
checkout id=o1
`,
		step: [2]string{"A", "A,B"},
		want: map[string]audit.Place{
			"o1": {Kind: audit.PlaceLost},
		},
		verdict: audit.Regression, lost: []string{"o1"},
	},
	{
		// A legacy tool row moved the head to itself and the process
		// crashed: R's fallback shows that row raw (a card); A,B shows the
		// reply it belongs to with the call folded in, which counts as
		// shown: the step removes nothing.
		name: "folded-into-its-reply",
		script: `session id=local_fold000001
user id=u1 text=hi
reply
tool call=c1 name=bash args="{}" result=ok legacy
crash
`,
		step:    [2]string{"A", "A,B"},
		want:    map[string]audit.Place{},
		verdict: audit.Fix,
	},
	{
		// A function run with a nested one, the head checked out on the
		// nested run: R shows both as cards; A,B shows the outer run's
		// card, whose execution tree holds the nested run.
		name: "inside-a-card",
		script: `session id=local_card000001
manual id=f1 name=outer args="{}"
fn id=f2 name=inner args="{}"
end output=1
end output=2
checkout id=f2
`,
		step: [2]string{"A", "A,B"},
		want: map[string]audit.Place{
			"f2": {Kind: audit.PlaceChain, In: "f1"},
		},
		verdict: audit.Fix,
	},
}

func ids(rows []audit.Row) []string {
	var out []string
	for _, r := range rows {
		out = append(out, r.ID)
	}
	return out
}

// TestWhereRemovedRowsGo: each rule of docs/rollout.md §8.3 on a session
// built for it, without an op script: where every removed row went, and
// the verdict that follows.
func TestWhereRemovedRowsGo(t *testing.T) {
	for _, c := range whereCases {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "s")
			build(t, dir, c.script, false)
			if c.edit != nil {
				c.edit(t, dir)
			}
			s := audit.One(dir)
			require.Empty(t, s.Error)
			st := step(t, s, c.step[0], c.step[1])
			got := map[string]audit.Place{}
			for _, r := range st.Removed {
				require.NotNil(t, r.Went, "%s has no place", r.ID)
				require.True(t, r.Went.Loaded, "%s: a load confirms the place", r.ID)
				p := *r.Went
				p.Loaded = false
				got[r.ID] = p
			}
			require.Equal(t, c.want, got)
			require.Equal(t, c.verdict, st.Verdict, st.Detail)
			require.Equal(t, c.hidden, ids(st.Hidden), "hidden")
			require.Equal(t, c.lost, ids(st.Lost), "lost")
			require.Equal(t, c.moved, ids(st.Moved), "moved")
			require.Equal(t, c.verdict == audit.Regression, s.Failed())
		})
	}
}

// TestScriptDecidesAMovedUser: with the op script, which says u1 was a
// fork of its own, the step that takes it off the chain is a fix by the
// intended view, and u1 is still named as moved, with where.
func TestScriptDecidesAMovedUser(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "s")
	build(t, dir, movedUser, true)
	s := audit.One(dir)
	require.True(t, s.Intended)
	st := step(t, s, "A", "A,B")
	require.Equal(t, audit.Fix, st.Verdict, "%+v", st)
	require.Empty(t, st.Hidden, "u1 is not a message of the intended conversation at this head")
	require.Equal(t, []string{"u1"}, ids(st.Moved))
	require.Equal(t, audit.PlaceBranch, st.Moved[0].Went.Kind)
	require.False(t, s.Failed())
}

// TestScriptJudgesByTheIntendedView: with the op script of a session
// written with the flags on, a step that takes intended rows off the chain
// moves away from the intended view and is a regression whatever else it
// shows (§8.2): the cut second turn's session, with its script.
func TestScriptJudgesByTheIntendedView(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "s")
	build(t, dir, secondTurnCut, true)
	cutSecondTurn(t, dir)
	s := audit.One(dir)
	require.True(t, s.Intended)
	st := step(t, s, "A", "A,B")
	require.Equal(t, audit.Regression, st.Verdict, st.Detail)
	require.Equal(t, []string{"u1"}, ids(st.Hidden), "the intended user message the step takes off")
	require.True(t, s.Failed())
}
