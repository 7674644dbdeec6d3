package webui

import (
	"sessiondag/impl/mutant"
	"slices"

	"sessiondag/impl/adapter"
	"sessiondag/impl/flags"
	"sessiondag/impl/history"
	"sessiondag/impl/node"
	"sessiondag/impl/store"
)

// Loaded is what handle_load_session computes for the browser (legacy §3.5).
type Loaded struct {
	SessionID    string
	StoredHead   string // the index head, before the fix-up
	HeadID       string // after the fix-up
	FallbackUsed bool   // get_branch replaced the linear_history chain
	Messages     []*adapter.Message
	All          []*adapter.Message
	Chain        []*adapter.Message
	// BeforeCards is the chain before the runtime-card pass (for the
	// property that the pass never drops a user row).
	BeforeCards []*adapter.Message
}

// Load runs the load pipeline over a session under a flag set.
func Load(s *store.Store, fl flags.Set) *Loaded {
	raw := Messages(s)
	all := Aggregate(raw)
	l := &Loaded{SessionID: s.ID, StoredHead: s.Head(), Messages: raw, All: all}

	// Step 3: the stored head, else the last message.
	head := s.Head()
	if head == "" && len(all) > 0 {
		head = all[len(all)-1].ID
	}
	allIdx := history.IndexByID(all)
	head = fixHead(head, raw, allIdx)
	l.HeadID = head

	// Steps 5–6: linear history, then R's "incomplete" fallback.
	var chain []*adapter.Message
	if head != "" {
		chain = history.LinearIndexed(allIdx, head, history.ParentEdge)
	} else {
		chain = slices.Clone(all)
	}
	trigger := len(chain) < len(all)
	if mutant.On(mutant.FallbackV1) {
		trigger = head != "" && len(chain) < 3 && len(all) > 3
	}
	if !fl.Has(flags.C) && trigger {
		if br := history.Branch(s, ""); len(br) > len(chain) {
			chain = br
			l.FallbackUsed = true
		}
	}
	chain = spliceAttach(chain, all)
	chain = spliceRuntimeRows(chain, all)
	l.BeforeCards = chain
	chain = RebuildCards(chain, all, s, NewTreeIndex(s), LegacyCardRules)
	l.Chain = siblingInfo(chain, all)
	return l
}

// Messages is get_messages: the adapter over every node in append order,
// ROOT and rewound nodes skipped.
func Messages(s *store.Store) []*adapter.Message {
	out := make([]*adapter.Message, 0, s.Len())
	for _, n := range s.Nodes() {
		if n.IsRoot() || n.IsRewound() {
			continue
		}
		out = append(out, adapter.ToMessage(s.ID, n))
	}
	return out
}

// fixHead is step 4: a head that is not a shown row (a folded tool row after
// a crash, say) climbs raw parent_id, at most 100 hops, to the first id that
// is shown; if none is reached the head is kept.
func fixHead(head string, raw []*adapter.Message, allIdx map[string]*adapter.Message) string {
	if head == "" {
		return head
	}
	if _, ok := allIdx[head]; ok {
		return head
	}
	rawIdx := history.IndexByID(raw)
	cur := head
	for hop := 0; hop < 100; hop++ {
		m, ok := rawIdx[cur]
		if !ok {
			break
		}
		p := m.ParentID()
		if p == "" || p == cur {
			break
		}
		if _, ok := allIdx[p]; ok {
			return p
		}
		cur = p
	}
	return head
}

// spliceAttach is step 7: attach pointers not on the chain go right after
// their parent (called_by, else parent_id) when it is, ordered by timestamp.
func spliceAttach(chain, all []*adapter.Message) []*adapter.Message {
	return splice(chain, all, func(m *adapter.Message) (string, bool) {
		if m.Get("function").Str() != "attach" {
			return "", false
		}
		if cb := m.Get("called_by"); cb.Truthy() {
			return cb.Str(), true
		}
		return m.ParentID(), true
	})
}

// spliceRuntimeRows is step 8: legacy runtime status rows, keyed by parent_id.
func spliceRuntimeRows(chain, all []*adapter.Message) []*adapter.Message {
	return splice(chain, all, func(m *adapter.Message) (string, bool) {
		if m.Get("type").Str() != "status" || m.Get("display").Str() != "runtime" {
			return "", false
		}
		return m.ParentID(), true
	})
}

func splice(chain, all []*adapter.Message, parentOf func(*adapter.Message) (string, bool)) []*adapter.Message {
	inChain := make(map[string]struct{}, len(chain))
	for _, m := range chain {
		inChain[m.ID] = struct{}{}
	}
	pending := map[string][]*adapter.Message{}
	for _, m := range all {
		p, ok := parentOf(m)
		if !ok || p == "" {
			continue
		}
		if _, on := inChain[m.ID]; on {
			continue
		}
		if _, on := inChain[p]; on {
			pending[p] = append(pending[p], m)
		}
	}
	if len(pending) == 0 {
		return chain
	}
	out := make([]*adapter.Message, 0, len(chain)+len(pending))
	for _, m := range chain {
		out = append(out, m)
		if extra, ok := pending[m.ID]; ok {
			slices.SortStableFunc(extra, byTimestamp)
			out = append(out, extra...)
			delete(pending, m.ID) // a duplicate chain id gets its rows once
		}
	}
	return out
}

func byTimestamp(a, b *adapter.Message) int {
	fa, fb := numberOf(a.Get("timestamp")), numberOf(b.Get("timestamp"))
	switch {
	case fa < fb:
		return -1
	case fa > fb:
		return 1
	}
	return 0
}

// siblingInfo is step 10: sibling position over the aggregated list, and the
// deepest leaf of each neighbouring sibling. Chain rows are copied.
func siblingInfo(chain, all []*adapter.Message) []*adapter.Message {
	fam := history.NewFamily(all)
	out := make([]*adapter.Message, len(chain))
	for i, row := range chain {
		c := row.Copy()
		idx, total := fam.SiblingIndex(row.ID)
		prev, next := node.NullV(), node.NullV()
		if total > 1 {
			if idx > 1 {
				prev = node.Str(fam.DeepestLeaf(fam.SiblingID(row.ID, idx-1)))
			}
			if idx < total {
				next = node.Str(fam.DeepestLeaf(fam.SiblingID(row.ID, idx+1)))
			}
		}
		c.Set("sibling_index", node.Num(itoa(idx)))
		c.Set("sibling_total", node.Num(itoa(total)))
		c.Set("prev_sibling_id", prev)
		c.Set("next_sibling_id", next)
		out[i] = c
	}
	return out
}
