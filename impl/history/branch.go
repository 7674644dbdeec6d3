package history

import (
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
		out = append(out, adapter.ToMessage(s.ID, n, s.ParentReads))
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
			if prev := s.RootBefore(cur.Seq); prev != nil && len(s.ConvChildren(prev.ID)) == 0 {
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
