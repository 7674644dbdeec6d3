package webui

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"sessiondag/impl/flags"
	"sessiondag/impl/store"
)

// TestParallelFill loads every conformance session with the column fill
// split between goroutines at any size, under every rollout step, and
// compares each load with the load by maps. Run with -race (make race) it
// also checks that the split fill shares nothing it writes.
func TestParallelFill(t *testing.T) {
	old := parallelFill
	parallelFill = 1
	defer func() { parallelFill = old }()
	root := filepath.Join("..", "..", "corpus", "conformance", "sessions")
	entries, err := os.ReadDir(root)
	require.NoError(t, err)
	for _, e := range entries {
		s, err := store.Open(filepath.Join(root, e.Name()))
		require.NoError(t, err)
		for _, fl := range flags.Rollout {
			want, err := json.Marshal(LoadByMaps(s, fl))
			require.NoError(t, err)
			got, err := json.Marshal(Load(s, fl))
			require.NoError(t, err)
			require.JSONEq(t, string(want), string(got), "%s under %s", e.Name(), fl)
		}
	}
}
