package model

import "sort"

// The pure DAG helpers of `contextgit/dag.py` (legacy §3.1), over message lists.

// msgID is a message's id when it is a non-empty string.
func msgID(m *Object) string { return m.Str("id") }

// indexByID: entries without id skipped, on duplicate ids the last wins (§3.1).
func indexByID(msgs []*Object) map[string]*Object {
	idx := make(map[string]*Object, len(msgs))
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
	return linearHistoryIn(indexByID(msgs), head)
}

// linearHistoryIn is linearHistory over indexByID(msgs).
func linearHistoryIn(idx map[string]*Object, head string) []*Object {
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
func sortByCreatedAt(ms []*Object) { sortByKey(ms, "created_at") }

// sortByKey sorts stably by the number under key (`m.get(key) or 0`; a
// value that is not a number counts as 0), each key read once.
func sortByKey(ms []*Object, key string) {
	if len(ms) < 2 {
		return
	}
	type keyed struct {
		k float64
		m *Object
	}
	ks := make([]keyed, len(ms))
	for i, m := range ms {
		ks[i] = keyed{orZero(m.Val(key)), m}
	}
	sort.SliceStable(ks, func(i, j int) bool { return ks[i].k < ks[j].k })
	for i := range ks {
		ms[i] = ks[i].m
	}
}

// orZero is Python's `v or 0` as a number (not a number: 0).
func orZero(v any) float64 {
	if !Truthy(v) {
		return 0
	}
	f, _ := asFloat(v)
	return f
}

// siblings: messages whose parent_id equals the target's (None == None and
// "ROOT" == "ROOT" both group; the target itself included), sorted (§3.1).
func siblings(msgs []*Object, target *Object) []*Object {
	var out []*Object
	for _, m := range msgs {
		if pyEqual(m.Val("parent_id"), target.Val("parent_id")) {
			out = append(out, m)
		}
	}
	sortByCreatedAt(out)
	return out
}
