package model

import (
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const conformanceDir = "../corpus/conformance"

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
	{conformanceDir, 60, 0},
	{"../corpus/realwriter", 114, 1},
	{"../corpus/adapter", 3, 0},
}

// TestConformance: for every session of both corpora, head_id and chain
// equal what the original itself sent: every object's keys in the
// original's order, numbers numerically, strings byte for byte.
func TestConformance(t *testing.T) {
	for _, c := range originalCorpora {
		dirs, err := filepath.Glob(filepath.Join(c.dir, "sessions", "*"))
		if err != nil || len(dirs) == 0 {
			t.Fatalf("%s: no sessions: %v", c.dir, err)
		}
		if len(dirs) != c.sessions {
			t.Errorf("%s: want %d sessions, found %d", c.dir, c.sessions, len(dirs))
		}
		expected, err := filepath.Glob(filepath.Join(c.dir, "expected", "*.json"))
		if err != nil || len(expected) != len(dirs)+c.empty {
			t.Errorf("%s: %d expected views for %d session folders and %d empty ones (%v)", c.dir, len(expected), len(dirs), c.empty, err)
		}
		emptyFolders(t, c.dir, expected)
		for _, dir := range dirs {
			id := filepath.Base(dir)
			t.Run(filepath.Base(c.dir)+"/"+id, func(t *testing.T) {
				s, err := ReadSessionDir(dir)
				if err != nil {
					t.Fatal(err)
				}
				view := LegacyView(s)
				got, err := json.Marshal(loadFrame(view))
				if err != nil {
					t.Fatal(err)
				}
				want, err := os.ReadFile(filepath.Join(c.dir, "expected", id+".json"))
				if err != nil {
					t.Fatal(err)
				}
				if d := conformanceDiff(id, want, got); d != "" {
					t.Error(d)
				}
				// The whole view must marshal (views.md).
				if _, err := json.Marshal(view); err != nil {
					t.Errorf("marshal view: %v", err)
				}
			})
		}
	}
}

// emptyFolders checks each expected view of a folder the corpus does not
// hold — one the original left empty, which git cannot keep: the original
// showed nothing there (no head, no row), and the reader, given such a
// folder, refuses it as holding no session, so nothing is shown either.
func emptyFolders(t *testing.T, dir string, expected []string) {
	t.Helper()
	for _, e := range expected {
		id := strings.TrimSuffix(filepath.Base(e), ".json")
		if _, err := os.Stat(filepath.Join(dir, "sessions", id)); err == nil {
			continue
		}
		want, err := os.ReadFile(e)
		if err != nil {
			t.Fatal(err)
		}
		var got any
		if err := json.Unmarshal(want, &got); err != nil || !cmp.Equal(got, map[string]any{"head_id": nil, "chain": []any{}}) {
			t.Errorf("%s: an expected view without its folder is not an empty folder's: %s", id, want)
		}
		empty := filepath.Join(t.TempDir(), id)
		if err := os.Mkdir(empty, 0o755); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadSessionDir(empty); err == nil || !strings.Contains(err.Error(), "no session here") {
			t.Errorf("%s: an empty folder read as a session (%v)", id, err)
		}
	}
}

// loadedFrame is the part of a view the expected files hold, in their order.
type loadedFrame struct {
	HeadID *string   `json:"head_id"`
	Chain  []*Object `json:"chain"`
}

func loadFrame(v View) loadedFrame { return loadedFrame{HeadID: v.HeadID, Chain: v.Chain} }

// conformanceDiff compares a frame {head_id, chain} with the original's
// (both JSON text) and returns "" when they agree, else the first
// difference: head_id, or the first row that differs (by its index and
// id), with a go-cmp diff of its content or the first key out of place.
func conformanceDiff(session string, want, got []byte) string {
	w, err := ParseJSON(want)
	if err != nil {
		return fmt.Sprintf("%s: expected file: %v", session, err)
	}
	g, err := ParseJSON(got)
	if err != nil {
		return fmt.Sprintf("%s: model output: %v", session, err)
	}
	wo, _ := w.(*Object)
	gobj, _ := g.(*Object)
	if wo == nil || gobj == nil {
		return fmt.Sprintf("%s: a frame is not an object", session)
	}
	if d := orderedDiff(wo.Val("head_id"), gobj.Val("head_id")); d != "" {
		return fmt.Sprintf("%s: head_id (-original +model):\n%s", session, d)
	}
	wc, _ := wo.Val("chain").([]any)
	gc, _ := gobj.Val("chain").([]any)
	for i := 0; i < len(wc) && i < len(gc); i++ {
		if d := orderedDiff(wc[i], gc[i]); d != "" {
			id, _ := wc[i].(*Object)
			return fmt.Sprintf("%s: row %d (id %q) (-original +model):\n%s", session, i, id.Str("id"), d)
		}
	}
	if len(wc) != len(gc) {
		return fmt.Sprintf("%s: chain has %d rows, want %d (-original +model):\n%s", session, len(gc), len(wc), cmp.Diff(rowIDs(wc), rowIDs(gc)))
	}
	if d := orderedDiff(w, g); d != "" {
		return fmt.Sprintf("%s: frame (-original +model):\n%s", session, d)
	}
	return ""
}

// orderedDiff is a go-cmp diff of two values' content, or when only key
// order differs, the first key out of place; "" when equal.
func orderedDiff(want, got any) string {
	if d := cmp.Diff(plain(want), plain(got), numbersEqual); d != "" {
		return d
	}
	if m, ok := firstKeyOutOfPlace(want, got, ""); ok {
		return m.String()
	}
	return ""
}

// misplacedKey is the first key out of place: in the object at path, key
// number index (from 0) is gotKey where the original has wantKey.
type misplacedKey struct {
	path            string
	index           int
	wantKey, gotKey string
}

func (m misplacedKey) String() string {
	at := strings.TrimPrefix(m.path, ".")
	if at == "" {
		at = "top level"
	}
	return fmt.Sprintf("%s: keys out of order: key %d is %q, the original has %q", at, m.index+1, m.gotKey, m.wantKey)
}

// firstKeyOutOfPlace walks want in document order to the first object whose
// keys got has in another order; members are paired by key, items by index.
func firstKeyOutOfPlace(want, got any, path string) (misplacedKey, bool) {
	switch w := want.(type) {
	case *Object:
		g, isObj := got.(*Object)
		if !isObj || w == nil || g == nil {
			return misplacedKey{}, false
		}
		wk, gk := keysOf(w), keysOf(g)
		if sameKeySet(wk, gk) {
			for i := range wk {
				if wk[i] != gk[i] {
					return misplacedKey{path, i, wk[i], gk[i]}, true
				}
			}
		}
		for _, f := range w.Fields {
			if gv, has := g.Get(f.Key); has {
				if m, ok := firstKeyOutOfPlace(f.Val, gv, path+"."+f.Key); ok {
					return m, true
				}
			}
		}
	case []any:
		g, isArr := got.([]any)
		if !isArr {
			return misplacedKey{}, false
		}
		for i := 0; i < len(w) && i < len(g); i++ {
			if m, ok := firstKeyOutOfPlace(w[i], g[i], fmt.Sprintf("%s[%d]", path, i)); ok {
				return m, true
			}
		}
	}
	return misplacedKey{}, false
}

func keysOf(o *Object) []string {
	keys := make([]string, len(o.Fields))
	for i, f := range o.Fields {
		keys[i] = f.Key
	}
	return keys
}

func sameKeySet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// plain turns this package's JSON values into values go-cmp shows readably:
// objects as maps (order is checked apart), numbers as json.Number text.
func plain(v any) any {
	switch x := v.(type) {
	case *Object:
		if x == nil {
			return nil
		}
		m := make(map[string]any, len(x.Fields))
		for _, f := range x.Fields {
			m[f.Key] = plain(f.Val)
		}
		return m
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = plain(e)
		}
		return out
	case Int:
		return json.Number(x)
	case Float:
		return json.Number(pyFloatRepr(float64(x)))
	}
	return v
}

func rowIDs(rows []any) []string {
	ids := make([]string, len(rows))
	for i, r := range rows {
		if o, ok := r.(*Object); ok {
			ids[i] = o.Str("id")
		}
	}
	return ids
}

// numbersEqual compares JSON numbers numerically (2 == 2.0, 1e+16 == 10000000000000000).
var numbersEqual = cmp.Comparer(func(a, b json.Number) bool {
	x, ok1 := new(big.Rat).SetString(string(a))
	y, ok2 := new(big.Rat).SetString(string(b))
	if !ok1 || !ok2 {
		return a == b
	}
	return x.Cmp(y) == 0
})

// The comparison sees key order: the original's first row with two of its
// keys swapped is reported with the session, the row and the keys.
func TestConformanceDiffReportsKeyOrder(t *testing.T) {
	const id = "local_0011000000"
	want, err := os.ReadFile(filepath.Join(conformanceDir, "expected", id+".json"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := ReadSessionDir(filepath.Join(conformanceDir, "sessions", id))
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.Marshal(loadFrame(LegacyView(s)))
	if err != nil {
		t.Fatal(err)
	}
	if d := conformanceDiff(id, want, got); d != "" {
		t.Fatalf("unswapped: %s", d)
	}
	swapped := swapKeys(t, want, 1, "role", "content")
	d := conformanceDiff(id, swapped, got)
	for _, part := range []string{id, "row 1", `"e65f53e9_reply"`, `"role"`, `"content"`, "out of order"} {
		if !strings.Contains(d, part) {
			t.Errorf("report lacks %s:\n%s", part, d)
		}
	}
}

// swapKeys returns the frame with keys a and b of chain row i exchanged.
func swapKeys(t *testing.T, frame []byte, i int, a, b string) []byte {
	t.Helper()
	v, err := ParseJSON(frame)
	if err != nil {
		t.Fatal(err)
	}
	row := v.(*Object).Val("chain").([]any)[i].(*Object)
	ia := slices.IndexFunc(row.Fields, func(f Field) bool { return f.Key == a })
	ib := slices.IndexFunc(row.Fields, func(f Field) bool { return f.Key == b })
	if ia < 0 || ib < 0 {
		t.Fatalf("row %d lacks %s or %s", i, a, b)
	}
	row.Fields[ia], row.Fields[ib] = row.Fields[ib], row.Fields[ia]
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
