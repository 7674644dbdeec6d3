package history_test

// The pure DAG helpers of docs/legacy.md §3.1, with the scenarios §7
// lists for tests/unit/test_contextgit_dag.py at R, and get_branch (§3.2).
// Message lists are built the way the store builds them: a message dict goes
// through adapter.FromMessage (append_message) and comes back through
// adapter.ToMessage (every read).

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"sessiondag/impl/adapter"
	"sessiondag/impl/history"
	"sessiondag/impl/node"
	"sessiondag/impl/store"
)

const sid = "s1"

// absent marks a message without a parent_id key; null an explicit null.
const (
	absent = "\x00absent"
	null   = "\x00null"
)

type m struct {
	id, role, parent string
}

// build turns message dicts into the messages a reader sees, seq = list
// position.
func build(t *testing.T, specs ...m) []*adapter.Message {
	t.Helper()
	out := make([]*adapter.Message, 0, len(specs))
	for i, sp := range specs {
		o := &node.Obj{}
		o.Set("id", node.Str(sp.id))
		o.Set("role", node.Str(sp.role))
		o.Set("content", node.Str("text of "+sp.id))
		switch sp.parent {
		case absent:
		case null:
			o.Set("parent_id", node.NullV())
		default:
			o.Set("parent_id", node.Str(sp.parent))
		}
		n := adapter.FromMessage(o, func() string { t.Fatal("every message has an id"); return "" },
			node.Num(strconv.Itoa(1782000000+i)))
		n.Seq = int64(i)
		out = append(out, adapter.ToMessage(sid, n, nil))
	}
	return out
}

// turns is the conversation u1 → a1 → u2 → a2 with more appended: the
// chain the tests of siblings and walks branch off.
func turns(more ...m) []m {
	return append([]m{{"u1", "user", absent}, {"a1", "assistant", "u1"}, {"u2", "user", "a1"}, {"a2", "assistant", "u2"}},
		more...)
}

// rootUser is a web user message as the store reads it back: called_by
// ROOT and no parent_id key, so its parent_id reads "ROOT".
func rootUser(id string, seq int64) *adapter.Message {
	n := &node.Node{ID: id, Seq: seq, Role: node.RoleUser, Output: node.Str(id), CalledBy: node.RootID,
		CreatedAt: node.Num("1.0"), Input: node.NullV(), Reads: node.Arr(nil), Metadata: &node.Obj{}}
	return adapter.ToMessage(sid, n, nil)
}

func fam(ms []*adapter.Message) *history.Family { return history.NewFamily(ms, history.ParentKey) }

// ---- siblings --------------------------------------------------------------

func TestSiblingsIncludeSelfInListOrder(t *testing.T) {
	ms := build(t,
		m{"u1", "user", absent},
		m{"a1", "assistant", "u1"},
		m{"a1b", "assistant", "u1"},
		m{"u2", "user", "a1"},
		m{"a1c", "assistant", "u1"},
	)
	f := fam(ms)
	for _, id := range []string{"a1", "a1b", "a1c"} {
		require.Equal(t, []string{"a1", "a1b", "a1c"}, f.Siblings(id), "siblings of %s include itself, in list order", id)
	}
	require.Equal(t, []string{"u2"}, f.Siblings("u2"), "an only child is its own sibling")

	i, n := f.SiblingIndex("a1")
	require.Equal(t, [2]int{1, 3}, [2]int{i, n}, "1-based index")
	i, n = f.SiblingIndex("a1b")
	require.Equal(t, [2]int{2, 3}, [2]int{i, n})
	i, n = f.SiblingIndex("a1c")
	require.Equal(t, [2]int{3, 3}, [2]int{i, n})
	i, n = f.SiblingIndex("u2")
	require.Equal(t, [2]int{1, 1}, [2]int{i, n})

	require.Equal(t, "a1c", f.SiblingID("a1", 3))
	require.Equal(t, "a1", f.SiblingID("a1c", 1))
}

func TestSiblingIndexUnknown(t *testing.T) {
	f := fam(build(t, turns()[:2]...))
	i, n := f.SiblingIndex("nope")
	require.Equal(t, [2]int{0, 0}, [2]int{i, n})
	i, n = fam(nil).SiblingIndex("nope")
	require.Equal(t, [2]int{0, 0}, [2]int{i, n})
}

func TestParentlessMessagesAreMutualSiblings(t *testing.T) {
	// No parent_id key: the user message reads parent_id = called_by = "".
	ms := build(t, m{"r1", "user", absent}, m{"a", "assistant", "r1"}, m{"r2", "user", absent})
	require.Equal(t, "", ms[0].Get("parent_id").Str())
	require.Equal(t, node.String, ms[0].Get("parent_id").K)
	f := fam(ms)
	require.Equal(t, []string{"r1", "r2"}, f.Siblings("r1"))
	i, n := f.SiblingIndex("r2")
	require.Equal(t, [2]int{2, 2}, [2]int{i, n})

	// Explicit null parents (None == None) group as well.
	ms = build(t, m{"x", "user", null}, m{"y", "user", null})
	require.Equal(t, node.Null, ms[0].Get("parent_id").K)
	f = fam(ms)
	require.Equal(t, []string{"x", "y"}, f.Siblings("y"))
	i, n = f.SiblingIndex("x")
	require.Equal(t, [2]int{1, 2}, [2]int{i, n})
}

func TestRootParentedUsersAreSiblings(t *testing.T) {
	// Web/dispatcher chain roots read parent_id "ROOT" ("ROOT" == "ROOT").
	ms := []*adapter.Message{rootUser("u1", 0), rootUser("u2", 1)}
	require.Equal(t, "ROOT", ms[0].Get("parent_id").Str())
	require.Equal(t, []string{"u1", "u2"}, fam(ms).Siblings("u2"))
}

func TestChildrenOrdered(t *testing.T) {
	// The children of p are the messages whose parent_id is p, in list
	// order, whatever sits between them.
	ms := build(t,
		m{"p", "user", absent},
		m{"c1", "assistant", "p"},
		m{"x", "user", "c1"},
		m{"c2", "assistant", "p"},
		m{"y", "assistant", "x"},
		m{"c3", "assistant", "p"},
	)
	require.Equal(t, []string{"c1", "c2", "c3"}, fam(ms).Siblings("c2"))
}

// ---- linear_history --------------------------------------------------------

func TestLinearWalksChainExcludingSiblings(t *testing.T) {
	ms := build(t, turns(m{"a2b", "assistant", "u2"})...)
	require.Equal(t, []string{"u1", "a1", "u2", "a2"}, adapter.IDs(history.Linear(ms, "a2", history.ParentEdge)))
	require.Equal(t, []string{"u1", "a1", "u2", "a2b"}, adapter.IDs(history.Linear(ms, "a2b", history.ParentEdge)))
	require.Equal(t, []string{"u1", "a1"}, adapter.IDs(history.Linear(ms, "a1", history.ParentEdge)))
}

func TestLinearFollowsRetryBranchOfHead(t *testing.T) {
	ms := build(t, turns(
		m{"u2r", "user", "a1"}, // retry of u2: same parent
		m{"a2r", "assistant", "u2r"},
	)...)
	require.Equal(t, []string{"u1", "a1", "u2r", "a2r"}, adapter.IDs(history.Linear(ms, "a2r", history.ParentEdge)))
	require.Equal(t, []string{"u1", "a1", "u2", "a2"}, adapter.IDs(history.Linear(ms, "a2", history.ParentEdge)))
}

func TestLinearUnknownHead(t *testing.T) {
	ms := build(t, turns()[:2]...)
	require.Empty(t, history.Linear(ms, "nope", history.ParentEdge))
	require.Empty(t, history.Linear(ms, "", history.ParentEdge))
	require.Empty(t, history.Linear(nil, "u1", history.ParentEdge))
}

func TestLinearStopsAtRootString(t *testing.T) {
	// "ROOT" is not a message: the walk ends there, no special case.
	ms := append([]*adapter.Message{rootUser("u1", 0)}, build(t, m{"a1", "assistant", "u1"})...)
	require.Equal(t, []string{"u1", "a1"}, adapter.IDs(history.Linear(ms, "a1", history.ParentEdge)))
}

func TestLinearCyclesTerminate(t *testing.T) {
	ms := build(t,
		m{"a", "assistant", "c"},
		m{"b", "assistant", "a"},
		m{"c", "assistant", "b"},
		m{"d", "assistant", "c"},
	)
	got := adapter.IDs(history.Linear(ms, "b", history.ParentEdge))
	require.LessOrEqual(t, len(got), len(ms))
	require.ElementsMatch(t, []string{"a", "b", "c"}, got, "each cycle member once")
	require.Equal(t, "b", got[len(got)-1], "the head is last")
	require.Equal(t, []string{"c", "a", "b"}, got, "root first: the walk b→a→c stops at the revisit of b")

	self := build(t, m{"s", "assistant", "s"})
	require.Equal(t, []string{"s"}, adapter.IDs(history.Linear(self, "s", history.ParentEdge)))

	got = adapter.IDs(history.Linear(ms, "d", history.ParentEdge))
	require.LessOrEqual(t, len(got), len(ms))
	require.Equal(t, "d", got[len(got)-1])
}

func TestLinearDuplicateIDsLastWins(t *testing.T) {
	ms := build(t,
		m{"p1", "user", absent},
		m{"p2", "user", absent},
		m{"x", "assistant", "p1"},
		m{"x", "assistant", "p2"},
	)
	require.Equal(t, []string{"p2", "x"}, adapter.IDs(history.Linear(ms, "x", history.ParentEdge)))
}

// ---- deepest_leaf ----------------------------------------------------------

func TestDeepestLeaf(t *testing.T) {
	ms := build(t,
		m{"r", "user", absent},
		m{"c1", "assistant", "r"},
		m{"c2", "assistant", "r"},
		m{"d", "user", "c2"},
		m{"e", "user", "c1"}, // a later child of an earlier branch
		m{"f", "assistant", "d"},
	)
	f := fam(ms)
	require.Equal(t, "f", f.DeepestLeaf("r"), "repeatedly the last child: r→c2→d→f")
	require.Equal(t, "e", f.DeepestLeaf("c1"))
	require.Equal(t, "f", f.DeepestLeaf("f"), "a leaf is itself")
	require.Equal(t, "e", f.DeepestLeaf("e"))
}

// TestDeepestLeafOnACycle: deepest_leaf returns a leaf only when it reaches
// one; on a repeat it gives back the id it started from. a → b → c → b
// through the children relation (parent_id; b is stored twice, as a
// corrupt rebuild keeps both), so the walk from a meets b again.
func TestDeepestLeafOnACycle(t *testing.T) {
	ms := build(t, m{"a", "user", "ROOT"}, m{"b", "assistant", "a"}, m{"c", "user", "b"}, m{"b", "assistant", "c"})
	require.Equal(t, "a", fam(ms).DeepestLeaf("a"))
	require.Equal(t, "c", fam(ms).DeepestLeaf("c"), "c → b → c: back to c")
	ring := build(t, m{"a", "assistant", "b"}, m{"b", "assistant", "a"})
	require.Equal(t, "a", fam(ring).DeepestLeaf("a"))
	require.Equal(t, "b", fam(ring).DeepestLeaf("b"))
	self := build(t, m{"s", "assistant", "s"})
	require.Equal(t, "s", fam(self).DeepestLeaf("s"))
	require.Equal(t, "nope", fam(ms).DeepestLeaf("nope"), "an unknown id is given back")
}

// ---- get_branch (§3.2) -----------------------------------------------------

type nd struct {
	id, role, calledBy, parent string
}

func storeOf(t *testing.T, nodes ...nd) *store.Store {
	t.Helper()
	s := store.New(sid)
	for _, x := range nodes {
		md := &node.Obj{}
		if x.id == node.RootID {
			md.Set("display", node.Str("root"))
		}
		if x.parent != "" {
			md.Set("parent_id", node.Str(x.parent))
		}
		_, err := s.Append(&node.Node{ID: x.id, Seq: -1, Role: x.role, CalledBy: x.calledBy, Metadata: md,
			CreatedAt: node.Num("1.0"), Input: node.NullV(), Output: node.Str(""), Reads: node.Arr(nil)})
		require.NoError(t, err)
	}
	return s
}

func TestBranchRules(t *testing.T) {
	s := storeOf(t,
		nd{"ROOT", "user", "", ""},
		nd{"F1", "code", "ROOT", ""},
		nd{"F2", "code", "ROOT", ""},
		nd{"u1", "user", "ROOT", ""},
		nd{"a1", "llm", "u1", "u1"},
		nd{"t1", "code", "a1", ""},
		nd{"G", "code", "a1", ""},
		nd{"Gx", "llm", "G", ""},
	)
	// Rule 1 then rule 3 (F2 has no conv children, nor has F1).
	require.Equal(t, []string{"F1", "F2", "u1", "a1"}, adapter.IDs(history.Branch(s, "a1")))
	// Rule 2: a tool or function-internal head climbs the call chain.
	require.Equal(t, []string{"F1", "F2", "u1", "a1", "t1"}, adapter.IDs(history.Branch(s, "t1")))
	require.Equal(t, []string{"F1", "F2", "u1", "a1", "G", "Gx"}, adapter.IDs(history.Branch(s, "Gx")))
	// Unknown head → [].
	require.Empty(t, history.Branch(s, "nope"))
	// ROOT is walked past but never shown; an empty head means the index head
	// (the last caller-less append: ROOT here).
	require.Empty(t, history.Branch(s, ""))
}

func TestBranchRule3StopsAtRootWithConvChildren(t *testing.T) {
	s := storeOf(t,
		nd{"u1", "user", "ROOT", ""},
		nd{"a1", "llm", "u1", "u1"},
		nd{"u2", "user", "ROOT", ""},
		nd{"a2", "llm", "u2", "u2"},
	)
	require.Equal(t, []string{"u2", "a2"}, adapter.IDs(history.Branch(s, "a2")))
}

// TestDeepestLeafAnswersDoNotDependOnOrder: one family asked for the
// deepest leaf of every id, in any order (its answers are kept and reused
// along later walks), answers as a fresh family asked once per id, on
// parent graphs with repeated ids, cycles and dangling parents.
func TestDeepestLeafAnswersDoNotDependOnOrder(t *testing.T) {
	for seed := 0; seed < 500; seed++ {
		rng := rand.New(rand.NewPCG(uint64(seed), 1))
		next := rng.IntN
		var specs []m
		for i := 0; i < 2+next(14); i++ {
			parent := absent
			switch k := next(10); {
			case k < 8:
				parent = "n" + strconv.Itoa(next(8))
			case k < 9:
				parent = "gone"
			}
			specs = append(specs, m{id: "n" + strconv.Itoa(next(8)), role: "user", parent: parent})
		}
		msgs := build(t, specs...)
		key := history.ParentKey
		shared := history.NewFamily(msgs, key)
		for k := 0; k < 30; k++ {
			id := "n" + strconv.Itoa(next(9))
			require.Equal(t, history.NewFamily(msgs, key).DeepestLeaf(id), shared.DeepestLeaf(id), "seed %d, %v, id %s", seed, specs, id)
		}
	}
}

// TestReachableFrom: from the rows a browser shows, the sibling arrows
// reach every member of a group holding a shown row and everything below
// it; a conversation whose root is in a group of its own (an explicit null
// parent where the shown roots have "ROOT") is out of reach, and so is a
// cycle that never meets a shown group.
func TestReachableFrom(t *testing.T) {
	ms := build(t,
		m{"u1", "user", "ROOT"},
		m{"a1", "assistant", "u1"},
		m{"u2", "user", "a1"},
		m{"x1", "user", "a1"}, // a retry: u2's sibling
		m{"x2", "assistant", "x1"},
		m{"f1", "user", "ROOT"}, // a fork at the root
		m{"g1", "assistant", "f1"},
		m{"n1", "user", null}, // a conversation of its own
		m{"n2", "assistant", "n1"},
		m{"c1", "user", "c2"},
		m{"c2", "user", "c1"},
	)
	f := fam(ms)
	shown := []*adapter.Message{ms[5], ms[6]} // the fork: f1, g1
	reach := f.ReachableFrom(shown)
	for _, id := range []string{"f1", "g1", "u1", "a1", "u2", "x1", "x2"} {
		require.True(t, reach(id), id)
	}
	for _, id := range []string{"n1", "n2", "c1", "c2", "nowhere"} {
		require.False(t, reach(id), id)
	}
	reach = f.ReachableFrom(ms[7:9]) // n1's conversation shown
	require.True(t, reach("n2"))
	require.False(t, reach("u1"), "the ROOT group is not shown")
}
