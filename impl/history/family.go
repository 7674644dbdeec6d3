package history

import (
	"sort"

	"sessiondag/impl/adapter"
)

// Family indexes a message list once for the sibling and child helpers,
// which the original recomputes per row (quadratic, legacy §8). Sibling
// sets are groups of list indexes laid out in one flat array.
//
// Ids and keys are resolved one of two ways. NewFamily keeps maps keyed by
// id, which works for any list. NewFamilyAt uses the dense positions of a
// store whose ids are unique: a key naming a stored node is that node's
// position, and the list is indexed by each message's Pos. That builds no
// map over the rows, which is most of the cost on large sessions; both
// give the same answers (TestFamilyAtAgrees).
type Family struct {
	msgs    Msgs
	group   []int32 // list index → its group, -1 when ungrouped
	start   []int32 // group g is members[start[g]:start[g+1]]
	members []int32 // list indexes, ascending within a group

	// Map resolution: id → first list index; key → group.
	pos     map[string]int
	groupOf map[siblingKey]int32

	// Dense resolution: a string key naming a stored node is group Pos;
	// other keys (null, "", ids of no node) are groups npos+k via groupOf.
	at    Positions
	npos  int
	first []int32 // store position → list index + 1 of its message, 0 if none
}

// Positions resolves ids to dense positions (a store with unique ids).
// KeyPos is Pos for the key a message points to; it may remember the
// answer on the message.
type Positions interface {
	Len() int
	Pos(id string) (int, bool)
	KeyPos(m *adapter.Message, id string) (int, bool)
}

// groupKey is how a family reads a message's key; false leaves it
// ungrouped.
type groupKey func(m *adapter.Message) (siblingKey, bool)

func bySibling(key SiblingKey) groupKey {
	return func(m *adapter.Message) (siblingKey, bool) { return keyOf(key(m)) }
}

// byString groups by a string key, "" meaning none (a parent map).
func byString(key func(m *adapter.Message) string) groupKey {
	return func(m *adapter.Message) (siblingKey, bool) {
		s := key(m)
		return siblingKey{true, s}, s != ""
	}
}

// NewFamily indexes msgs, grouping them by key.
func NewFamily(msgs Msgs, key SiblingKey) *Family { return newFamily(msgs, bySibling(key)) }

// NewFamilyAt is NewFamily by the positions of at, whose ids must be
// unique. Every message must carry the Pos of its node in at; a list where
// one does not is indexed by NewFamily instead.
func NewFamilyAt(msgs Msgs, key SiblingKey, at Positions) *Family {
	return newFamilyAt(msgs, bySibling(key), at)
}

// NewParents indexes msgs by a parent pointer ("" for none), for Keyed;
// at, when not nil, is as for NewFamilyAt.
func NewParents(msgs Msgs, parent func(m *adapter.Message) string, at Positions) *Family {
	if at == nil {
		return newFamily(msgs, byString(parent))
	}
	return newFamilyAt(msgs, byString(parent), at)
}

func newFamily(msgs Msgs, key groupKey) *Family {
	f := &Family{msgs: msgs, groupOf: make(map[siblingKey]int32), pos: make(map[string]int, len(msgs))}
	for i, m := range msgs {
		if _, seen := f.pos[m.ID]; !seen {
			f.pos[m.ID] = i
		}
	}
	f.build(key, nil)
	return f
}

func newFamilyAt(msgs Msgs, key groupKey, at Positions) *Family {
	npos := at.Len()
	first := make([]int32, npos)
	for i, m := range msgs {
		if m.Pos < 0 || int(m.Pos) >= npos {
			return newFamily(msgs, key)
		}
		if first[m.Pos] == 0 {
			first[m.Pos] = int32(i + 1)
		}
	}
	f := &Family{msgs: msgs, groupOf: make(map[siblingKey]int32), at: at, npos: npos, first: first}
	f.build(key, make([]int32, npos))
	return f
}

// build groups the list: count is the per-group tally to start from (the
// dense groups, all empty), nil for the map resolution.
func (f *Family) build(key groupKey, count []int32) {
	f.group = make([]int32, len(f.msgs))
	for i, m := range f.msgs {
		k, ok := key(m)
		if !ok {
			f.group[i] = -1
			continue
		}
		var g int32
		var known bool
		if f.at != nil && k.isStr {
			var p int
			if p, known = f.at.KeyPos(m, k.s); known {
				g = int32(p)
			}
		}
		if !known {
			g, known = f.groupOf[k]
		}
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
	next := count // reused as each group's fill cursor
	copy(next, f.start[:len(count)])
	for i, g := range f.group {
		if g >= 0 {
			f.members[next[g]] = int32(i)
			next[g]++
		}
	}
}

// resolve returns the group of a key, if it has one.
func (f *Family) resolve(k siblingKey) (int32, bool) {
	if f.at != nil && k.isStr {
		if p, ok := f.at.Pos(k.s); ok {
			return int32(p), true
		}
	}
	g, ok := f.groupOf[k]
	return g, ok
}

// index is the list index of the first message with id.
func (f *Family) index(id string) (int, bool) {
	if f.at == nil {
		i, ok := f.pos[id]
		return i, ok
	}
	p, ok := f.at.Pos(id)
	if !ok || f.first[p] == 0 {
		return 0, false
	}
	return int(f.first[p] - 1), true
}

// sibs returns the list indexes of the group of the message at index i.
func (f *Family) sibs(i int) ([]int32, bool) {
	g := f.group[i]
	if g < 0 {
		return nil, false
	}
	return f.members[f.start[g]:f.start[g+1]], true
}

// keyed returns the list indexes of the messages whose key is the string s.
func (f *Family) keyed(s string) []int32 {
	g, ok := f.resolve(siblingKey{true, s})
	if !ok {
		return nil
	}
	return f.members[f.start[g]:f.start[g+1]]
}

// SiblingIndex is sibling_index(msgs, id): 1-based position among the
// messages sharing its parent_id (itself included), and their count; (0, 0)
// for an unknown id.
func (f *Family) SiblingIndex(id string) (int, int) {
	first, ok := f.index(id)
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
	p, ok := f.index(id)
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

// Keyed returns the messages whose key is the string s, in list order: the
// children of s when the key is a parent pointer.
func (f *Family) Keyed(s string) Msgs {
	idx := f.keyed(s)
	out := make(Msgs, len(idx))
	for i, j := range idx {
		out[i] = f.msgs[j]
	}
	return out
}

// DeepestLeaf is deepest_leaf(msgs, id): repeatedly move to the last child;
// stops on a leaf or a repeat.
func (f *Family) DeepestLeaf(id string) string {
	seen := map[string]struct{}{}
	cur := id
	for {
		kids := f.keyed(cur)
		if len(kids) == 0 {
			return cur
		}
		if _, dup := seen[cur]; dup {
			return cur
		}
		seen[cur] = struct{}{}
		cur = f.msgs[kids[len(kids)-1]].ID
	}
}

// SiblingID returns the id of the k-th (1-based) sibling of id, as counted
// by SiblingIndex.
func (f *Family) SiblingID(id string, k int) string {
	first, ok := f.index(id)
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
