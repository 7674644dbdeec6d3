package webui_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"sessiondag/impl/node"
	"sessiondag/impl/store"
	"sessiondag/impl/webui"
)

// calls stores code rows given as id → caller pairs, in order.
func calls(t testing.TB, pairs ...string) *store.Store {
	t.Helper()
	s := store.New("local_0000000000")
	for i := 0; i+1 < len(pairs); i += 2 {
		n := &node.Node{ID: pairs[i], Seq: -1, Role: node.RoleCode, Name: "f", CalledBy: pairs[i+1],
			CreatedAt: node.Num("1.5"), Input: node.NullV(), Output: node.Str("ok"), Reads: node.Arr(nil), Metadata: &node.Obj{}}
		if _, err := s.Append(n); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// shape is a tree as "id(child child …)".
func shape(v node.Value) string {
	if v.K != node.Object {
		return node.Dumps(v)
	}
	out := v.O.Get("path").Str()
	if kids := v.O.Get("children"); kids.K == node.Array {
		out += "("
		for i, k := range kids.A {
			if i > 0 {
				out += " "
			}
			out += shape(k)
		}
		out += ")"
	}
	return out
}

// TestTreeLeavesOutCycles (legacy §2.5, §6 #25): a child from which its
// parent is reached again lies on a cycle with it and is left out; what
// hangs below the cycle is still shown from the cycle's nodes.
func TestTreeLeavesOutCycles(t *testing.T) {
	// F → G → H → F is a ring; X and Y hang below H; S calls itself.
	s := calls(t, "F", "H", "G", "F", "H", "G", "X", "H", "Y", "X", "S", "S", "Z", "S")
	ti := webui.NewTreeIndex(s)
	for id, want := range map[string]string{
		"F": "F", "G": "G", "H": "H(X(Y))", "X": "X(Y)", "S": "S(Z)", "nowhere": "null",
	} {
		require.Equal(t, want, shape(ti.Tree(id)), "tree of %s", id)
	}
}

// TestTreeWithoutCycleIsWhole: with no cycle every node below the root is
// in its tree, in seq order.
func TestTreeWithoutCycleIsWhole(t *testing.T) {
	s := calls(t, "F", "ROOT", "G", "F", "H", "G", "I", "F", "J", "H")
	require.Equal(t, "F(G(H(J)) I)", shape(webui.NewTreeIndex(s).Tree("F")))
}

// TestTreesAreShared: the tree of a nested run is the one its caller's tree
// holds, not a copy.
func TestTreesAreShared(t *testing.T) {
	s := calls(t, "F1", "ROOT", "F2", "F1", "F3", "F2")
	ti := webui.NewTreeIndex(s)
	outer, inner := ti.Tree("F1"), ti.Tree("F2")
	require.Same(t, inner.O, outer.O.Get("children").A[0].O)
}

// nested is a run n functions deep: F0 called by ROOT, each next one by the
// one before.
func nested(t testing.TB, n int) *store.Store {
	pairs := []string{"F0", "ROOT"}
	for i := 1; i < n; i++ {
		pairs = append(pairs, fmt.Sprintf("F%d", i), fmt.Sprintf("F%d", i-1))
	}
	return calls(t, pairs...)
}

// TestTreeCostIsLinear: the trees of every node of a run nested n deep (what
// the cards of a fallback chain over it ask for) cost allocations linear in
// n: doubling n at most doubles them (and a bit). Built per card, as the
// original does, they would cost n²/2 nodes.
func TestTreeCostIsLinear(t *testing.T) {
	allocs := func(n int) float64 {
		s := nested(t, n)
		ids := make([]string, n)
		for i := range ids {
			ids[i] = fmt.Sprintf("F%d", i)
		}
		return testing.AllocsPerRun(3, func() {
			ti := webui.NewTreeIndex(s)
			for _, id := range ids {
				ti.Tree(id)
			}
		})
	}
	small, large := allocs(200), allocs(400)
	require.LessOrEqual(t, large/small, 2.2, "allocations %v at 200 deep, %v at 400", small, large)
}

// TestTreeOfACycleIsLinear: the same on one cycle of n rows.
func TestTreeOfACycleIsLinear(t *testing.T) {
	allocs := func(n int) float64 {
		pairs := []string{"C0", fmt.Sprintf("C%d", n-1)}
		for i := 1; i < n; i++ {
			pairs = append(pairs, fmt.Sprintf("C%d", i), fmt.Sprintf("C%d", i-1))
		}
		s := calls(t, pairs...)
		return testing.AllocsPerRun(3, func() {
			ti := webui.NewTreeIndex(s)
			for i := 0; i < n; i++ {
				ti.Tree(fmt.Sprintf("C%d", i))
			}
		})
	}
	small, large := allocs(200), allocs(400)
	require.LessOrEqual(t, large/small, 2.2, "allocations %v on a ring of 200, %v of 400", small, large)
}
