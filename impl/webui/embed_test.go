package webui_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"sessiondag/impl/flags"
	"sessiondag/impl/node"
	"sessiondag/impl/store"
	"sessiondag/impl/webui"
)

// embedCase is a session folder (its files: a user, a reply, an attach row
// and the context commits it may name) and the attach the load must show,
// worked out from the original's _attach_info, _attach_embed_stats and
// ContextCommit readers and checked against the original's own load of each
// folder (adapters/openprogram/record.py --view: every case agrees at R).
// corpus/embed-cases.json holds them for both readers.
type embedCase struct {
	Name  string            `json:"name"`
	Files map[string]string `json:"files"`
	Want  string            `json:"want"`
}

func readEmbedCases(t *testing.T) []embedCase {
	t.Helper()
	b, err := os.ReadFile("../../corpus/embed-cases.json")
	require.NoError(t, err)
	var cases []embedCase
	require.NoError(t, json.Unmarshal(b, &cases), "corpus/embed-cases.json")
	require.NotEmpty(t, cases, "corpus/embed-cases.json holds no case")
	return cases
}

// writeEmbedSession writes the case's folder.
func writeEmbedSession(t *testing.T, c embedCase) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "s")
	for name, text := range c.Files {
		p := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	}
	return dir
}

// TestEmbedStats: the attach row a load shows, for each case, has exactly
// the attach the original builds, keys in its order.
func TestEmbedStats(t *testing.T) {
	for _, c := range readEmbedCases(t) {
		t.Run(c.Name, func(t *testing.T) {
			s, err := store.Open(writeEmbedSession(t, c))
			require.NoError(t, err)
			require.Empty(t, s.Problems)
			for _, fl := range []flags.Set{flags.Off, flags.All} {
				l := webui.Load(s, fl)
				require.Equal(t, "at1", l.Chain[len(l.Chain)-1].ID)
				got := node.Dumps(l.Chain[len(l.Chain)-1].Get("attach"))
				want, err := node.ParseString(c.Want)
				require.NoError(t, err)
				require.Equal(t, node.Dumps(want), got, "flags %s", fl)
			}
		})
	}
}
