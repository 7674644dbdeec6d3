package history

import (
	"sort"

	"sessiondag/impl/adapter"
	"sessiondag/impl/node"
)

// Family indexes a message list once for the sibling and child helpers,
// which the original recomputes per row (quadratic, legacy §8). Sibling
// sets are groups of list indexes laid out in one flat array.
//
// NewFamily groups by keys compared as Python's == does, through maps
// keyed by id and key; NewGrouped takes groups the caller computed (a load
// that knows each row's key as a store position) and builds no map.
type Family struct {
	msgs    Msgs
	group   []int32 // list index → its group, -1 when ungrouped
	start   []int32 // group g is members[start[g]:start[g+1]]
	members []int32 // list indexes, ascending within a group

	index   func(id string) (int, bool)    // list index of the first message with id
	groupOf func(key string) (int32, bool) // the group of a string key
	key     SiblingKey                     // the key NewFamily grouped by; nil for NewGrouped

	leaves map[string]leafAnswer // DeepestLeaf's answers so far, by id
	path   []string              // scratch for DeepestLeaf's walk
}

// leafAnswer is where DeepestLeaf's walk from an id ends: at a leaf (ok), or
// at a repeat or an unknown id (then the answer is the id it started from).
type leafAnswer struct {
	leaf    string
	ok      bool
	walking bool // on the walk under way
}

// NewFamily indexes msgs, grouping them by key.
func NewFamily(msgs Msgs, key SiblingKey) *Family {
	f := byMaps(msgs, func(m *adapter.Message) (siblingKey, bool) { return keyOf(key(m)) })
	f.key = key
	return f
}

// NewParents indexes msgs by a parent pointer ("" for none), for Keyed.
func NewParents(msgs Msgs, parent func(m *adapter.Message) string) *Family {
	return byMaps(msgs, func(m *adapter.Message) (siblingKey, bool) {
		s := parent(m)
		return siblingKey{true, s}, s != ""
	})
}

func byMaps(msgs Msgs, key func(m *adapter.Message) (siblingKey, bool)) *Family {
	pos := make(map[string]int, len(msgs))
	groups := make(map[siblingKey]int32)
	group := make([]int32, len(msgs))
	for i, m := range msgs {
		if _, seen := pos[m.ID]; !seen {
			pos[m.ID] = i
		}
		k, ok := key(m)
		if !ok {
			group[i] = -1
			continue
		}
		g, known := groups[k]
		if !known {
			g = int32(len(groups))
			groups[k] = g
		}
		group[i] = g
	}
	return NewGrouped(msgs, group, len(groups),
		func(id string) (int, bool) {
			i, ok := pos[id]
			return i, ok
		},
		func(key string) (int32, bool) {
			g, ok := groups[siblingKey{true, key}]
			return g, ok
		})
}

// NewGrouped builds a family from groups the caller computed: group[i] is
// the group of msgs[i] in [0, ngroups), -1 when ungrouped; index finds the
// first message with an id, groupOf the group of a string key (any answer
// for a group with no member reads as none). group is kept.
func NewGrouped(msgs Msgs, group []int32, ngroups int, index func(id string) (int, bool), groupOf func(key string) (int32, bool)) *Family {
	f := &Family{msgs: msgs, group: group, index: index, groupOf: groupOf}
	f.start = make([]int32, ngroups+1)
	for _, g := range group {
		if g >= 0 {
			f.start[g+1]++
		}
	}
	for g := 1; g <= ngroups; g++ {
		f.start[g] += f.start[g-1]
	}
	f.members = make([]int32, f.start[ngroups])
	next := make([]int32, ngroups)
	copy(next, f.start[:ngroups])
	for i, g := range group {
		if g >= 0 {
			f.members[next[g]] = int32(i)
			next[g]++
		}
	}
	return f
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
	g, ok := f.groupOf(s)
	if !ok || g < 0 || int(g) >= len(f.start)-1 {
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

// DeepestLeaf is deepest_leaf(msgs, id): while the id is in the list and
// not yet seen, move to its last child; a leaf reached is the answer. A
// repeat (a parent_id cycle) or an unknown id gives back the id the walk
// started from, as the original does, not the one it stopped at.
func (f *Family) DeepestLeaf(id string) string {
	// Walks from different ids meet (two rows with one id share their
	// children), and a load asks for the neighbours of every chain row:
	// every id a walk passes gets its answer, so each id is walked once.
	// From any id on a walk that ends at a leaf the walk ends there too;
	// on one that ends at a repeat or an unknown id, it ends there as well
	// and gives back the id it started from. While a walk is on, its ids
	// are marked as such: meeting one again is the repeat.
	if f.leaves == nil {
		f.leaves = map[string]leafAnswer{}
	}
	path := f.path[:0]
	end := func(a leafAnswer) string {
		for _, p := range path {
			f.leaves[p] = a
		}
		f.path = path
		if a.ok {
			return a.leaf
		}
		return id
	}
	for cur := id; ; {
		if a, met := f.leaves[cur]; met {
			if a.walking {
				return end(leafAnswer{})
			}
			return end(a)
		}
		if _, known := f.index(cur); !known {
			return end(leafAnswer{})
		}
		f.leaves[cur] = leafAnswer{walking: true}
		path = append(path, cur)
		kids := f.keyed(cur)
		if len(kids) == 0 {
			return end(leafAnswer{leaf: cur, ok: true})
		}
		cur = f.msgs[kids[len(kids)-1]].ID
	}
}

// ReachableFrom returns whether a browser showing the rows shown can reach
// an id with the sibling arrows. An arrow shows the deepest leaf below a
// neighbouring sibling, whose rows carry arrows of their own: every member
// of a group holding a shown row is reachable, and from it every row below
// it (its children are the siblings of the child on its leaf's path). So
// an id is reachable when it or an ancestor (its key read as a parent id,
// up to a root or a repeat) is shown or shares a group with a shown row.
// Answers are kept along each walk, so all the answers together cost one
// pass over the family. Only for a family made by NewFamily.
func (f *Family) ReachableFrom(shown Msgs) func(id string) bool {
	groups := map[int32]bool{}
	ids := make(map[string]bool, len(shown))
	for _, m := range shown {
		ids[m.ID] = true
		if p, ok := f.index(m.ID); ok && f.group[p] >= 0 {
			groups[f.group[p]] = true
		}
	}
	known := map[string]bool{}
	return func(id string) bool {
		var path []string
		onPath := map[string]bool{}
		found := false
		for cur := id; ; {
			if r, ok := known[cur]; ok {
				found = r
				break
			}
			p, ok := f.index(cur)
			if !ok || onPath[cur] {
				break
			}
			onPath[cur] = true
			path = append(path, cur)
			if ids[cur] || f.group[p] >= 0 && groups[f.group[p]] {
				found = true
				break
			}
			parent := f.key(f.msgs[p])
			if parent.K != node.String {
				break
			}
			cur = parent.S
		}
		for _, p := range path {
			known[p] = found
		}
		return found
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
