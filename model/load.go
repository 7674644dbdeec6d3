package model

import "sort"

// loaded is what handle_load_session shows: the fixed-up head (nil: None,
// sent as null) and the chain.
type loaded struct {
	head     *string
	chain    []*Object
	fallback bool
}

// handleLoadSession is `handle_load_session` steps 2–10 (legacy §3.5, R).
// raw = get_messages(sid); all = aggregate_tool_messages(raw) (step 2) —
// separate dicts here, so that the fold does not leak into raw.
func handleLoadSession(s *Session, raw, all []*Object) loaded {
	// Step 3: head = meta.head_id or head_or_tip(conv, all) (= last id of
	// all, None when all is empty). Later steps test it for truth (`if head`).
	var head *string
	if s.HeadID != "" {
		stored := s.HeadID
		head = &stored
	} else if len(all) > 0 {
		tip := msgID(all[len(all)-1])
		head = &tip
	}
	truthy := func() bool { return head != nil && *head != "" }

	// Step 4: head fix-up. If head is not an id in all (e.g. a folded tool row),
	// follow raw parent_id (≤100 hops, stop on empty/self) until an id in all;
	// adopt it if found, else keep the original head.
	inAll := func(id string) bool {
		for _, m := range all {
			if msgID(m) == id {
				return true
			}
		}
		return false
	}
	if truthy() && !inAll(*head) {
		rawByID := indexByID(raw)
		cur := *head
		for hop := 0; hop < 100 && rawByID[cur] != nil; hop++ {
			next, _ := rawByID[cur].Val("parent_id").(string)
			if next == "" || next == cur {
				break
			}
			cur = next
			if inAll(cur) {
				found := cur
				head = &found
				break
			}
		}
	}

	// Step 5: chain = linear_history(all, head) if head else a copy of all.
	var chain []*Object
	if truthy() {
		chain = linearHistory(all, *head)
	} else {
		chain = append([]*Object{}, all...)
	}

	// Step 6 (R, "incomplete"): if the chain is shorter than all, get_branch
	// from the STORED index head (not the fixed-up one); take its raw,
	// un-aggregated rows iff strictly longer.
	fallback := false
	if len(chain) < len(all) {
		if br := getBranch(s, s.HeadID); len(br) > len(chain) {
			chain, fallback = br, true
		}
	}

	// Step 7: attach splice. Rows of all with function=="attach" not in chain;
	// parent = called_by or parent_id; if in chain, insert after the parent
	// (several → sorted by timestamp).
	chain = splice(chain, all,
		func(m *Object) bool { return m.Val("function") == "attach" },
		func(m *Object) any { return Or(m.Val("called_by"), m.Val("parent_id")) })

	// Step 8: runtime-row splice: rows with type=="status" and
	// display=="runtime", keyed by parent_id (legacy rows only).
	chain = splice(chain, all,
		func(m *Object) bool { return m.Val("type") == "status" && m.Val("display") == "runtime" },
		func(m *Object) any { return m.Val("parent_id") })

	// Step 9: runtime cards.
	chain = rebuildRuntimeCards(s, chain, all)

	// Step 10: sibling info from sibling_index(all, id); when total > 1,
	// prev/next = deepest_leaf(all, neighbour), else null.
	for _, row := range chain {
		i, n, sibs := siblingIndex(all, msgID(row))
		var prev, next any
		if n > 1 {
			if i > 1 {
				prev = deepestLeaf(all, msgID(sibs[i-2]))
			}
			if i < n {
				next = deepestLeaf(all, msgID(sibs[i]))
			}
		}
		row.Set("sibling_index", Int(itoa(i)))
		row.Set("sibling_total", Int(itoa(n)))
		row.Set("prev_sibling_id", prev)
		row.Set("next_sibling_id", next)
	}
	// Attach rows' embed stats (step 10) are not added: no conformance row
	// has them (they need context commits, which are out of scope).
	return loaded{head: head, chain: chain, fallback: fallback}
}

// splice inserts rows of all that match `want`, are not in chain, and whose
// parent(row) is a chain id, right after that parent, sorted by timestamp.
func splice(chain, all []*Object, want func(*Object) bool, parent func(*Object) any) []*Object {
	inChain := map[string]bool{}
	for _, m := range chain {
		inChain[msgID(m)] = true
	}
	after := map[string][]*Object{}
	for _, m := range all {
		if !want(m) || inChain[msgID(m)] {
			continue
		}
		if p, ok := parent(m).(string); ok && inChain[p] {
			after[p] = append(after[p], m)
		}
	}
	if len(after) == 0 {
		return chain
	}
	ts := func(m *Object) float64 { f, _ := AsFloat(Or(m.Val("timestamp"), Int("0"))); return f }
	var out []*Object
	for _, m := range chain {
		out = append(out, m)
		rows := append([]*Object{}, after[msgID(m)]...)
		sort.SliceStable(rows, func(i, j int) bool { return ts(rows[i]) < ts(rows[j]) })
		out = append(out, rows...)
	}
	return out
}
