package webui

import (
	"slices"

	"sessiondag/impl/adapter"
	"sessiondag/impl/flags"
	"sessiondag/impl/history"
	"sessiondag/impl/lane"
	"sessiondag/impl/node"
	"sessiondag/impl/store"
)

// Loaded is what handle_load_session computes for the browser (legacy §3.5).
type Loaded struct {
	SessionID    string
	StoredHead   string // the index head, before the fix-up
	HeadID       Head   // after the fix-up; none when there is no head
	FallbackUsed bool   // get_branch replaced the linear_history chain
	Messages     []*adapter.Message
	All          []*adapter.Message
	Chain        []*adapter.Message
	// Linear is the chain before the get_branch fallback.
	Linear []*adapter.Message
	// BeforeCards is the chain before the runtime-card pass (for the
	// property that the pass never drops a user row).
	BeforeCards []*adapter.Message
}

// reader is one load's inputs: the session, its flag set and the pointer
// rules that follow from it.
type reader struct {
	s     *store.Store
	fl    flags.Set
	rules Rules
	preds *lane.Preds
	maps  bool // look rows up through maps keyed by id, never by position
}

func newReader(s *store.Store, fl flags.Set) *reader {
	r := &reader{s: s, fl: fl}
	if fl.Has(flags.A) {
		r.preds = lane.PredsOf(s)
	}
	r.rules = RulesFor(fl, r.preds)
	return r
}

// Load runs the load pipeline over a session under a flag set.
func Load(s *store.Store, fl flags.Set) *Loaded { return newReader(s, fl).load() }

// LoadByMaps is Load through maps keyed by id, as a load of a store with
// duplicate ids runs: no per-session columns, nothing looked up by
// position, no folded copies kept. It is the reference the position-based
// load is checked against (props TestChecks/load-columns).
func LoadByMaps(s *store.Store, fl flags.Set) *Loaded {
	r := newReader(s, fl)
	r.maps = true
	return r.load()
}

func (r *reader) load() *Loaded {
	s := r.s
	raw, all, allIdx := r.aggregated()
	l := &Loaded{SessionID: s.ID, StoredHead: s.Head(), Messages: raw, All: all}

	// Steps 3–4: the head, then its fix-up.
	head := startHead(s.Head(), all)
	head.id = r.fixHead(head.id, raw, allIdx)

	// Steps 5–6: the chain, then R's "incomplete" fallback.
	var chain []*adapter.Message
	switch {
	case r.walksPreds() && head.walkable():
		head, chain = r.predChain(head.id, allIdx)
	case head.walkable():
		chain = history.LinearBy(allIdx.get, len(all), head.id, history.ParentEdge)
	default:
		chain = slices.Clone(all)
	}
	l.HeadID = head
	l.Linear = chain
	trigger := len(chain) < len(all)
	if !r.fl.Has(flags.C) && trigger {
		if br := r.branch(""); len(br) > len(chain) {
			chain = br
			l.FallbackUsed = true
		}
	}
	chain = r.splice(chain, allIdx.withKind(kindAttach), r.attachParentOf, r.attachGrouped)
	chain = r.splice(chain, allIdx.withKind(kindRuntime), r.runtimeRowParentOf, nil)
	l.BeforeCards = chain
	chain = r.rules.rebuildCards(chain, allIdx, NewTreeIndex(s))
	l.Chain = r.siblingInfo(chain, allIdx)
	allIdx.release()
	return l
}

// startHead is step 3: the stored head, else the last message's id, else
// none (R: meta head_id or the tip of all, None when all is empty).
func startHead(stored string, all []*adapter.Message) Head {
	switch {
	case stored != "":
		return HeadAt(stored)
	case len(all) > 0:
		return HeadAt(all[len(all)-1].ID)
	}
	return Head{}
}

// walksPreds reports whether the chain walks flag A's predecessors (flag B).
func (r *reader) walksPreds() bool { return r.rules.Walks }

// predChain is flag B's chain: the predecessor path from the head's
// conversation anchor, through rewound nodes, shown as the aggregated rows
// on it. The head becomes that anchor (none when it has none, e.g. an
// orphan tool row).
func (r *reader) predChain(head string, allIdx rowIndex) (Head, []*adapter.Message) {
	ids := r.preds.Walk(head)
	chain := make([]*adapter.Message, 0, len(ids))
	for _, id := range ids {
		if m, ok := allIdx.get(id); ok {
			chain = append(chain, m)
		}
	}
	if len(ids) == 0 {
		return Head{}, chain // the head stands for no conversation row
	}
	return HeadAt(ids[len(ids)-1]), chain
}

// The slots of a node's memo (store.Memo) this package fills.
const (
	slotMessage   = iota // the adapter's message
	slotCorrected        // flag A's variant of it (*correctedMemo)
)

// messages is get_messages: the adapter over every node in append order,
// ROOT and rewound nodes skipped; under flag A conversation rows show their
// predecessor as parent_id.
func (r *reader) messages() []*adapter.Message {
	nodes := r.s.Nodes()
	out := make([]*adapter.Message, 0, len(nodes))
	for i, n := range nodes {
		if !r.s.Hidden(i) {
			out = append(out, r.messageAt(i, n))
		}
	}
	return out
}

// toMessages is messages over some of the stored nodes.
func (r *reader) toMessages(nodes []*node.Node) []*adapter.Message {
	out := make([]*adapter.Message, 0, len(nodes))
	for _, n := range nodes {
		if i := r.posOf(n); !r.s.Hidden(i) {
			out = append(out, r.messageAt(i, n))
		}
	}
	return out
}

// posOf is the position of a stored node: its id's, unless a rebuild kept
// a later node with the same id.
func (r *reader) posOf(n *node.Node) int {
	nodes := r.s.Nodes()
	if i, ok := r.s.Pos(n.ID); ok && nodes[i] == n {
		return i
	}
	for i := range nodes {
		if nodes[i] == n {
			return i
		}
	}
	panic("webui: node not in its store") // the walks return stored nodes only
}

// messageAt is the message of the node at position i. The adapter's
// message is computed once per node and shared by every later load
// (nothing changes it: readers copy before they add keys); so is flag A's
// corrected variant.
func (r *reader) messageAt(i int, n *node.Node) *adapter.Message {
	memo := r.s.MemoAt(i)
	m := memo.LoadOrMake(slotMessage, func() any {
		m := adapter.ToMessage(r.s.ID, n, r.s.ParentReads)
		m.Pos = int32(i)
		return m
	}).(*adapter.Message)
	if r.preds != nil {
		if p, ok := r.preds.At(i); ok {
			m = corrected(memo, m, p)
		}
	}
	return m
}

// correctedMemo is a message with flag A's predecessor as parent_id.
type correctedMemo struct {
	pred string
	msg  *adapter.Message
}

// corrected is the message with flag A's predecessor as parent_id. A
// node's predecessor changes only when a node before it is replaced; the
// memo is checked against it.
func corrected(memo *store.Memo, m *adapter.Message, pred string) *adapter.Message {
	if c, _ := memo.Load(slotCorrected).(*correctedMemo); c != nil && c.pred == pred {
		return c.msg
	}
	c := m.Corrected(pred)
	memo.Store(slotCorrected, &correctedMemo{pred: pred, msg: c})
	return c
}

// branch is get_branch(head) as messages: R's walk, or the predecessor walk
// under flag B.
func (r *reader) branch(head string) []*adapter.Message {
	var preds *lane.Preds
	if r.walksPreds() {
		preds = r.preds
	}
	return r.toMessages(history.BranchWalk(r.s, head, preds))
}

// Messages is get_messages with every flag off.
func Messages(s *store.Store) []*adapter.Message { return newReader(s, flags.Off).messages() }

// ShownHead is the head a browser holds once it loads the session with its
// head on id (R's handle_load_session sets the conversation's head so):
// step 4's fix-up, a head on a row the aggregation folds (a tool row) climbs
// to the row shown. No chain is walked.
func ShownHead(s *store.Store, fl flags.Set, id string) string {
	r := newReader(s, fl)
	raw, _, allIdx := r.aggregated()
	return r.fixHead(id, raw, allIdx)
}

// TipHead is the head a browser holds once it loads a session that has no
// head stored and no conversation in the server: the last message shown
// (steps 3 and 4; R's head_or_tip), "" for an empty session.
func TipHead(s *store.Store, fl flags.Set) string {
	r := newReader(s, fl)
	raw, all, allIdx := r.aggregated()
	return r.fixHead(startHead("", all).id, raw, allIdx)
}

// fixHead is step 4: a head that is not a shown row (a folded tool row after
// a crash, say) climbs its edge, at most 100 hops, to the first id that is
// shown; if none is reached the head is kept.
func (r *reader) fixHead(head string, raw []*adapter.Message, allIdx rowIndex) string {
	if head == "" {
		return head
	}
	if _, ok := allIdx.get(head); ok {
		return head
	}
	rawIdx := history.IndexByID(raw)
	cur := head
	for hop := 0; hop < 100; hop++ {
		m, ok := rawIdx[cur]
		if !ok {
			break
		}
		p := r.rules.fixEdge(m)
		if p == "" || p == cur {
			break
		}
		if _, ok := allIdx.get(p); ok {
			return p
		}
		cur = p
	}
	return head
}

// attachParentOf selects attach pointers for step 7 and says where they go.
func (r *reader) attachParentOf(m *adapter.Message) (string, bool) {
	if m.Function != "attach" {
		return "", false
	}
	return r.rules.attachParent(m), true
}

// attachGrouped reports whether an attach row on a predecessor chain is
// placed with its anchor's other attach rows, right after the anchor in seq
// order, rather than where the walk reached it: it is when the walk reached
// it from its anchor, so that a conversation continued from an attach row
// (a dispatch parented on it) does not put it ahead of its elders, and a
// rewound anchor hides it as it hides the others. Only an attach row the
// walk starts from keeps its place. Rows spliced after it still go there.
func (r *reader) attachGrouped(m *adapter.Message) bool {
	return r.walksPreds() && m.Function == "attach" && m.IsConv && r.walkedTo(m.Pred)
}

// walkedTo reports whether the predecessor walk continues to pred: it does
// to every stored id but ROOT (lane.Preds.Walk).
func (r *reader) walkedTo(pred string) bool {
	if pred == "" || pred == node.RootID {
		return false
	}
	_, ok := r.s.Get(pred)
	return ok
}

// runtimeRowParentOf selects legacy runtime status rows for step 8.
func (r *reader) runtimeRowParentOf(m *adapter.Message) (string, bool) {
	if !m.RuntimeRow {
		return "", false
	}
	return r.rules.runtimeRowParent(m), true
}

// splice puts rows that are not on the chain right after their parent when
// the parent is, ordered by timestamp as R does (steps 7 and 8), or under
// flag B in the order they were written. rows are the
// aggregated rows in order, or those of them parentOf may select. A chain
// row that grouped (may be nil) selects is moved the same way: shown only
// after its parent, where the rows spliced after it still follow its place.
func (r *reader) splice(chain, rows []*adapter.Message, parentOf func(*adapter.Message) (string, bool), grouped func(*adapter.Message) bool) []*adapter.Message {
	moves := func(m *adapter.Message) bool { return grouped != nil && grouped(m) }
	inChain := make(map[string]struct{}, len(chain))
	moved := false
	for _, m := range chain {
		inChain[m.ID] = struct{}{}
		moved = moved || moves(m)
	}
	pending := map[string][]*adapter.Message{}
	for _, m := range rows {
		p, ok := parentOf(m)
		if !ok || p == "" {
			continue
		}
		if _, on := inChain[m.ID]; on && !moves(m) {
			continue
		}
		if _, on := inChain[p]; on {
			pending[p] = append(pending[p], m)
		}
	}
	if len(pending) == 0 && !moved {
		return chain
	}
	order := byTimestamp
	if r.walksPreds() {
		order = inListOrder(rows)
	}
	out := make([]*adapter.Message, 0, len(chain)+len(pending))
	for _, m := range chain {
		if !moves(m) {
			out = append(out, m)
		}
		if extra, ok := pending[m.ID]; ok {
			slices.SortStableFunc(extra, order)
			out = append(out, extra...)
			delete(pending, m.ID) // a duplicate chain id gets its rows once
		}
	}
	return out
}

// inListOrder orders rows as they stand in list: the order they were
// written in (seq), which the intended conversation follows where R sorts
// by the wall clock (timestamps need not grow with seq).
func inListOrder(list []*adapter.Message) func(a, b *adapter.Message) int {
	at := make(map[string]int, len(list))
	for i := len(list) - 1; i >= 0; i-- {
		at[list[i].ID] = i
	}
	return func(a, b *adapter.Message) int { return at[a.ID] - at[b.ID] }
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

// Arrows are where a browser's sibling arrows lead over a load's rows
// (legacy §3.8: sibling arrows jump to deepest_leaf), under the sibling rule
// of its flag set.
func Arrows(fl flags.Set, all []*adapter.Message) *history.Family {
	return history.NewFamily(all, RulesFor(fl, nil).siblingKey)
}

// siblingInfo is step 10: sibling position over the aggregated list, the
// deepest leaf of each neighbouring sibling, and an attach row's embed
// statistics from the context commit it names. Chain rows are copied.
func (r *reader) siblingInfo(chain []*adapter.Message, allIdx rowIndex) []*adapter.Message {
	fam := allIdx.siblings(r.rules.siblingKey)
	out := adapter.CopyAll(chain, 6)
	for i, row := range chain {
		c := out[i]
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
		withEmbedStats(r.s, c)
	}
	return out
}
