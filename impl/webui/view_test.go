package webui_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"sessiondag/impl/flags"
	"sessiondag/impl/store"
	"sessiondag/impl/webui"
)

// TestViewsOfIsViews: the views built from a load already made are the
// views of a load of their own, on every bundled session (the original's
// and those written under each step of the rollout) under each config of
// the rollout path.
func TestViewsOfIsViews(t *testing.T) {
	dirs := []string{filepath.Join("..", "..", "corpus", "sessions")}
	for _, c := range originalCorpora {
		dirs = append(dirs, filepath.Join(c.dir, "sessions"))
	}
	n := 0
	for _, dir := range dirs {
		entries, err := os.ReadDir(dir)
		require.NoError(t, err)
		for _, e := range entries {
			s, err := store.Open(filepath.Join(dir, e.Name()))
			require.NoError(t, err, e.Name())
			for _, fl := range flags.Rollout {
				want, err := json.Marshal(webui.Views(s, fl))
				require.NoError(t, err)
				got, err := json.Marshal(webui.ViewsOf(s, fl, webui.Load(s, fl)))
				require.NoError(t, err)
				require.JSONEq(t, string(want), string(got), "%s under %s", e.Name(), fl)
				n++
			}
		}
	}
	require.Greater(t, n, 1000, "the bundled sessions are missing")
}
