package history

import (
	"sort"

	"sessiondag/impl/adapter"
	"sessiondag/impl/lane"
	"sessiondag/impl/node"
	"sessiondag/impl/store"
)

// Branch is get_branch(sid, head) (legacy §3.2): walk back from head over
// the stored edges, root first, ROOT and rewound nodes dropped, raw
// (un-aggregated) messages. An empty head means the stored head; an unknown
// one gives an empty list.
func Branch(s *store.Store, head string) Msgs {
	ids := BranchNodes(s, head)
	out := make(Msgs, 0, len(ids))
	for _, n := range ids {
		if n.IsRoot() || n.IsRewound() {
			continue
		}
		out = append(out, adapter.ToMessage(s.ID, n))
	}
	return out
}

// BranchNodes is the walk of Branch before the adapter and the filter. An
// empty head means the stored head.
func BranchNodes(s *store.Store, head string) []*node.Node {
	if head == "" {
		head = s.Head()
	}
	cur, ok := s.Get(head)
	if !ok {
		return nil
	}
	roots := newRootIndex(s)
	var walk []*node.Node
	seen := map[string]struct{}{}
	for {
		if _, dup := seen[cur.ID]; dup {
			break
		}
		seen[cur.ID] = struct{}{}
		walk = append(walk, cur)
		next := ""
		switch {
		case cur.Metadata.Get("parent_id").Truthy(): // rule 1
			next = cur.Metadata.Get("parent_id").Str() // a non-string pointer is unknown: the walk ends
		case cur.CalledBy != "" && cur.CalledBy != node.RootID: // rule 2
			next = cur.CalledBy
		default: // rule 3: the previous root, unless it has conversation children
			if prev := roots.before(cur.Seq); prev != nil && len(s.ConvChildren(prev.ID)) == 0 {
				next = prev.ID
			}
		}
		if next == "" {
			break
		}
		if cur, ok = s.Get(next); !ok {
			break
		}
	}
	for i, j := 0, len(walk)-1; i < j; i, j = i+1, j-1 {
		walk[i], walk[j] = walk[j], walk[i]
	}
	return walk
}

// rootIndex answers rule 3 in O(log n): the chain roots (caller "" or ROOT,
// no parent_id, not ROOT) in append order, with the running maximum of their
// seqs, so "scan in list order and stop at the first seq ≥ s" is a binary
// search even when a rebuild left the list out of seq order.
type rootIndex struct {
	roots  []*node.Node
	maxSeq []int64
}

func newRootIndex(s *store.Store) *rootIndex {
	r := &rootIndex{}
	var m int64 = -1 << 63
	for _, n := range s.Nodes() {
		if (n.CalledBy == "" || n.CalledBy == node.RootID) && !n.Metadata.Get("parent_id").Truthy() && !n.IsRoot() {
			r.roots = append(r.roots, n)
			if n.Seq > m {
				m = n.Seq
			}
			r.maxSeq = append(r.maxSeq, m)
		}
	}
	return r
}

// before returns the last root preceding the first one whose seq ≥ seq.
func (r *rootIndex) before(seq int64) *node.Node {
	i := sort.Search(len(r.maxSeq), func(i int) bool { return r.maxSeq[i] >= seq })
	if i == 0 {
		return nil
	}
	return r.roots[i-1]
}

// BranchWalk is the get_branch walk under a flag set: R's three edge rules,
// or with flag B the corrected conversation predecessors (preds).
func BranchWalk(s *store.Store, head string, preds *lane.Preds) []*node.Node {
	if preds == nil {
		return BranchNodes(s, head)
	}
	if head == "" {
		head = s.Head()
	}
	var out []*node.Node
	for _, id := range preds.Walk(head) {
		if n, ok := s.Get(id); ok {
			out = append(out, n)
		}
	}
	return out
}
