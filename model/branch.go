package model

// getBranch is `SessionStore.get_branch(sid, head)` (legacy §3.2). The output
// is raw (adapter only, not aggregated), root first, without ROOT and rewound
// nodes (the walk itself passes through them).
func getBranch(s *Session, head string) []*Object {
	if head == "" || s.byID(head) == nil {
		return []*Object{}
	}
	// roots: nodes in nodes_by_seq order with caller in {"", "ROOT"}, no
	// metadata.parent_id, and not ROOT itself.
	var roots []*Node
	for _, n := range s.Nodes {
		if (n.CalledBy == "" || n.CalledBy == "ROOT") && !Truthy(n.meta().Val("parent_id")) && n.ID != "ROOT" {
			roots = append(roots, n)
		}
	}
	// children_by_predecessor[id] is non-empty: some node has metadata.parent_id == id.
	hasConvChildren := func(id string) bool {
		for _, n := range s.Nodes {
			if p, ok := n.meta().Val("parent_id").(string); ok && p == id {
				return true
			}
		}
		return false
	}

	var rev []*Node
	seen := map[string]bool{}
	cur := head
	for {
		n := s.byID(cur)
		if cur == "" || n == nil || seen[cur] { // stop on unknown id or repeat
			break
		}
		seen[cur] = true
		rev = append(rev, n)
		// Rule 1: a truthy metadata.parent_id (even if unknown → walk ends).
		if p := n.meta().Val("parent_id"); Truthy(p) {
			cur, _ = p.(string)
			continue
		}
		// Rule 2: a truthy called_by other than "ROOT" climbs the call chain.
		if n.CalledBy != "" && n.CalledBy != "ROOT" {
			cur = n.CalledBy
			continue
		}
		// Rule 3: a ROOT-level chain root. prev = the last root with seq <
		// n.seq, scanning in list order and stopping at the first root with
		// seq >= n.seq; follow it only if it has no conversation children.
		var prev *Node
		for _, r := range roots {
			if r.Seq >= n.Seq {
				break
			}
			prev = r
		}
		if prev != nil && !hasConvChildren(prev.ID) {
			cur = prev.ID
			continue
		}
		break
	}
	out := []*Object{}
	for i := len(rev) - 1; i >= 0; i-- {
		if rev[i].isRootNode() || rev[i].isRewound() {
			continue
		}
		out = append(out, NodeToMsg(rev[i], s.ID))
	}
	return out
}
