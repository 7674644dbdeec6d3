package model

import "sort"

// The pure DAG helpers of `contextgit/dag.py` (legacy §3.1), over message lists.

// msgID is a message's id when it is a non-empty string.
func msgID(m *Object) string { return m.Str("id") }

// indexByID: entries without id skipped, on duplicate ids the last wins (§3.1).
func indexByID(msgs []*Object) map[string]*Object {
	idx := map[string]*Object{}
	for _, m := range msgs {
		if id := msgID(m); id != "" {
			idx[id] = m
		}
	}
	return idx
}

// linearHistory walks message `parent_id` back from head (§3.1): unknown head
// → []; stop at a falsy/unknown parent or the first revisit; root first.
func linearHistory(msgs []*Object, head string) []*Object {
	idx := indexByID(msgs)
	if idx[head] == nil {
		return []*Object{}
	}
	var rev []*Object
	seen := map[string]bool{}
	cur := head
	for cur != "" && idx[cur] != nil && !seen[cur] {
		seen[cur] = true
		rev = append(rev, idx[cur])
		cur, _ = idx[cur].Val("parent_id").(string) // raw value, no ROOT special case
	}
	out := make([]*Object, 0, len(rev))
	for i := len(rev) - 1; i >= 0; i-- {
		out = append(out, rev[i])
	}
	return out
}

// sortByCreatedAt is the helpers' sort key `(created_at or 0, list position)`.
// Messages carry `timestamp`, not `created_at`, so this is list (seq) order
// in practice (§3.1, docs/rollout.md §1 item 7).
func sortByCreatedAt(ms []*Object) {
	key := func(m *Object) float64 {
		f, _ := AsFloat(Or(m.Val("created_at"), Int("0")))
		return f
	}
	sort.SliceStable(ms, func(i, j int) bool { return key(ms[i]) < key(ms[j]) })
}

// siblings: messages whose parent_id equals the target's (None == None and
// "ROOT" == "ROOT" both group; the target itself included), sorted (§3.1).
func siblings(msgs []*Object, target *Object) []*Object {
	var out []*Object
	for _, m := range msgs {
		if PyEqual(m.Val("parent_id"), target.Val("parent_id")) {
			out = append(out, m)
		}
	}
	sortByCreatedAt(out)
	return out
}

// siblingIndex is 1-based (i, n) of the first message with this id among its
// siblings, or (0, 0) when no message has the id (§3.1).
func siblingIndex(msgs []*Object, id string) (int, int, []*Object) {
	for _, m := range msgs {
		if msgID(m) == id {
			sibs := siblings(msgs, m)
			for i, s := range sibs {
				if msgID(s) == id {
					return i + 1, len(sibs), sibs
				}
			}
		}
	}
	return 0, 0, nil
}

// children: messages whose parent_id is id, same sort (§3.1).
func children(msgs []*Object, id string) []*Object {
	var out []*Object
	for _, m := range msgs {
		if p, ok := m.Val("parent_id").(string); ok && p == id {
			out = append(out, m)
		}
	}
	sortByCreatedAt(out)
	return out
}

// deepestLeaf is §3.1's walk: while the current id is a message not seen
// yet, move to its last child, and return the leaf reached; an id seen
// again (a parent_id cycle) or not in msgs gives up: the id it started from.
func deepestLeaf(msgs []*Object, id string) string {
	seen := map[string]bool{}
	for cur := id; !seen[cur] && hasID(msgs, cur); {
		seen[cur] = true
		kids := children(msgs, cur)
		if len(kids) == 0 {
			return cur
		}
		cur = msgID(kids[len(kids)-1])
	}
	return id
}

// hasID reports whether a message of msgs has id.
func hasID(msgs []*Object, id string) bool {
	for _, m := range msgs {
		if msgID(m) == id {
			return true
		}
	}
	return false
}
