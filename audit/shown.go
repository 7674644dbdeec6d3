package audit

import (
	"sessiondag/impl/adapter"
	"sessiondag/impl/node"
	"sessiondag/impl/webui"
)

// shown is what one load puts in front of a user: every id it shows, and
// the chain row that shows it — the row itself, the reply a tool call is
// folded into, or the card whose execution tree holds a function's
// internals.
type shown map[string]string

// shownBy collects what a load shows.
func shownBy(l *webui.Loaded) shown {
	out := make(shown, len(l.Chain))
	walked := map[*node.Obj]bool{}
	for _, m := range l.Chain {
		out.add(m, walked)
	}
	return out
}

// add records a chain row with everything it holds; walked is shared by
// the rows of one load (see tree).
func (s shown) add(m *adapter.Message, walked map[*node.Obj]bool) {
	if _, ok := s[m.ID]; !ok {
		s[m.ID] = m.ID
	}
	for _, c := range m.Get("tool_calls").A {
		if id := c.O.Get("tool_call_id").Str(); id != "" {
			if _, ok := s[id]; !ok {
				s[id] = m.ID
			}
		}
	}
	if isCard(m) {
		s.tree(m.ID, m.Get("context_tree"), walked)
	}
}

// tree records the nodes of a card's execution tree as shown in that card.
// The tree is built with a guard against call cycles, so it is finite; the
// walk keeps its own stack to stay iterative on deep trees. The cards of
// nested calls share their subtrees (an outer card's tree holds each inner
// one's), so a subtree already walked, in this card or an earlier one, is
// not walked again: its nodes are recorded already, in the first card that
// showed them, which is what a second walk would leave. Without it nested
// calls cost the square of their depth.
func (s shown) tree(card string, root node.Value, walked map[*node.Obj]bool) {
	stack := []node.Value{root}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if v.K != node.Object || v.O == nil || walked[v.O] {
			continue
		}
		walked[v.O] = true
		if id := v.O.Get("path").Str(); id != "" {
			if _, ok := s[id]; !ok {
				s[id] = card
			}
		}
		stack = append(stack, v.O.Get("children").A...)
	}
}

// isCard reports whether a chain row is a runtime card.
func isCard(m *adapter.Message) bool {
	return m.Get("type").Str() == "status" && m.Get("display").Str() == "runtime" && m.Get("context_tree").IsSet()
}
