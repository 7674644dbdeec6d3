package model

// loaded is what handle_load_session shows: the fixed-up head (nil: None,
// sent as null) and the chain.
type loaded struct {
	head     *string
	chain    []*Object
	fallback bool
}

// load is `handle_load_session` steps 2–10 (legacy §3.5, R).
// raw = get_messages(sid); all = aggregate_tool_messages(raw) (step 2), which
// folds into copies, so that the fold does not leak into raw; branch =
// get_branch(stored head), which step 6 may take.
func (rd *reading) load(raw, all, branch []*Object) loaded {
	s := rd.s
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

	// Step 4: head fix-up (fixHead).
	allByID := indexByID(all)
	if truthy() {
		fixed := fixHead(*head, raw, allByID)
		head = &fixed
	}

	// Step 5: chain = linear_history(all, head) if head else a copy of all.
	var chain []*Object
	if truthy() {
		chain = linearHistoryIn(allByID, *head)
	} else {
		chain = append([]*Object{}, all...)
	}

	// Step 6 (R, "incomplete"): if the chain is shorter than all, get_branch
	// from the STORED index head (not the fixed-up one); take its raw,
	// un-aggregated rows iff strictly longer.
	fallback := false
	if len(chain) < len(all) {
		if len(branch) > len(chain) {
			chain, fallback = branch, true
		}
	}

	// Step 7: attach splice. Rows of all with function=="attach" not in chain;
	// parent = called_by or parent_id; if in chain, insert after the parent
	// (several → sorted by timestamp).
	chain = splice(chain, all,
		func(m *Object) bool { return m.Val("function") == "attach" },
		func(m *Object) any { return or(m.Val("called_by"), m.Val("parent_id")) })

	// Step 8: runtime-row splice: rows with type=="status" and
	// display=="runtime", keyed by parent_id (legacy rows only).
	chain = splice(chain, all,
		func(m *Object) bool { return m.Val("type") == "status" && m.Val("display") == "runtime" },
		func(m *Object) any { return m.Val("parent_id") })

	// Step 9: runtime cards.
	chain = rd.cards(chain, all)

	// Step 10: sibling info from sibling_index(all, id); when total > 1,
	// prev/next = deepest_leaf(all, neighbour), else null; then an attach
	// row's embed stats (embed.go). The keys go on a copy of each row: the
	// rows of all and of the branch stay as they are (the view shows them
	// too).
	fam := newFamily(all, allByID)
	for k, row := range chain {
		i, n, sibs := fam.siblingIndex(msgID(row))
		var prev, next any
		if n > 1 {
			if i > 1 {
				prev = fam.deepestLeaf(msgID(sibs[i-2]))
			}
			if i < n {
				next = fam.deepestLeaf(msgID(sibs[i]))
			}
		}
		row = row.Copy()
		chain[k] = row
		row.Set("sibling_index", Int(itoa(i)))
		row.Set("sibling_total", Int(itoa(n)))
		row.Set("prev_sibling_id", prev)
		row.Set("next_sibling_id", next)
		rd.embedStats(row)
	}
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
	var out []*Object
	for _, m := range chain {
		out = append(out, m)
		if rows := after[msgID(m)]; len(rows) > 0 {
			sortByKey(rows, "timestamp")
			out = append(out, rows...)
		}
	}
	return out
}

// fixHead is step 4 of the load: a head that is not an id in all (a folded
// tool row, say) follows raw parent_id (≤100 hops, stopping on an empty or
// its own) to the first id in all, which it becomes; else it stays.
func fixHead(head string, raw []*Object, allByID map[string]*Object) string {
	if allByID[head] != nil {
		return head
	}
	rawByID := indexByID(raw)
	cur := head
	for hop := 0; hop < 100 && rawByID[cur] != nil; hop++ {
		next, _ := rawByID[cur].Val("parent_id").(string)
		if next == "" || next == cur {
			break
		}
		cur = next
		if allByID[cur] != nil {
			return cur
		}
	}
	return head
}
