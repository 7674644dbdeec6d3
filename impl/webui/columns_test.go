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

// TestCallPath: the path of a tree under construction answers membership
// the same before and after it grows past the length where a map joins
// the slice, and forgets what is popped.
func TestCallPath(t *testing.T) {
	var p callPath
	ids := make([]string, 40)
	for i := range ids {
		ids[i] = string(rune('a'+i%26)) + string(rune('0'+i/26))
		require.False(t, p.has(ids[i]))
		p.push(ids[i])
		for _, id := range ids[:i+1] {
			require.True(t, p.has(id), "%s on a path of %d", id, i+1)
		}
	}
	for i := len(ids) - 1; i >= 0; i-- {
		p.pop()
		require.False(t, p.has(ids[i]), "%s popped", ids[i])
		if i > 0 {
			require.True(t, p.has(ids[i-1]))
		}
	}
}
