package render_test

// render_context at R (docs/legacy.md §3.3), with the scenarios §7
// lists for tests/agentic_programming/test_render_context.py: pure,
// seq-only, branch-unaware.

import (
	"testing"

	"github.com/stretchr/testify/require"

	"sessiondag/impl/node"
	"sessiondag/impl/render"
)

// n builds a node. expose is set only for code nodes when non-empty.
func n(id string, seq int64, role, calledBy, expose string) *node.Node {
	md := &node.Obj{}
	if expose != "" {
		md.Set("expose", node.Str(expose))
	}
	return &node.Node{ID: id, Seq: seq, Role: role, CalledBy: calledBy, Metadata: md,
		CreatedAt: node.Num("1.0"), Input: node.NullV(), Output: node.Str(""), Reads: node.Arr(nil)}
}

var all = render.NoRange

func rng(callers, subcalls int) render.Range {
	return render.Range{Callers: callers, Subcalls: subcalls}
}

// A plain top-level graph: two chat turns, no functions.
func chat() []*node.Node {
	return []*node.Node{
		n("u1", 0, "user", "", ""),
		n("a1", 1, "llm", "u1", ""),
		n("u2", 2, "user", "", ""),
		n("a2", 3, "llm", "u2", ""),
	}
}

func TestTopLevelReturnsEverythingBySeq(t *testing.T) {
	g := chat()
	require.Equal(t, []string{"u1", "a1", "u2", "a2"}, render.Context(g, -1, -1, all))
	// Insertion order does not matter: output is by seq.
	shuffled := []*node.Node{g[3], g[1], g[0], g[2]}
	require.Equal(t, []string{"u1", "a1", "u2", "a2"}, render.Context(shuffled, -1, -1, all))
}

func TestHeadSeqCaps(t *testing.T) {
	require.Equal(t, []string{"u1", "a1"}, render.Context(chat(), 1, -1, all))
	require.Equal(t, []string{"u1"}, render.Context(chat(), 0, -1, all))
	require.Equal(t, []string{"u1", "a1", "u2"}, render.Context(chat(), 2, -1, all))
}

func TestEmptyGraph(t *testing.T) {
	require.Empty(t, render.Context(nil, -1, -1, all))
	require.Empty(t, render.Context([]*node.Node{}, 5, -1, all))
}

// A frame: a function F (expose full, so its llm internals are not hidden by
// expose) entered at seq 2; pre-frame u1 a1, in-frame x1 x2 x3.
func framed() []*node.Node {
	return []*node.Node{
		n("u0", 0, "user", "", ""),
		n("u1", 1, "user", "", ""),
		n("F", 2, "code", "u1", "full"),
		n("x1", 3, "llm", "F", ""),
		n("x2", 4, "code", "F", "full"),
		n("x3", 5, "llm", "F", ""),
	}
}

const entry = 2

func TestInFrameVisibleByDefault(t *testing.T) {
	require.Equal(t, []string{"u0", "u1", "F", "x1", "x2", "x3"}, render.Context(framed(), -1, entry, all))
}

func TestSubcallsZeroHidesInFrame(t *testing.T) {
	require.Equal(t, []string{"u0", "u1", "F"}, render.Context(framed(), -1, entry, rng(-1, 0)))
}

func TestSubcallsMinusOneShowsAll(t *testing.T) {
	require.Equal(t, []string{"u0", "u1", "F", "x1", "x2", "x3"}, render.Context(framed(), -1, entry, rng(-1, -1)))
}

func TestCallersZeroIsolatesFrame(t *testing.T) {
	require.Equal(t, []string{"x1", "x2", "x3"}, render.Context(framed(), -1, entry, rng(0, -1)))
}

func TestCallersNKeepsLastNPreFrame(t *testing.T) {
	require.Equal(t, []string{"F", "x1", "x2", "x3"}, render.Context(framed(), -1, entry, rng(1, -1)))
	require.Equal(t, []string{"u1", "F", "x1", "x2", "x3"}, render.Context(framed(), -1, entry, rng(2, -1)))
	require.Equal(t, []string{"u0", "u1", "F", "x1", "x2", "x3"}, render.Context(framed(), -1, entry, rng(10, -1)))
}

func TestSubcallsNKeepsNewestNInFrame(t *testing.T) {
	require.Equal(t, []string{"u0", "u1", "F", "x3"}, render.Context(framed(), -1, entry, rng(-1, 1)))
	require.Equal(t, []string{"u0", "u1", "F", "x2", "x3"}, render.Context(framed(), -1, entry, rng(-1, 2)))
	require.Equal(t, []string{"x2", "x3"}, render.Context(framed(), -1, entry, rng(0, 2)))
}

func TestHeadSeqAppliesInsideFrame(t *testing.T) {
	require.Equal(t, []string{"u0", "u1", "F", "x1", "x2"}, render.Context(framed(), 4, entry, all))
	require.Equal(t, []string{"x1"}, render.Context(framed(), 3, entry, rng(0, -1)))
	require.Equal(t, []string{"x2"}, render.Context(framed(), 4, entry, rng(0, 1)))
}

func TestIOFunctionHidesItsInternalLLMButNotItself(t *testing.T) {
	g := []*node.Node{
		n("u1", 0, "user", "", ""),
		n("F", 1, "code", "u1", "io"),
		n("Fx", 2, "llm", "F", ""),
		n("a1", 3, "llm", "u1", ""),
	}
	require.Equal(t, []string{"u1", "F", "a1"}, render.Context(g, -1, -1, all))
	// expose absent = io.
	g[1] = n("F", 1, "code", "u1", "")
	require.Equal(t, []string{"u1", "F", "a1"}, render.Context(g, -1, -1, all))
}

func TestFullKeepsInternals(t *testing.T) {
	g := []*node.Node{
		n("u1", 0, "user", "", ""),
		n("F", 1, "code", "u1", "full"),
		n("Fx", 2, "llm", "F", ""),
		n("a1", 3, "llm", "u1", ""),
	}
	require.Equal(t, []string{"u1", "F", "Fx", "a1"}, render.Context(g, -1, -1, all))
}

func TestIOOnlyHidesItsOwnInternals(t *testing.T) {
	g := []*node.Node{
		n("u1", 0, "user", "", ""),
		n("F", 1, "code", "u1", "io"),
		n("Fx", 2, "llm", "F", ""),
		n("G", 3, "code", "F", "full"), // a nested function of F: code, not hidden by F
		n("Gx", 4, "llm", "G", ""),     // G's own internal: G is full
		n("Hx", 5, "llm", "H", ""),     // caller not in the graph
		n("a1", 6, "llm", "u1", ""),
	}
	require.Equal(t, []string{"u1", "F", "G", "Gx", "Hx", "a1"}, render.Context(g, -1, -1, all))
}

func TestLLMExposeHidesTheFunctionAndItsCodeChildren(t *testing.T) {
	g := []*node.Node{
		n("u1", 0, "user", "", ""),
		n("F", 1, "code", "u1", "llm"),
		n("Fx", 2, "llm", "F", ""),
		n("G", 3, "code", "F", "full"),
		n("a1", 4, "llm", "u1", ""),
	}
	// §3.3: llm-owner nodes themselves and code nodes they call are dropped;
	// their llm nodes are not.
	require.Equal(t, []string{"u1", "Fx", "a1"}, render.Context(g, -1, -1, all))
}

func TestOwnerTrimmedByCallersNoLongerHides(t *testing.T) {
	g := []*node.Node{
		n("u1", 0, "user", "", ""),
		n("F", 1, "code", "u1", "io"),
		n("Fx", 2, "llm", "F", ""),
	}
	// Frame entered at seq 1 with callers 0: F is not in the chain, so its
	// internal Fx is no longer hidden.
	require.Equal(t, []string{"Fx"}, render.Context(g, -1, 1, rng(0, -1)))
}
