package audit

import (
	"slices"

	"sessiondag/impl/adapter"
	"sessiondag/impl/flags"
	"sessiondag/impl/history"
	"sessiondag/impl/lane"
	"sessiondag/impl/node"
	"sessiondag/impl/store"
	"sessiondag/impl/webui"
)

// Ways a user brings a branch on screen.
const (
	viaSwitcher   = "switcher"    // the sibling arrows of a chain row (prev/next_sibling_id)
	viaBranchList = "branch-list" // the branch list of the side panel
)

// reach is how a user gets to a row that the chain at the stored head does
// not show: the head to load (a branch tip), the first way there, and the
// rows whose sibling arrows are followed, in order, from the chain the way
// starts at (the stored chain, or a tip of the branch list).
type reach struct {
	tip  string
	via  string
	path []string
}

// navigation is a model of where a user can go from the chain a config
// loads at the stored head, by the rules of that config: the sibling
// arrows of every chain row lead to the deepest leaf of each sibling
// (legacy §3.5 step 10, §3.1), whose chain has arrows of its own; the
// branch list offers the original's tips (legacy §1: caller-less rows, not
// ROOT, not attach pointers, with no conversation children, not merged).
// It proposes where each row can be found; the audit confirms a proposal
// with a load of that config at the proposed head (place.go), so a model
// that is wrong can only make a row look harder to find, never easier.
// Each row is reached once: a climb stops at the first row already
// reached, whose ancestors are reached already, so the whole walk is
// linear in the session.
type navigation struct {
	st    *store.Store
	anc   *anchors
	preds *lane.Preds // nil when flag A is off
	walks bool        // the chain follows the predecessors (flag B)
	d     bool        // flag D: conversation children by predecessor
	all   []*adapter.Message
	byID  map[string]*adapter.Message // linear_history's index: the last message of an id
	// folded: a tool row's id → the reply of the list it is folded into.
	folded map[string]string
	// attached: a row → the attach pointers a predecessor chain shows
	// right after it (flag B).
	attached map[string][]string
	fam      *history.Family
	leaf     map[string]string
	// entered: the siblings an arrow has led to (their deepest leaf is
	// climbed).
	entered map[string]bool
	// reached: the rows each chain a user can load shows, by the first
	// way found (breadth first: fewest switches).
	reached map[string]reach
	queue   []navStep
}

// navStep is a chain row whose sibling arrows are still to be followed.
type navStep struct {
	id   string
	from reach
}

// navigate builds the model for a config's load at the stored head.
func navigate(st *store.Store, anc *anchors, fl flags.Set, l *webui.Loaded) *navigation {
	var preds *lane.Preds
	if fl.Has(flags.A) {
		preds = lane.PredsOf(st)
	}
	rules := webui.RulesFor(fl, preds)
	n := &navigation{st: st, anc: anc, preds: preds, walks: rules.Walks, d: fl.Has(flags.D), all: l.All,
		byID: history.IndexByID(l.All), fam: webui.Arrows(fl, l.All),
		leaf: map[string]string{}, entered: map[string]bool{}, reached: map[string]reach{}}
	n.folded = map[string]string{}
	for _, m := range l.All {
		for _, c := range m.Get("tool_calls").A {
			if id := c.O.Get("tool_call_id").Str(); id != "" {
				n.folded[id] = m.ID
			}
		}
	}
	n.attached = map[string][]string{}
	if n.walks {
		for _, m := range l.All {
			if m.Function == "attach" && m.IsConv {
				n.attached[m.Pred] = append(n.attached[m.Pred], m.ID)
			}
		}
	}
	stored := reach{tip: l.HeadID.ID()}
	for _, m := range l.Chain {
		n.mark(m.ID, stored)
	}
	n.drain()
	for _, tip := range n.branchList() {
		if _, ok := n.reached[tip]; !ok {
			n.climb(tip, reach{tip: tip, via: viaBranchList})
			n.drain()
		}
	}
	return n
}

// find is where the model says a user reaches row id, if anywhere.
func (n *navigation) find(id string) (reach, bool) {
	r, ok := n.reached[id]
	return r, ok
}

// holder is the conversation row that stands for id: id itself, the reply
// of the aggregated list a tool row is folded into, else the conversation
// row a function's internal or an ask_user question belongs to.
func (n *navigation) holder(id string) string {
	if nd, ok := n.st.Get(id); !ok || lane.IsConv(nd, n.st.Get) {
		return id
	}
	if r, ok := n.folded[id]; ok && r != id {
		return n.holder(r) // a call folded into a function's internal call
	}
	return n.anc.at(id)
}

// mark records a reached row and queues its arrows.
func (n *navigation) mark(id string, r reach) bool {
	if _, ok := n.reached[id]; ok {
		return false
	}
	n.reached[id] = r
	n.queue = append(n.queue, navStep{id, r})
	for _, a := range n.attached[id] {
		n.mark(a, r) // spliced right after it
	}
	return true
}

// drain follows every queued row's sibling arrows, breadth first. A row's
// arrows lead to its neighbours in its sibling set (prev and next), each
// as the deepest leaf below it; the neighbour's own arrows work only once
// a chain shows it as a row, so the set is walked one neighbour at a time,
// as a user clicks through it.
func (n *navigation) drain() {
	for len(n.queue) > 0 {
		s := n.queue[0]
		n.queue = n.queue[1:]
		idx, total := n.fam.SiblingIndex(s.id)
		if total < 2 {
			continue // no arrows
		}
		for _, k := range [2]int{idx - 1, idx + 1} {
			if k < 1 || k > total {
				continue
			}
			sib := n.fam.SiblingID(s.id, k)
			if n.entered[sib] {
				continue
			}
			n.entered[sib] = true
			next := s.from
			next.path = append(slices.Clip(next.path), s.id)
			if next.via == "" {
				next.via = viaSwitcher
			}
			next.tip = n.deepestLeaf(sib)
			n.climb(next.tip, next)
		}
	}
}

// climb marks the chain a load at head shows under the model, from the
// head towards its root, up to the first row already reached.
func (n *navigation) climb(head string, r reach) {
	seen := map[string]bool{}
	if n.walks {
		for cur := n.anc.at(head); cur != "" && cur != node.RootID && !seen[cur]; {
			seen[cur] = true
			if m, ok := n.byID[cur]; ok && !n.offChain(m) && !n.mark(cur, r) {
				return
			}
			next, ok := n.preds.Of(cur)
			if !ok {
				return
			}
			cur = next
		}
		return
	}
	for cur := head; cur != "" && !seen[cur]; {
		m, ok := n.byID[cur]
		if !ok {
			return
		}
		seen[cur] = true
		if !n.mark(cur, r) {
			return
		}
		cur = history.ParentEdge(m)
	}
}

// offChain reports whether a predecessor chain that walks through row m
// leaves it out: an attach pointer is shown right after the row it hangs
// off, so one whose anchor is a stored row the list does not show (a
// rewound reply) is shown nowhere on the chain.
func (n *navigation) offChain(m *adapter.Message) bool {
	if m.Function != "attach" || !m.IsConv || m.Pred == "" || m.Pred == node.RootID {
		return false
	}
	if _, stored := n.st.Get(m.Pred); !stored {
		return false
	}
	_, shown := n.byID[m.Pred]
	return !shown
}

// deepestLeaf is deepest_leaf: down the latest child while there is one;
// a repeat (a cycle) gives back the id the walk started from. Results are
// kept, so every row is walked once however many arrows lead through it.
func (n *navigation) deepestLeaf(id string) string {
	var path []string
	on := map[string]bool{}
	cur, res := id, ""
	for {
		if r, ok := n.leaf[cur]; ok {
			res = r
			break
		}
		if _, known := n.byID[cur]; !known {
			res = ""
			break
		}
		if on[cur] {
			res = ""
			break
		}
		on[cur] = true
		path = append(path, cur)
		kids := n.fam.Keyed(cur)
		if len(kids) == 0 {
			res = cur
			break
		}
		cur = kids[len(kids)-1].ID
	}
	// "" is the original's exit on a repeat or an unknown id: each row of
	// the path gives back itself.
	for _, p := range path {
		if res == "" {
			n.leaf[p] = p
		} else {
			n.leaf[p] = res
		}
	}
	if res == "" {
		return id
	}
	return res
}

// branchList is the original's branch list, tips in seq order: caller-less
// rows that are not ROOT or an attach pointer, that no row continues (a
// row recording it as its parent_id; under flag D, as its predecessor),
// and that the session has not merged.
func (n *navigation) branchList() []string {
	merged := map[string]bool{}
	for _, v := range n.st.Meta.Get("merged_heads").A {
		merged[v.Str()] = true
	}
	continued := map[string]bool{}
	if n.d && n.preds != nil {
		for _, nd := range n.st.Nodes() {
			if p, ok := n.preds.Of(nd.ID); ok {
				continued[p] = true
			}
		}
	}
	var out []string
	for _, nd := range n.st.Nodes() {
		switch {
		case nd.IsRoot(), nd.CalledBy != "", nd.Meta("function").Str() == "attach", merged[nd.ID]:
		case n.d && continued[nd.ID], !n.d && len(n.st.ConvChildren(nd.ID)) > 0:
		default:
			if _, ok := n.byID[nd.ID]; ok {
				out = append(out, nd.ID)
			}
		}
	}
	return out
}
