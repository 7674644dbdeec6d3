package props

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"sessiondag/checker/driver"
	"sessiondag/checker/harness"
	"sessiondag/impl/flags"
	"sessiondag/impl/node"
	"sessiondag/impl/store"
	"sessiondag/impl/writer"
	"sessiondag/model"
)

// storeChecks are the harness checks that need no op script: invariants of
// the implementation over whatever a store holds.
var storeChecks = []string{"aggregation", "cards", "columns", "retire-d"}

// originalCorpora are the corpora the original system itself stored or
// loaded, with how many session folders each holds: the conformance
// sessions, the sessions its own writers stored, and the messages
// corpus/adapter put through its message adapter.
var originalCorpora = []struct {
	name     string
	sessions int
}{{"conformance", 60}, {"realwriter", 114}, {"adapter", 3}}

// TestConformanceThroughBothReaders: every session of corpus/conformance,
// corpus/realwriter and corpus/adapter (what the original itself stored) read by the
// implementation's cold load and by the model's own reader shows the same
// views with the flags off, at the stored head and with every node as the
// head; and there the implementation-only checks hold (aggregation
// conservation, no user row dropped by the card pass, the load by position
// equals the load by maps, D reads no parent_id and changes no view).
// Moving the head from node to node over one store also runs each load over
// what the loads before it kept.
func TestConformanceThroughBothReaders(t *testing.T) {
	t.Parallel()
	inProcessOnly(t, "the cold load of the conformance sessions")
	var dirs []string
	for _, c := range originalCorpora {
		found, err := filepath.Glob(filepath.Join(corpusDir, c.name, "sessions", "*"))
		require.NoError(t, err)
		require.Len(t, found, c.sessions, "corpus/%s holds %d sessions", c.name, c.sessions)
		dirs = append(dirs, found...)
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(filepath.Dir(filepath.Dir(dir)))+"/"+filepath.Base(dir), func(t *testing.T) {
			t.Parallel()
			st, err := store.Open(dir)
			require.NoError(t, err)
			require.Empty(t, st.Problems)
			ms, err := model.ReadSessionDir(dir)
			require.NoError(t, err)
			require.Equal(t, ms.HeadID, st.Head(), "the stored head")
			heads := []string{ms.HeadID}
			for _, n := range ms.Nodes {
				heads = append(heads, n.ID)
			}
			for _, h := range heads {
				if !sameAtHead(t, st, ms, h) {
					return // the first head that differs says it; the rest would repeat it
				}
			}
		})
	}
}

// sameAtHead moves both readers' head to h, compares their views and runs
// the store checks; it reports whether everything held.
func sameAtHead(t *testing.T, st *store.Store, ms *model.Session, h string) bool {
	t.Helper()
	ms.HeadID = h
	st.MoveHead(h)
	if sec, d := harness.ViewDiff(model.LegacyView(ms), harness.Views(st, flags.Off)); sec != "" {
		t.Errorf("head %q: the implementation's view %s differs from the model's (-model +impl):\n%s", h, sec, d)
		return false
	}
	// The checks load the store at its persisted head: the in-memory meta
	// (never written back) names h.
	st.Meta.Set("head_id", node.Str(h))
	s := harness.OnStore(&driver.Run{W: &writer.Writer{S: st}})
	for _, name := range storeChecks {
		if f := check(name).Run(s); f != nil {
			t.Errorf("head %q: check %s: %s\n%s", h, name, f.What, f.Diff)
			return false
		}
	}
	return true
}
