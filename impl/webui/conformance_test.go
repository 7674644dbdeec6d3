package webui_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"sessiondag/impl/flags"
	"sessiondag/impl/store"
	"sessiondag/impl/webui"
	"sessiondag/internal/jsoncmp"
)

// TestConformance loads every bundled session of the original system with
// every flag off and compares head and chain with what the original itself
// sent the browser (corpus/conformance/expected, produced by its own code).
func TestConformance(t *testing.T) {
	root := filepath.Join("..", "..", "corpus", "conformance")
	entries, err := os.ReadDir(filepath.Join(root, "sessions"))
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(entries), 60, "the bundled conformance data is incomplete")
	for _, e := range entries {
		id := e.Name()
		t.Run(id, func(t *testing.T) {
			s, err := store.Open(filepath.Join(root, "sessions", id))
			require.NoError(t, err)
			require.Empty(t, s.Problems)
			l := webui.Load(s, flags.Off)
			got, err := jsoncmp.Of(map[string]any{"head_id": l.HeadID, "chain": l.Chain})
			require.NoError(t, err)
			data, err := os.ReadFile(filepath.Join(root, "expected", id+".json"))
			require.NoError(t, err)
			want, err := jsoncmp.Decode(data)
			require.NoError(t, err)
			if d := jsoncmp.Diff(want, got); d != "" {
				t.Fatalf("load of %s differs from the original (-want +got):\n%s", id, d)
			}
		})
	}
}
