// Package history holds the conversation walks: linear_history and its
// companions over message lists (legacy §3.1), and get_branch over the store
// (legacy §3.2).
package history

import (
	"sort"

	"sessiondag/impl/adapter"
	"sessiondag/impl/mutant"
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
	return LinearIndexed(IndexByID(msgs), head, edge)
}

// LinearIndexed is Linear over a prebuilt id index.
func LinearIndexed(idx map[string]*adapter.Message, head string, edge Edge) Msgs {
	if _, ok := idx[head]; !ok {
		return Msgs{}
	}
	var out Msgs
	seen := make(map[string]struct{})
	for cur := head; cur != ""; {
		m, ok := idx[cur]
		if !ok {
			break
		}
		if _, dup := seen[cur]; dup && !mutant.On(mutant.NoCycleGuard) {
			break
		}
		if len(out) > 4*len(idx)+4 { // the mutant's loop would never end
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

// Family indexes a message list once for the sibling and child helpers,
// which the original recomputes per row (quadratic, legacy §8). Sibling
// sets are groups of positions laid out in one flat array.
type Family struct {
	msgs    Msgs
	group   []int32              // message position → its group, -1 when ungrouped
	groupOf map[siblingKey]int32 // key → group
	start   []int32              // group g is members[start[g]:start[g+1]]
	members []int32              // positions, ascending within a group
	pos     map[string]int       // id → position of its first occurrence
}

// NewFamily indexes msgs, grouping them by key.
func NewFamily(msgs Msgs, key SiblingKey) *Family {
	f := &Family{
		msgs:    msgs,
		group:   make([]int32, len(msgs)),
		groupOf: make(map[siblingKey]int32),
		pos:     make(map[string]int, len(msgs)),
	}
	var count []int32
	for i, m := range msgs {
		if _, seen := f.pos[m.ID]; !seen {
			f.pos[m.ID] = i
		}
		k, ok := keyOf(key(m))
		if !ok {
			f.group[i] = -1
			continue
		}
		g, known := f.groupOf[k]
		if !known {
			g = int32(len(count))
			f.groupOf[k] = g
			count = append(count, 0)
		}
		f.group[i] = g
		count[g]++
	}
	f.start = make([]int32, len(count)+1)
	for g, c := range count {
		f.start[g+1] = f.start[g] + c
	}
	f.members = make([]int32, f.start[len(count)])
	next := append([]int32(nil), f.start[:len(count)]...)
	for i, g := range f.group {
		if g >= 0 {
			f.members[next[g]] = int32(i)
			next[g]++
		}
	}
	return f
}

// sibs returns the positions of the group of the message at position p.
func (f *Family) sibs(p int) ([]int32, bool) {
	g := f.group[p]
	if g < 0 {
		return nil, false
	}
	return f.members[f.start[g]:f.start[g+1]], true
}

// SiblingIndex is sibling_index(msgs, id): 1-based position among the
// messages sharing its parent_id (itself included), and their count; (0, 0)
// for an unknown id.
func (f *Family) SiblingIndex(id string) (int, int) {
	first, ok := f.pos[id]
	if !ok {
		return 0, 0
	}
	sibs, ok := f.sibs(first)
	if !ok {
		return 1, 1
	}
	i := sort.Search(len(sibs), func(i int) bool { return int(sibs[i]) >= first })
	return i + 1, len(sibs)
}

// Siblings returns the ids of the messages sharing id's parent_id.
func (f *Family) Siblings(id string) []string {
	p, ok := f.pos[id]
	if !ok {
		return nil
	}
	sibs, ok := f.sibs(p)
	if !ok {
		return []string{id}
	}
	out := make([]string, len(sibs))
	for i, s := range sibs {
		out[i] = f.msgs[s].ID
	}
	return out
}

// lastChild is the position of the last message whose parent_id is id.
func (f *Family) lastChild(id string) (int, bool) {
	g, ok := f.groupOf[siblingKey{true, id}]
	if !ok {
		return 0, false
	}
	return int(f.members[f.start[g+1]-1]), true
}

// DeepestLeaf is deepest_leaf(msgs, id): repeatedly move to the last child;
// stops on a leaf or a repeat.
func (f *Family) DeepestLeaf(id string) string {
	seen := map[string]struct{}{}
	cur := id
	for {
		c, ok := f.lastChild(cur)
		if !ok {
			return cur
		}
		if _, dup := seen[cur]; dup {
			return cur
		}
		seen[cur] = struct{}{}
		cur = f.msgs[c].ID
	}
}

// SiblingID returns the id of the k-th (1-based) sibling of id, as counted
// by SiblingIndex.
func (f *Family) SiblingID(id string, k int) string {
	first, ok := f.pos[id]
	if !ok {
		return ""
	}
	sibs, ok := f.sibs(first)
	if !ok {
		if k == 1 {
			return id
		}
		return ""
	}
	if k < 1 || k > len(sibs) {
		return ""
	}
	return f.msgs[sibs[k-1]].ID
}
