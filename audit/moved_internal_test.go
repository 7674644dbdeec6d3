package audit

import (
	"path/filepath"
	"strings"
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
// branch they ran on, where the sibling arrows lead. The step is a fix. It
// stays a regression when the rows are nowhere the new config shows them
// (an at that shows the fork again, as a B that lost them would), and a
// user message on R's own walk is never moved.
func TestMovedNotHidden(t *testing.T) {
	ab := flags.A | flags.B
	for _, c := range []struct{ session, user, tip string }{
		{"local_fef26bad89", "4487d5531880", "4487d5531880"},
		{"local_0f43f32fab", "200c51d0d243", "635d86eb9546"},
	} {
		st, err := store.Open(filepath.Join("..", "corpus", "realwriter", "sessions", c.session))
		require.NoError(t, err)
		a, b := webui.Load(st, flags.A), webui.Load(st, ab)
		at := func(head string) *webui.Loaded { return webui.Load(st.AtHead(head), ab) }
		isConv := lane.NewPreds(st).IsConv

		step := classify(flags.A, ab, a, b, nil, false, isConv, at)
		require.Equal(t, Fix, step.Verdict, "%s: %s", c.session, step.Detail)
		require.Empty(t, step.Hidden)
		require.Contains(t, step.Detail, c.user)
		require.Contains(t, step.Detail, "shown at head "+c.tip)
		arrows := webui.Arrows(ab, b.All)
		require.Equal(t, c.tip, arrows.DeepestLeaf(c.user))
		require.True(t, arrows.ReachableFrom(b.Chain)(c.user))

		nowhere := func(string) *webui.Loaded { return b }
		step = classify(flags.A, ab, a, b, nil, false, isConv, nowhere)
		require.Equal(t, Regression, step.Verdict, "%s: rows shown nowhere", c.session)
		require.Equal(t, c.user, step.Hidden[0].ID)

		// The same message on R's own walk: hiding it is hiding it.
		a.Linear = append(a.Linear, a.Chain...)
		step = classify(flags.A, ab, a, b, nil, false, isConv, at)
		require.Equal(t, Regression, step.Verdict, "%s: a message on R's walk", c.session)
		require.True(t, strings.Contains(step.Detail, "hides the user's message"), step.Detail)
	}
}
