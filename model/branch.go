package model

// getBranch is `SessionStore.get_branch(sid, head)` (legacy §3.2).
func getBranch(s *Session, head string) []*Object { return newReading(s).branch(head) }

// branch is get_branch over the reading's index. The output is raw (adapter
// only, not aggregated), root first, without ROOT and rewound nodes (the
// walk itself passes through them).
func (rd *reading) branch(head string) []*Object {
	if head == "" || rd.node(head) == nil {
		return []*Object{}
	}
	var rev []*Node
	seen := map[string]bool{}
	cur := head
	for {
		n := rd.node(cur)
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
		// Rule 3: a ROOT-level chain root. prev = the last root (nodes in
		// nodes_by_seq order with caller in {"", "ROOT"}, no
		// metadata.parent_id, not ROOT itself) with seq < n.seq, scanning in
		// list order and stopping at the first root with seq >= n.seq;
		// follow it only if it has no conversation children (no node has
		// metadata.parent_id == prev).
		if prev := rd.idx.rootBefore(n.Seq); prev != nil && !rd.idx.convNamed[prev.ID] {
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
		out = append(out, rd.message(rev[i]))
	}
	return out
}
