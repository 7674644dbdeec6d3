package webui

import (
	"sessiondag/impl/adapter"
	"sessiondag/impl/node"
	"sessiondag/impl/store"
)

// TreeIndex answers the execution trees of runtime cards (legacy §2.5) from
// the store's own indexes: a node's children are the nodes whose called_by
// is its id, in append order, which is seq order (a cold load appends by
// seq). One index serves one load: the tree of a node does not depend on
// the card it is shown in, so each is built once and shared by every tree
// that holds it (a run nested n deep gives n cards whose trees hold 1 … n
// nodes: built once, they cost n, not n²/2). Values are never changed once
// built.
//
// The original recurses without a guard and fails on a called_by cycle;
// here a child from which its parent can be reached again (the two lie on
// one cycle: the same strongly connected component of the call graph over
// ids) is left out. Where there is no cycle nothing is left out, and on a
// cycle every tree stays as small as the nodes below it that are not on it,
// which keeps a tree independent of the path that reached it.
type TreeIndex struct {
	s    *store.Store
	memo map[*node.Node]node.Value
	// The call graph over ids explored so far, for Tarjan's algorithm:
	// vertex numbers by id, and per vertex its index, low link, component
	// (-1 while open) and whether it is on the stack.
	vertex map[string]int32
	v      []vertexState
	comps  int32 // components found so far
}

type vertexState struct {
	index, low, comp int32
	open             bool
}

// NewTreeIndex returns the tree index of a session.
func NewTreeIndex(s *store.Store) *TreeIndex { return &TreeIndex{s: s} }

// Tree is the execution tree rooted at id; null for an unknown id.
func (t *TreeIndex) Tree(id string) node.Value {
	n, ok := t.s.Get(id)
	if !ok {
		return node.NullV()
	}
	return t.tree(n)
}

// treeOf is Tree of a row's id, found by the row's position when it has one.
func (t *TreeIndex) treeOf(row *adapter.Message) node.Value {
	if nodes := t.s.Nodes(); row.Pos >= 0 && int(row.Pos) < len(nodes) && t.s.UniqueIDs() && nodes[row.Pos].ID == row.ID {
		return t.tree(nodes[row.Pos])
	}
	return t.Tree(row.ID)
}

// tree builds (once) the tree of root and of every node below it, children
// before parents, without recursion: a run may nest as deep as a session is
// long.
func (t *TreeIndex) tree(root *node.Node) node.Value {
	if v, ok := t.memo[root]; ok {
		return v
	}
	if t.memo == nil {
		t.memo = make(map[*node.Node]node.Value)
		t.vertex = make(map[string]int32)
	}
	t.components(root.ID)
	type frame struct {
		n    *node.Node
		kids []*node.Node
		next int
	}
	stack := []frame{{n: root, kids: t.s.CallChildren(root.ID)}}
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if f.next < len(f.kids) {
			k := f.kids[f.next]
			f.next++
			if _, done := t.memo[k]; !done && !t.sameComp(f.n, k) {
				stack = append(stack, frame{n: k, kids: t.s.CallChildren(k.ID)})
			}
			continue
		}
		var arr []node.Value
		for _, k := range f.kids {
			if !t.sameComp(f.n, k) {
				arr = append(arr, t.memo[k])
			}
		}
		t.memo[f.n] = treeNode(f.n, arr)
		stack = stack[:len(stack)-1]
	}
	return t.memo[root]
}

func (t *TreeIndex) sameComp(parent, kid *node.Node) bool {
	return t.v[t.vertex[parent.ID]].comp == t.v[t.vertex[kid.ID]].comp
}

// components assigns every id reachable from id by call edges its strongly
// connected component (Tarjan's algorithm, iteratively). Ids that already
// have one were finished by an earlier call and are not entered again.
func (t *TreeIndex) components(id string) {
	if _, ok := t.vertex[id]; ok {
		return
	}
	type frame struct {
		v    int32
		kids []*node.Node
		next int
	}
	var order []int32 // Tarjan's stack of open vertices
	enter := func(id string) frame {
		v := int32(len(t.v))
		t.vertex[id] = v
		t.v = append(t.v, vertexState{index: v, low: v, comp: -1, open: true})
		order = append(order, v)
		return frame{v: v, kids: t.s.CallChildren(id)}
	}
	stack := []frame{enter(id)}
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if f.next < len(f.kids) {
			k := f.kids[f.next].ID
			f.next++
			w, seen := t.vertex[k]
			switch {
			case !seen:
				stack = append(stack, enter(k))
			case t.v[w].open:
				t.v[f.v].low = min(t.v[f.v].low, t.v[w].index)
			}
			continue
		}
		if st := &t.v[f.v]; st.low == st.index {
			for {
				x := order[len(order)-1]
				order = order[:len(order)-1]
				t.v[x].open, t.v[x].comp = false, t.comps
				if x == f.v {
					break
				}
			}
			t.comps++
		}
		done := f.v
		stack = stack[:len(stack)-1]
		if len(stack) > 0 {
			p := stack[len(stack)-1].v
			t.v[p].low = min(t.v[p].low, t.v[done].low)
		}
	}
}

// treeNode is the tree of n with the given children's trees.
func treeNode(n *node.Node, children []node.Value) node.Value {
	// Every key is set once: members are appended, not looked up.
	o := node.NewObj(9)
	add := func(k string, v node.Value) { o.M = append(o.M, node.Member{Key: k, Val: v}) }
	add("path", node.Str(n.ID))
	name := n.Name
	if name == "" {
		name = n.Role
	}
	if name == "" {
		name = "node"
	}
	add("name", node.Str(name))
	status := n.Meta("status")
	if !status.Truthy() {
		status = node.Str("completed")
	}
	add("status", status)
	if ms, ok := durationMS(n.Meta("duration_seconds")); ok {
		add("duration_ms", ms)
	}
	if status.K == node.String && status.S == "error" {
		switch {
		case n.Output.Truthy():
			add("error", node.Str(node.PyStr(n.Output)))
		case n.Meta("error").Truthy():
			add("error", node.Str(node.PyStr(n.Meta("error"))))
		default:
			add("error", node.Str(""))
		}
	}
	if n.Role == node.RoleLLM {
		add("node_type", node.Str("exec"))
		p := &node.Obj{M: []node.Member{{Key: "_content", Val: node.Str(asText(n.Input))}}}
		add("params", node.ObjV(p))
		add("raw_reply", node.Str(asText(n.Output)))
	} else {
		if n.Input.K == node.Object {
			p := n.Input.O.Clone()
			p.Delete("runtime")
			p.Delete("callback")
			add("params", node.ObjV(p))
		}
		out := n.Output
		if out.K != node.String {
			out = node.Str(node.Dumps(n.Output))
		}
		add("output", out)
	}
	if len(children) > 0 {
		add("children", node.Arr(children))
	}
	return node.ObjV(o)
}

// asText renders an exec node's input or output: none → "", a string as
// is, containers as JSON, other scalars as Python's str().
func asText(v node.Value) string {
	switch v.K {
	case node.Missing, node.Null:
		return ""
	case node.String:
		return v.S
	case node.Object, node.Array:
		return node.Dumps(v)
	}
	return node.PyStr(v)
}
