// Package history holds the conversation walks: linear_history and its
// companions over message lists (legacy §3.1), and get_branch over the store
// (legacy §3.2).
package history

import (
	"sessiondag/impl/adapter"
	"sessiondag/impl/node"
)

// Msgs is a message list in seq order.
type Msgs = []*adapter.Message

// Edge returns the pointer a walk follows from a message. Legacy walks use
// parent_id; flag B substitutes the corrected conversation predecessor.
type Edge func(m *adapter.Message) string

// ParentEdge is R's edge: the raw parent_id when it is a string. Under flag
// A the visible parent_id is corrected but R's walk keeps its own value, so
// this reads that.
func ParentEdge(m *adapter.Message) string { return m.LegacyParentID() }

// IndexByID maps ids to messages; on duplicate ids the last one wins.
func IndexByID(msgs Msgs) map[string]*adapter.Message {
	idx := make(map[string]*adapter.Message, len(msgs))
	for _, m := range msgs {
		if m.ID != "" {
			idx[m.ID] = m
		}
	}
	return idx
}

// Linear is linear_history(msgs, head): from head follow edge through the id
// index until an empty, unknown or repeated id; root first. An unknown head
// gives an empty list.
func Linear(msgs Msgs, head string, edge Edge) Msgs {
	idx := IndexByID(msgs)
	return LinearBy(func(id string) (*adapter.Message, bool) {
		m, ok := idx[id]
		return m, ok
	}, len(idx), head, edge)
}

// Lookup finds the message with an id.
type Lookup func(id string) (*adapter.Message, bool)

// LinearBy is Linear over any id lookup of n messages.
func LinearBy(get Lookup, n int, head string, edge Edge) Msgs {
	if _, ok := get(head); !ok {
		return Msgs{}
	}
	var out Msgs
	seen := make(map[string]struct{})
	for cur := head; cur != ""; {
		m, ok := get(cur)
		if !ok {
			break
		}
		if _, dup := seen[cur]; dup {
			break
		}
		seen[cur] = struct{}{}
		out = append(out, m)
		cur = edge(m)
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// siblingKey groups messages by parent_id the way Python's == does:
// None == None, "ROOT" == "ROOT", and a missing key reads as None.
type siblingKey struct {
	isStr bool
	s     string
}

func keyOf(v node.Value) (siblingKey, bool) {
	switch v.K {
	case node.Missing, node.Null:
		return siblingKey{}, true
	case node.String:
		return siblingKey{true, v.S}, true
	}
	return siblingKey{}, false // numbers, lists…: equal only to themselves; left ungrouped
}

// SiblingKey reads the pointer that groups a message with its siblings.
type SiblingKey func(m *adapter.Message) node.Value

// ParentKey is R's sibling key: the visible parent_id.
func ParentKey(m *adapter.Message) node.Value { return m.ParentValue() }
