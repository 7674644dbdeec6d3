package webui

import (
	"slices"

	"sessiondag/impl/adapter"
	"sessiondag/impl/history"
	"sessiondag/impl/node"
	"sessiondag/impl/store"
)

// rebuildCards is _rebuild_runtime_cards(chain, all): every top-level
// function row of the chain becomes a runtime card with its execution tree,
// and the rows the card absorbs (its transitive children) are dropped when
// they come after it. allIdx indexes all (last wins on duplicate ids, as
// the original's role map); the children index over all is only built
// once the chain turns out to hold a card.
func (r Rules) rebuildCards(chain []*adapter.Message, allIdx rowIndex, tree *TreeIndex) []*adapter.Message {
	roleOf := func(id string) string {
		if m, ok := allIdx.get(id); ok {
			return m.Role
		}
		return ""
	}
	var children *history.Family
	var drop rowSet
	out := make([]*adapter.Message, 0, len(chain))
	for _, row := range chain {
		if drop.has(row) {
			continue
		}
		if row.Role != "tool" || roleOf(r.cardTarget(row)) == "assistant" {
			out = append(out, row)
			continue
		}
		out = append(out, card(row, tree))
		if children == nil {
			children = allIdx.parents(r.childOf)
			drop = allIdx.newSet()
		}
		stack := children.Keyed(row.ID)
		for len(stack) > 0 {
			m := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if drop.has(m) {
				continue
			}
			drop.add(m)
			stack = append(stack, children.Keyed(m.ID)...)
		}
	}
	return out
}

func card(row *adapter.Message, tree *TreeIndex) *adapter.Message {
	c := row.Copy()
	status := row.Get("status")
	if !status.Truthy() {
		if row.Get("is_error").Truthy() {
			status = node.Str("error")
		} else {
			status = node.Str("done")
		}
	}
	fn := row.Get("function")
	c.Set("role", node.Str("assistant"))
	c.Set("type", node.Str("status"))
	c.Set("display", node.Str("runtime"))
	c.Set("function", fn)
	c.Set("content", row.Get("content"))
	c.Set("status", status)
	c.Set("context_tree", tree.treeOf(row))
	c.Set("parent_id", node.Str(""))
	return c
}

// TreeIndex answers the execution trees of runtime cards (legacy §2.5) from
// the store's own indexes: a node's children are the nodes whose called_by
// is its id, in append order, which is seq order (a cold load appends by
// seq). Nothing is built per load.
type TreeIndex struct {
	s *store.Store
}

// NewTreeIndex returns the tree index of a session.
func NewTreeIndex(s *store.Store) *TreeIndex { return &TreeIndex{s: s} }

// Tree is the execution tree rooted at id; null for an unknown id. The
// original recurses without a guard and fails on a cycle; here a node that is
// already on the path is not expanded again.
func (t *TreeIndex) Tree(id string) node.Value {
	n, ok := t.s.Get(id)
	if !ok {
		return node.NullV()
	}
	return t.tree(n, &callPath{})
}

// treeOf is Tree of a row's id, found by the row's position when it has one.
func (t *TreeIndex) treeOf(row *adapter.Message) node.Value {
	if nodes := t.s.Nodes(); row.Pos >= 0 && int(row.Pos) < len(nodes) && t.s.UniqueIDs() && nodes[row.Pos].ID == row.ID {
		return t.tree(nodes[row.Pos], &callPath{})
	}
	return t.Tree(row.ID)
}

// callPath is the ids of the nodes above the one being built: a slice, as
// call chains are short, with a map beside it once one is not.
type callPath struct {
	ids []string
	big map[string]bool
}

func (p *callPath) has(id string) bool {
	if p.big != nil {
		return p.big[id]
	}
	return slices.Contains(p.ids, id)
}

func (p *callPath) push(id string) {
	p.ids = append(p.ids, id)
	switch {
	case p.big != nil:
		p.big[id] = true
	case len(p.ids) > 32:
		p.big = make(map[string]bool, 2*len(p.ids))
		for _, x := range p.ids {
			p.big[x] = true
		}
	}
}

func (p *callPath) pop() {
	id := p.ids[len(p.ids)-1]
	p.ids = p.ids[:len(p.ids)-1]
	if p.big != nil {
		delete(p.big, id)
	}
}

// tree builds the tree of n; path holds the nodes above it.
func (t *TreeIndex) tree(n *node.Node, path *callPath) node.Value {
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
	kids := t.s.CallChildren(n.ID)
	if len(kids) > 0 && !path.has(n.ID) {
		path.push(n.ID)
		arr := make([]node.Value, 0, len(kids))
		for _, k := range kids {
			if path.has(k.ID) {
				continue
			}
			arr = append(arr, t.tree(k, path))
		}
		path.pop()
		if len(arr) > 0 {
			add("children", node.Arr(arr))
		}
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
