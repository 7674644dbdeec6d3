package robust

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"sessiondag/audit"
	"sessiondag/impl/adapter"
	"sessiondag/impl/flags"
	"sessiondag/impl/node"
	"sessiondag/impl/store"
	"sessiondag/impl/webui"
	"sessiondag/internal/jsonstream"
)

// smallSize is the size a test builds a tree at: a tenth of the first of
// its growth series, at least 20.
func smallSize(t Tree) int {
	switch {
	case len(t.Growth) > 0:
		return max(t.Growth[0]/10, 20)
	case t.Size > 0:
		return min(t.Size, 200)
	}
	return 0
}

// TestHostileTrees: every hostile tree, at a small size, opens within a
// time limit (nothing blocks on a FIFO) with exactly the problem its table
// says (or none), loads under off and all into views that are valid UTF-8
// JSON, and audits without an error; a tree with a problem is not judged
// ready, and one a step shows less of is judged a regression saying so.
func TestHostileTrees(t *testing.T) {
	for _, tr := range Trees() {
		t.Run(tr.Name, func(t *testing.T) {
			t.Parallel()
			dir, err := tr.Build(t.TempDir(), smallSize(tr))
			if err != nil {
				t.Fatal(err)
			}
			var s *store.Store
			within(t, 20*time.Second, "open", func() { s, err = store.Open(dir) })
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case tr.Problem == "" && len(s.Problems) > 0:
				t.Fatalf("problems %v, want none", s.Problems)
			case tr.Problem != "" && (len(s.Problems) != 1 || !strings.Contains(s.Problems[0].Error(), tr.Problem)):
				t.Fatalf("problems %v, want one saying %q", s.Problems, tr.Problem)
			}
			for _, fl := range []flags.Set{flags.Off, flags.All} {
				validView(t, webui.Views(s, fl))
			}
			var rep *audit.Session
			within(t, 20*time.Second, "audit", func() { rep = audit.One(dir) })
			if rep.Error != "" {
				t.Fatalf("audit: %s", rep.Error)
			}
			if tr.Problem != "" && !rep.Failed() {
				t.Errorf("the audit judges a session with a problem: %+v", rep.Violations)
			}
			regression := ""
			for _, st := range rep.Steps {
				if st.Verdict == audit.Regression {
					regression += st.Detail
				}
			}
			switch {
			case tr.Regression != "" && !strings.Contains(regression, tr.Regression):
				t.Errorf("the audit finds no regression saying %q (it says %q)", tr.Regression, regression)
			case tr.Problem == "" && tr.Regression == "" && rep.Failed():
				t.Errorf("the audit fails a session without a problem: %v %s", rep.Violations, regression)
			}
		})
	}
}

// validView checks that a view is written as valid UTF-8 JSON.
func validView(t *testing.T, v any) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	if _, err := jsonstream.Check(bytes.NewReader(b)); err != nil {
		t.Fatalf("the view is not UTF-8 JSON: %v", err)
	}
}

func buildTree(t *testing.T, name string, n int) (string, *store.Store) {
	t.Helper()
	tr, ok := TreeNamed(name)
	if !ok {
		t.Fatalf("no tree %s", name)
	}
	dir, err := tr.Build(t.TempDir(), n)
	if err != nil {
		t.Fatal(err)
	}
	s, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return dir, s
}

// TestLoneSurrogateIDsStayApart: two users whose ids are different lone
// surrogates keep their own replies (Python's json.loads keeps the two
// strings apart): four rows, each reply right after its own user.
func TestLoneSurrogateIDsStayApart(t *testing.T) {
	_, s := buildTree(t, "lone-surrogates", 0)
	chain := webui.Load(s, flags.Off).Chain
	if len(chain) != 4 {
		t.Fatalf("chain %v, want 4 rows", adapter.IDs(chain))
	}
	u0, u1 := chain[0].ID, chain[2].ID
	if u0 == u1 || chain[1].ParentID() != u0 || chain[3].ParentID() != u1 {
		t.Fatalf("rows %q with parents %q %q: each reply must follow its own user", adapter.IDs(chain), chain[1].ParentID(), chain[3].ParentID())
	}
	b, _ := json.Marshal(webui.Views(s, flags.Off))
	if !bytes.Contains(b, []byte(`"\ud800"`)) || !bytes.Contains(b, []byte(`"\ud801"`)) {
		t.Errorf("the view does not write the ids as their escapes")
	}
}

// TestLinkToNodeFileReadOnce: a link in history/ to another node file
// adds no node.
func TestLinkToNodeFileReadOnce(t *testing.T) {
	for _, name := range []string{"link-dup", "hardlink-dup"} {
		dir, s := buildTree(t, name, 0)
		entries, _ := os.ReadDir(filepath.Join(dir, "history"))
		if s.Len() != len(entries)-1 {
			t.Errorf("%s: %d nodes from %d files, one of them a second name", name, s.Len(), len(entries))
		}
	}
}

// TestInFlightTemporaryFile: a young temporary file is a write in progress,
// said in Notes, and the audit does not fail the session for it.
func TestInFlightTemporaryFile(t *testing.T) {
	dir, s := buildTree(t, "tmp-in-flight", 0)
	if len(s.Notes) != 1 || !strings.Contains(s.Notes[0], "write in progress") {
		t.Fatalf("notes %v", s.Notes)
	}
	if rep := audit.One(dir); rep.Failed() {
		t.Fatalf("the audit fails a live session for its write in progress: %v", rep.Violations)
	}
}

// TestCardTreesStayLinear: on a nested run with the head on its innermost
// function every chain row becomes a card; the trees share their subtrees
// (memory linear in the depth), and on a cycle each card holds one node.
func TestCardTreesStayLinear(t *testing.T) {
	_, s := buildTree(t, "nested-manual", 50)
	chain := webui.Load(s, flags.Off).Chain
	var cards []node.Value
	for _, m := range chain {
		if tree := m.Get("context_tree"); tree.K == node.Object {
			cards = append(cards, tree)
		}
	}
	if len(cards) != 50 {
		t.Fatalf("%d cards, want 50", len(cards))
	}
	if inner := cards[0].O.Get("children").A[0]; inner.O != cards[1].O {
		t.Errorf("the tree of the second card is not the one the first card holds")
	}
	_, s = buildTree(t, "caller-cycle", 50)
	for _, m := range webui.Load(s, flags.Off).Chain {
		if tree := m.Get("context_tree"); tree.K == node.Object && tree.O.Has("children") {
			t.Fatalf("a card of a cycle row holds the cycle: %s", node.Dumps(tree))
		}
	}
}

// TestAuditMemoryStaysLinear: the bytes the audit allocates on each tree
// that grows by rows at most 2.5 times at twice the rows. Allocation is
// counted, not timed, so a busy machine does not move it; a rule that asks
// lane.Anchor per removed row on a called_by cycle made it 3.9×.
func TestAuditMemoryStaysLinear(t *testing.T) {
	for _, tr := range Trees() {
		if len(tr.Growth) == 0 || tr.Growth[0] > 5000 {
			continue // only trees that grow by rows, at sizes that stay cheap
		}
		t.Run(tr.Name, func(t *testing.T) {
			var b [2]uint64
			for i, n := range []int{200, 400} {
				dir, _ := buildTree(t, tr.Name, n)
				b[i] = allocated(func() { audit.One(dir) })
			}
			if r := float64(b[1]) / float64(b[0]); r > 2.5 {
				t.Errorf("the audit allocated %d bytes at 200 rows and %d at 400: %.2f× per doubling", b[0], b[1], r)
			}
		})
	}
}

// allocated is the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}
