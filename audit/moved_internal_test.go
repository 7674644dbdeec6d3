package audit

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"sessiondag/impl/flags"
	"sessiondag/impl/lane"
	"sessiondag/impl/store"
	"sessiondag/impl/webui"
)

// The two sessions of the original's own writers where step B takes rows
// off the chain R showed: a script run in a session context (caller-less
// function rows, a top-level ask_user answer "yes") and then a dispatcher
// turn forking at the root. R glued the script onto the fork through its
// get_branch fallback; B shows the fork alone and the script's rows on the
// branch they ran on, where the sibling arrows lead. The step is a fix that
// names the user's message as moved, with the tip the arrows lead to. With
// no load budget left the navigation model alone places it, and it stays a
// fix; with the message shown nowhere (a placer whose loads show the
// stored head's chain, as a B that lost the rows would) it is a regression.
func TestMovedNotHidden(t *testing.T) {
	ab := flags.A | flags.B
	for _, c := range []struct{ session, user, tip string }{
		{"local_fef26bad89", "4487d5531880", "4487d5531880"},
		{"local_0f43f32fab", "200c51d0d243", "635d86eb9546"},
	} {
		st, err := store.Open(filepath.Join("..", "corpus", "realwriter", "sessions", c.session))
		require.NoError(t, err)
		a, b := webui.Load(st, flags.A), webui.Load(st, ab)
		isConv := lane.NewPreds(st).IsConv

		budget := placeLoads
		step := classify(flags.A, ab, a, b, nil, false, isConv, newPlacer(st, newAnchors(st), ab, b, &budget))
		require.Equal(t, Fix, step.Verdict, "%s: %s", c.session, step.Detail)
		require.Empty(t, step.Hidden)
		require.Empty(t, step.Lost)
		var moved *Row
		for i := range step.Moved {
			if step.Moved[i].ID == c.user {
				moved = &step.Moved[i]
			}
		}
		require.NotNil(t, moved, "%s: %+v", c.session, step.Moved)
		require.Equal(t, PlaceBranch, moved.Went.Kind)
		require.Equal(t, c.tip, moved.Went.Tip)
		require.True(t, moved.Went.Loaded)
		require.Contains(t, step.Detail, c.user)
		arrows := webui.Arrows(ab, b.All)
		require.Equal(t, c.tip, arrows.DeepestLeaf(c.user))

		none := 0
		step = classify(flags.A, ab, a, b, nil, false, isConv, newPlacer(st, newAnchors(st), ab, b, &none))
		require.Equal(t, Fix, step.Verdict, "%s: by the model alone: %s", c.session, step.Detail)

		nowhere := newPlacer(st, newAnchors(st), ab, b, &budget)
		nowhere.loads = map[string]shown{c.tip: nowhere.shown, c.user: nowhere.shown}
		step = classify(flags.A, ab, a, b, nil, false, isConv, nowhere)
		require.Equal(t, Regression, step.Verdict, "%s: rows shown nowhere", c.session)
		require.Equal(t, c.user, step.Hidden[0].ID)
	}
}
