package webui_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"sessiondag/impl/adapter"
	"sessiondag/impl/flags"
	"sessiondag/impl/store"
	"sessiondag/impl/webui"
	"sessiondag/internal/jsoncmp"
)

var conformanceRoot = filepath.Join("..", "..", "corpus", "conformance")

// originalCorpora are the corpora of sessions the original system itself
// stored or loaded, each with what its handle_load_session sent the browser
// (expected/<folder>.json): the conformance sessions, the sessions its
// own writers stored, and the messages corpus/adapter put through its
// message adapter. All are replayed by one mechanism.
var originalCorpora = []struct {
	dir      string
	sessions int // how many session folders the corpus holds
	empty    int // how many folders the original left empty (git keeps none: only their expected view)
}{
	{conformanceRoot, 60, 0},
	{filepath.Join("..", "..", "corpus", "realwriter"), 114, 1},
	{filepath.Join("..", "..", "corpus", "adapter"), 3, 0},
}

// TestConformance loads every session of both corpora with every flag off
// and compares head and chain with what the original itself sent the
// browser (expected/, produced by its own code), every object's keys in
// the original's order.
func TestConformance(t *testing.T) {
	for _, c := range originalCorpora {
		entries, err := os.ReadDir(filepath.Join(c.dir, "sessions"))
		require.NoError(t, err)
		require.Len(t, entries, c.sessions, "%s: the bundled data is incomplete", c.dir)
		expected, err := os.ReadDir(filepath.Join(c.dir, "expected"))
		require.NoError(t, err)
		require.Len(t, expected, c.sessions+c.empty, "%s: one expected view per session folder, and one per folder the original left empty", c.dir)
		emptyFolders(t, c.dir, expected, func(dir string) error { _, err := store.Open(dir); return err })
		for _, e := range entries {
			id := e.Name()
			t.Run(filepath.Base(c.dir)+"/"+id, func(t *testing.T) {
				got := loadedFrame(t, c.dir, id)
				want, err := os.ReadFile(filepath.Join(c.dir, "expected", id+".json"))
				require.NoError(t, err)
				if d := conformanceDiff(id, want, got); d != "" {
					t.Fatal(d)
				}
			})
		}
	}
}

// emptyFolders checks each expected view of a folder the corpus does not
// hold — one the original left empty, which git cannot keep: the original
// showed nothing there (no head, no row), and the reader, given such a
// folder, refuses it as holding no session, so a tool names it and shows
// nothing either.
func emptyFolders(t *testing.T, dir string, expected []os.DirEntry, open func(string) error) {
	t.Helper()
	for _, e := range expected {
		id := strings.TrimSuffix(e.Name(), ".json")
		if _, err := os.Stat(filepath.Join(dir, "sessions", id)); err == nil {
			continue
		}
		want, err := os.ReadFile(filepath.Join(dir, "expected", e.Name()))
		require.NoError(t, err)
		require.JSONEq(t, `{"head_id": null, "chain": []}`, string(want), "%s: an expected view without its folder is an empty folder's", id)
		empty := filepath.Join(t.TempDir(), id)
		require.NoError(t, os.Mkdir(empty, 0o755))
		require.ErrorContains(t, open(empty), "not a session directory", "%s: an empty folder", id)
	}
}

// frame is the part of a load the expected files hold, in their order.
type frame struct {
	HeadID webui.Head         `json:"head_id"`
	Chain  []*adapter.Message `json:"chain"`
}

// loadedFrame loads a session of a corpus with the flags off and returns
// its frame as JSON.
func loadedFrame(t *testing.T, corpus, id string) []byte {
	t.Helper()
	s, err := store.Open(filepath.Join(corpus, "sessions", id))
	require.NoError(t, err)
	require.Empty(t, s.Problems)
	l := webui.Load(s, flags.Off)
	got, err := json.Marshal(frame{HeadID: l.HeadID, Chain: l.Chain})
	require.NoError(t, err)
	return got
}

// conformanceDiff compares a frame {head_id, chain} with the original's
// (both JSON text) and returns "" when they agree, else the first
// difference: head_id, or the first row that differs (by index and id),
// with a diff of its content or the first key out of place.
func conformanceDiff(session string, want, got []byte) string {
	w, err := jsoncmp.Decode(want)
	if err != nil {
		return fmt.Sprintf("%s: expected file: %v", session, err)
	}
	g, err := jsoncmp.Decode(got)
	if err != nil {
		return fmt.Sprintf("%s: load: %v", session, err)
	}
	wo, _ := w.(jsoncmp.Object)
	gobj, _ := g.(jsoncmp.Object)
	wh, _ := wo.Get("head_id")
	gh, _ := gobj.Get("head_id")
	if d := jsoncmp.Diff(wh, gh); d != "" {
		return fmt.Sprintf("%s: head_id (-original +load):\n%s", session, d)
	}
	wc, gc := rowsOf(wo), rowsOf(gobj)
	for i := 0; i < len(wc) && i < len(gc); i++ {
		if d := jsoncmp.Diff(wc[i], gc[i]); d != "" {
			return fmt.Sprintf("%s: row %d (id %q) (-original +load):\n%s", session, i, rowID(wc[i]), d)
		}
	}
	if len(wc) != len(gc) {
		ids := func(rows []any) (out []string) {
			for _, r := range rows {
				out = append(out, rowID(r))
			}
			return out
		}
		return fmt.Sprintf("%s: chain has %d rows, want %d: original %v, load %v", session, len(gc), len(wc), ids(wc), ids(gc))
	}
	if d := jsoncmp.Diff(w, g); d != "" {
		return fmt.Sprintf("%s: frame (-original +load):\n%s", session, d)
	}
	return ""
}

func rowsOf(frame jsoncmp.Object) []any {
	c, _ := frame.Get("chain")
	rows, _ := c.([]any)
	return rows
}

func rowID(row any) string {
	o, _ := row.(jsoncmp.Object)
	id, _ := o.Get("id")
	s, _ := id.(string)
	return s
}

// The comparison sees key order: the original's frame with two keys of one
// row swapped is reported with the session, the row and the keys.
func TestConformanceDiffReportsKeyOrder(t *testing.T) {
	const id = "local_0011000000"
	want, err := os.ReadFile(filepath.Join(conformanceRoot, "expected", id+".json"))
	require.NoError(t, err)
	got := loadedFrame(t, conformanceRoot, id)
	require.Empty(t, conformanceDiff(id, want, got))

	swapped := swapKeys(t, want, 1, "role", "content")
	d := conformanceDiff(id, swapped, got)
	for _, part := range []string{id, "row 1", `"e65f53e9_reply"`, `"role"`, `"content"`, "out of order"} {
		require.Contains(t, d, part, "report:\n%s", d)
	}
}

// swapKeys returns the frame with keys a and b of chain row i exchanged.
func swapKeys(t *testing.T, data []byte, i int, a, b string) []byte {
	t.Helper()
	v, err := jsoncmp.Decode(data)
	require.NoError(t, err)
	row := rowsOf(v.(jsoncmp.Object))[i].(jsoncmp.Object)
	ia := slices.IndexFunc(row, func(m jsoncmp.Member) bool { return m.Key == a })
	ib := slices.IndexFunc(row, func(m jsoncmp.Member) bool { return m.Key == b })
	require.True(t, ia >= 0 && ib >= 0, "row %d lacks %s or %s", i, a, b)
	row[ia], row[ib] = row[ib], row[ia]
	out, err := json.Marshal(v)
	require.NoError(t, err)
	return out
}
