package webui

import (
	"sessiondag/impl/adapter"
	"sessiondag/impl/history"
	"sessiondag/impl/node"
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
