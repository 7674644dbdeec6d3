package lane

import (
	"slices"
	"sync"
	"sync/atomic"

	"sessiondag/impl/node"
	"sessiondag/impl/store"
)

// Preds is flag A's conversation predecessor of every conversation-lane node
// of a session: the one its writer stored (metadata.predecessor), or for
// legacy nodes one derived from what the legacy fields say. Roots map to
// "ROOT". Nodes outside the conversation lane have none. Values are kept by
// store position; on a store with duplicate ids (a corrupt rebuild) an id
// stands for its last node.
type Preds struct {
	s    *store.Store
	n    int          // the first n positions are derived
	pred []string     // by position
	conv []bool       // by position: a conversation-lane node
	from []*node.Node // by position: the node derived from
	prev string       // the running head after n nodes
	// spawn is the /spawn whose attach pointer has not been written yet
	// after n nodes (see spawnOpen).
	spawn spawnOpen
	// epoch names the derivation: extending keeps it, deriving afresh
	// takes a new one, so a reader that cached values by position
	// under one epoch knows they still hold for those positions.
	epoch uint64

	// missing holds the ids a derivation looked up and did not find: when
	// one of them is appended later, extending would differ from deriving
	// afresh, so the cache derives afresh.
	missing map[string]struct{}
	// waiting holds the user turns derived as unanswered: when a node that
	// answers one is appended, the derivation from that turn on no longer
	// holds, and extending derives again from there.
	waiting map[string]turn
	// ending holds, by reply id, the task pointers derived while the web
	// reply whose tool call ran the task was still running: when the reply
	// is updated to an end, its turn's end set the head back on it, and
	// the derivation from the pointer on no longer holds (see noteTaskEnd).
	ending map[string]turn
}

// turn is a waiting turn's position and the running head and open /spawn
// before it.
type turn struct {
	pos   int
	prev  string
	spawn spawnOpen
}

// spawnOpen is a /spawn command row whose attach pointer is still to come:
// its sub-agent's rows (all of them at once, or a pending turn's one by
// one) stand between the two. Rooted is the older writers' form (the
// sub-agent's user called by ROOT), whose pointer leaves the head on the
// sub-agent's reply.
type spawnOpen struct {
	cmd    string
	rooted bool
}

// Derivation rules for legacy nodes (no stored predecessor), settled by the
// properties (model/README.md, "Legacy derivation"):
//   - a retry or edit (forked_from) takes the predecessor of the turn it
//     reruns;
//   - a recorded metadata.parent_id is trusted: the predecessor is its
//     anchor ("ROOT" stays a root) among the nodes stored before the row
//     (see earlier);
//   - a root that cannot be a deliberate fork continues the conversation
//     row the head was on: the last one before it in seq order that moved
//     the head (see movesHead; ROOT's creation resets it): manual and
//     script runs, caller-less rows, web users typed while the browser had
//     no head, adapter-written users without a parent_id key;
//   - a root that the data marks as a fork stays one: answered dispatcher
//     users without a parent (parent=None), sub-agent roots (source
//     agent_spawn), adapter-written users with an explicit null parent_id;
//   - a dispatcher root fork that never got an answer (no node names it as
//     its caller, its recorded parent or the turn it reruns) is not a fork
//     yet, its turn never ran: it continues where the head was, and counts
//     as moving the head, since a retry may have made it the head without
//     a trace. Where the data cannot tell, a step keeps the message the
//     user wrote visible (model/README.md, "Legacy derivation", rule 6);
//     once an answer arrives it is a fork again;
//   - a web turn's reply that failed leaves the head on its user's message
//     (headAfter), or on the card that message stands in (an ask answered
//     in a run);
//   - a /spawn's sub-agent rows move the head as any turn's do, and its
//     attach pointer, as R writes it, sets the head back on the command
//     row (R's _run_spawn; a spawn turn's end): the pointer is the first
//     attach with a caller after the command row that names this session,
//     however many rows the sub-agent's turn wrote (spawnOpen);
//   - a task's attach pointer (no caller; its parent the reply whose tool
//     call ran the task) leaves the head where the sub-agent's rows put it
//     until that reply's turn ends: its end (done, cancel, a folded error)
//     sets the head back on the reply, or on its user for a failed one
//     (noteTaskEnd). A reply still running (a crash cut its turn off)
//     never did, but an older writer's tool row of it (legacyTool), a
//     caller-less append, put the head back on it; a pointer with no
//     caller whose parent is no reply is a dict the message adapter
//     appended, which moved the head to it;
//   - attach pointers hang off their caller (the fork anchor; a dict the
//     message adapter appended with neither caller nor parent, where the
//     head was), a /spawn's whose caller is ROOT off its command row, one
//     whose caller is its command's recorded parent_id off the command's
//     predecessor (commandParent).
//
// All but the answer rule read only the nodes before a node; that one reads
// the store's indexes (see answered), and the cache derives again from a
// turn when its answer arrives.
func NewPreds(s *store.Store) *Preds {
	p := &Preds{s: s, prev: node.RootID, missing: map[string]struct{}{}, waiting: map[string]turn{},
		ending: map[string]turn{}, epoch: epochs.Add(1)}
	return p.extend(s, nil)
}

// extend derives the nodes of s appended since p was made, and again from
// the earliest of from (when not nil) and the waiting turns one of them
// answers, returning a new Preds that shares p's arrays: p's own length
// bounds what p reads, so a load still holding p is not disturbed.
func (p *Preds) extend(s *store.Store, from *turn) *Preds {
	q := *p
	q.s = s
	nodes := s.Nodes()
	t, restarted := q.note(nodes[q.n:])
	if from != nil && (!restarted || from.pos < t.pos) {
		t, restarted = *from, true
	}
	if restarted {
		q.restart(t)
	}
	q.pred = slices.Grow(q.pred, len(nodes)-q.n)
	q.conv = slices.Grow(q.conv, len(nodes)-q.n)
	q.from = append(q.from, nodes[q.n:]...)
	for i := q.n; i < len(nodes); i++ {
		n := nodes[i]
		pred, conv := "", false
		switch {
		case n.IsRoot():
			// Creating ROOT moves the head to it: the next turn starts
			// a conversation rather than continuing an earlier script.
			q.prev = node.RootID
		case IsConv(n, q.get):
			before := turn{pos: i, prev: q.prev, spawn: q.spawn}
			waits := q.waits(n)
			if waits {
				q.waiting[n.ID] = before
			}
			pred, conv = q.derive(i, n, q.prev, waits), true
			if waits || movesHead(n) {
				q.prev = headAfter(n)
				if q.prev != n.ID {
					// the head went back to the turn's user: a row inside a
					// function's card (an ask answered in a run) stands for
					// the card in the conversation
					q.prev = Anchor(q.prev, q.get)
				}
			}
			q.noteSpawn(n)
			q.noteTaskEnd(i, n, before)
		case legacyTool(n):
			// R's append of a caller-less row moves the head to it, and a
			// tool row stands for its reply: after a task's turn the head
			// is back on the reply still running (a crash may cut it off)
			q.prev = Anchor(n.Metadata.Get("called_by").Str(), q.earlier(i))
		}
		q.pred = append(q.pred, pred)
		q.conv = append(q.conv, conv)
	}
	if restarted {
		q.epoch = q.keptEpoch(p, t.pos)
	}
	q.n = len(nodes)
	return &q
}

// note returns the earliest waiting turn that one of nodes, about to be
// derived, answers.
func (p *Preds) note(nodes []*node.Node) (turn, bool) {
	var first turn
	found := false
	if len(p.waiting) == 0 {
		return first, found
	}
	for _, n := range nodes {
		for _, id := range [3]string{n.CalledBy, n.ParentID(), n.Metadata.Get("forked_from").Str()} {
			if t, ok := p.waiting[id]; ok && id != "" && (!found || t.pos < first.pos) {
				first, found = t, true
			}
		}
	}
	return first, found
}

// restart makes p derive again from turn t on. The arrays are cut to a
// capacity of t.pos, so appending copies them and a load still holding the
// Preds p was copied from is not disturbed.
func (p *Preds) restart(t turn) {
	p.pred, p.conv, p.from = p.pred[:t.pos:t.pos], p.conv[:t.pos:t.pos], p.from[:t.pos:t.pos]
	p.n, p.prev, p.spawn = t.pos, t.prev, t.spawn
	waiting := make(map[string]turn, len(p.waiting))
	for id, w := range p.waiting {
		if w.pos < t.pos {
			waiting[id] = w
		}
	}
	p.waiting = waiting
	ending := make(map[string]turn, len(p.ending))
	for id, e := range p.ending {
		if e.pos < t.pos {
			ending[id] = e
		}
	}
	p.ending = ending
}

// keptEpoch is the epoch of a derivation restarted at position from: old's,
// when every position old had derived came out the same (readers' values
// by position still hold); else a new one.
func (p *Preds) keptEpoch(old *Preds, from int) uint64 {
	for i := from; i < old.n; i++ {
		if p.pred[i] != old.pred[i] || p.conv[i] != old.conv[i] {
			return epochs.Add(1)
		}
	}
	return old.epoch
}

// waits reports whether n is a legacy dispatcher root fork (a command-line
// turn under ROOT without a recorded parent or a stored predecessor) that
// no node answers yet. A dispatcher turn with a recorded parent never
// counts as moving the head: its branch is not where later rows go unless
// a retry moved the head there, and R does not show it at a later head
// either (model/README.md, "Legacy derivation").
func (p *Preds) waits(n *node.Node) bool {
	if n.Role != node.RoleUser || n.CalledBy != node.RootID || n.Metadata.Get("source").Str() != "cli" {
		return false
	}
	if n.Metadata.Get("parent_id").Truthy() || n.Metadata.Get("predecessor").Truthy() {
		return false
	}
	return !p.answered(n.ID)
}

// answered reports whether a node names the turn id as its caller or its
// recorded parent (a reply, a standalone error row) or as the turn it reruns
// (a retry or edit row), by the store's indexes.
func (p *Preds) answered(id string) bool {
	return len(p.s.CallChildren(id)) > 0 || len(p.s.ConvChildren(id)) > 0 || len(p.s.Reruns(id)) > 0
}

var epochs atomic.Uint64

// Epoch names the derivation p extends (see Preds.epoch).
func (p *Preds) Epoch() uint64 { return p.epoch }

// get is the store's lookup, remembering the ids it did not find. Only
// damaged data makes it matter: the original's writers never write a row
// before the caller IsConv climbs to (TestPredsOfFollowsALaterCaller).
func (p *Preds) get(id string) (*node.Node, bool) {
	n, ok := p.s.Get(id)
	if !ok {
		p.missing[id] = struct{}{}
	}
	return n, ok
}

// predsCache is a session's Preds, kept in its shared memo and extended
// as nodes are appended.
type predsCache struct {
	mu  sync.Mutex
	gen uint64
	cur *Preds
}

// sharedSlot is the slot of the store's shared memo that holds the cache.
const sharedSlot = 0

// PredsOf returns the predecessors of a session, derived once and then
// extended over the nodes appended since: a node's predecessor depends
// only on the nodes before it, except where the derivation looked up an
// id not yet stored (derived afresh) or a turn waited for its answer
// (derived again from that turn), and an update of a node (a new store
// generation) starts over. The result equals NewPreds(s)
// (TestPredsOfFollowsUpdates, TestPredsOfFollowsAnswers, props
// TestChecks/load-columns).
func PredsOf(s *store.Store) *Preds {
	c := s.Shared().LoadOrMake(sharedSlot, func() any { return &predsCache{} }).(*predsCache)
	c.mu.Lock()
	defer c.mu.Unlock()
	gen := s.Generation()
	var from *turn
	if c.cur != nil && c.gen != gen && c.cur.n <= s.Len() && c.cur.sameLanes(s, c.gen) {
		// the updates left every derivation as it was, but where a reply
		// whose turn ran a task ended
		from, c.gen = c.cur.ended(s, c.gen), gen
	}
	if c.cur == nil || c.gen != gen || c.cur.n > s.Len() || c.stale(s) {
		c.cur, c.gen = NewPreds(s), gen
		return c.cur
	}
	if c.cur.n < s.Len() || from != nil {
		c.cur = c.cur.extend(s, from)
	}
	return c.cur
}

// sameLanes reports whether every node replaced since generation gen kept
// what the derivation reads of it (then no predecessor changed), and takes
// the new nodes as derived from. Updates in practice set a run's status or
// mark a node rewound, which the derivation never reads.
func (p *Preds) sameLanes(s *store.Store, gen uint64) bool {
	nodes := s.Nodes()
	for _, i := range s.UpdatedSince(gen) {
		if int(i) < p.n && !sameLane(p.from[i], nodes[i]) {
			return false
		}
	}
	for _, i := range s.UpdatedSince(gen) {
		if int(i) < p.n {
			p.from[i] = nodes[i]
		}
	}
	return true
}

// ended returns the earliest task pointer whose reply, still running when
// the pointer was derived, has been updated to an end since generation
// gen, or nil.
func (p *Preds) ended(s *store.Store, gen uint64) *turn {
	if len(p.ending) == 0 {
		return nil
	}
	var first *turn
	nodes := s.Nodes()
	for _, i := range s.UpdatedSince(gen) {
		n := nodes[i]
		if t, ok := p.ending[n.ID]; ok && !running(n) && (first == nil || t.pos < first.pos) {
			first = &t
		}
	}
	return first
}

// laneKeys are the metadata keys IsConv, Anchor, the derivation and
// movesHead read.
var laneKeys = []string{"display", "function", "role", "called_by", "predecessor", "spawn_root", "forked_from", "parent_id", "source"}

// sameLane reports whether two versions of a node agree on everything the
// derivation reads.
func sameLane(a, b *node.Node) bool {
	if a.ID != b.ID || a.Role != b.Role || a.CalledBy != b.CalledBy || absent(a.Input) != absent(b.Input) ||
		headAfter(a) != headAfter(b) {
		return false
	}
	for _, k := range laneKeys {
		if !node.Equal(a.Meta(k), b.Meta(k)) {
			return false
		}
	}
	return true
}

// absent is IsConv's test of a user node's input.
func absent(v node.Value) bool { return v.K == node.Null || v.K == node.Missing }

// stale reports whether a node appended since the last derivation has an
// id an earlier derivation looked for in vain.
func (c *predsCache) stale(s *store.Store) bool {
	if len(c.cur.missing) == 0 {
		return false
	}
	for _, n := range s.Nodes()[c.cur.n:] {
		if _, ok := c.cur.missing[n.ID]; ok {
			return true
		}
	}
	return false
}

// derive is the predecessor of the conversation-lane node n at position i;
// prev is the running head, waits whether n is a turn without an answer.
func (p *Preds) derive(i int, n *node.Node, prev string, waits bool) string {
	if v := n.Metadata.Get("predecessor"); v.K == node.String && v.S != "" {
		return v.S
	}
	if n.Metadata.Get("spawn_root").Truthy() {
		return node.RootID
	}
	// A retry or edit is a sibling of the turn it reruns: its copied
	// parent_id may be only the called_by-derived "ROOT" of that turn. A row
	// that carries forked_from but records another parent (compaction's
	// copy of a rerun, chained from the row before it) is not one.
	if src := n.Metadata.Get("forked_from"); src.K == node.String {
		if j, ok := p.s.Pos(src.S); ok && j < i && p.conv[j] && copiesParentOf(n, p.s.Nodes()[j]) {
			return p.pred[j]
		}
	}
	if par := n.Metadata.Get("parent_id"); par.Truthy() {
		if par.K != node.String {
			return node.RootID
		}
		return Anchor(par.S, p.earlier(i))
	}
	if n.Metadata.Get("function").Str() == "attach" {
		switch caller := n.CalledBy; caller {
		case node.RootID:
			return p.spawnCommand()
		case "":
			// a dict handed to the message adapter with no edge (a user's
			// row has none, whatever called_by key its metadata keeps):
			// where the head was
			return prev
		default:
			if pred, ok := p.commandParent(caller); ok {
				return pred
			}
			return Anchor(caller, p.earlier(i))
		}
	}
	if n.Role == node.RoleUser {
		switch n.Metadata.Get("source").Str() {
		case "cli":
			if waits {
				return prev // not a fork until its turn runs
			}
			return node.RootID // a deliberate root-level fork
		case "agent_spawn":
			return node.RootID // a sub-agent root
		}
	}
	if v := n.Metadata.Get("parent_id"); v.K == node.Null && n.Role != node.RoleCode {
		// An explicit null: advance_head's root fork, or a compaction's
		// summary, which starts the chain its kept rows continue.
		return node.RootID
	}
	return prev
}

// spawnCommand is the anchor of a /spawn's attach pointer that records
// ROOT as its caller: the command's parent when the browser stood on ROOT,
// which the intent leaves out (a root is no conversation row), so the
// pointer follows the open command row itself.
func (p *Preds) spawnCommand() string {
	if p.spawn.cmd == "" {
		return node.RootID
	}
	return p.spawn.cmd
}

// commandParent is the anchor of the open /spawn's attach pointer whose
// caller is the command row's recorded parent_id, as R writes it: the
// command's predecessor. That parent is the browser's head, which need not
// be the command's place in the conversation (a row written while the
// browser stood elsewhere); a command written with flag A records where
// it went, and a pointer written after a rollback must follow it.
func (p *Preds) commandParent(caller string) (string, bool) {
	if p.spawn.cmd == "" {
		return "", false
	}
	j, ok := p.s.Pos(p.spawn.cmd)
	if !ok || j >= len(p.pred) || !p.conv[j] {
		return "", false
	}
	if par := p.s.Nodes()[j].Metadata.Get("parent_id"); par.K != node.String || par.S != caller {
		return "", false
	}
	return p.pred[j], true
}

// noteSpawn follows the open /spawn over the conversation row n, just
// derived: a command row opens one; an older writer's sub-agent user
// (called by ROOT) marks it rooted; its attach pointer (an attach with a
// caller: a task's has none) closes it and, as R writes it, sets the head
// back on the command row.
func (p *Preds) noteSpawn(n *node.Node) {
	md := n.Metadata
	switch {
	case n.Role == node.RoleUser && n.CalledBy == node.RootID && md.Get("function").Str() == "task":
		p.spawn = spawnOpen{cmd: n.ID}
	case p.spawn.cmd == "":
	case n.Role == node.RoleUser && n.CalledBy == node.RootID && md.Get("source").Str() == "agent_spawn":
		p.spawn.rooted = true
	case md.Get("function").Str() == "attach" && n.CalledBy != "" && spawnPointer(md, p.s.ID):
		if !p.spawn.rooted {
			p.prev = p.spawn.cmd
		}
		p.spawn = spawnOpen{}
	}
}

// spawnPointer reports whether an attach with a caller, whose metadata is
// md, can be the open /spawn's pointer: it names this session (sid), whose
// sub-agent it ran. A dict handed to the message adapter that names
// another is not, though its caller be the command row: a crash may have
// cut the sub-agent's turn off before its pointer. Only what no update
// changes is read (an async task's pointer gets its head later), so a
// derivation extended row by row gives what one from scratch gives.
func spawnPointer(md *node.Obj, sid string) bool {
	at := md.Get("attach")
	if at.K != node.Object {
		return true
	}
	s := at.O.Get("session_id")
	return s.K != node.String || s.S == sid
}

// noteTaskEnd follows a task's attach pointer, the node at position i just
// derived (before is the derivation's state ahead of it): an attach without
// a caller whose recorded parent is the reply whose tool call ran the task.
// That reply's turn ends after the pointer, and its end (R's finish of a
// web or sub-agent turn: set_head on the reply) sets the head back from
// the sub-agent's rows onto the reply, or onto its user for a failed one
// (headAfter). A reply still running has not ended, and the cache derives
// again from the pointer once it does (ending). A caller-less pointer whose
// parent is no reply is no task's: a dict handed to the message adapter,
// whose caller-less append moved the head to it.
func (p *Preds) noteTaskEnd(i int, n *node.Node, before turn) {
	if n.CalledBy != "" || n.Metadata.Get("function").Str() != "attach" {
		return
	}
	r, ok := p.earlier(i)(n.Metadata.Get("parent_id").Str())
	if !ok || r.Role != node.RoleLLM {
		p.prev = n.ID
		return
	}
	if running(r) {
		if _, ok := p.ending[r.ID]; !ok {
			p.ending[r.ID] = before
		}
		return
	}
	p.prev = Anchor(headAfter(r), p.earlier(i))
}

// running reports whether a reply's turn has not ended.
func running(n *node.Node) bool { return n.Metadata.Get("status").Str() == "running" }

// copiesParentOf reports whether n records the parent a rerun of src
// copies: src's message parent_id (its metadata's, else its caller).
func copiesParentOf(n, src *node.Node) bool {
	rec := n.Metadata.Get("parent_id")
	want := src.Metadata.Get("parent_id")
	if want.K == node.Missing {
		want = node.Str(src.CalledBy)
	}
	return rec.K == node.Missing || rec.K == want.K && rec.S == want.S
}

// earlier is the lookup the derivation of the node at position i climbs
// with: the nodes stored before it. A row's recorded parent is resolved as
// the session stood when the row was written (as the writers and the
// intent resolve it then): a parent, or a caller on the climb from it,
// stored only after the row dangled at that time, and the row is a root.
// It also keeps every predecessor earlier than its row, so no derivation
// closes a cycle.
func (p *Preds) earlier(i int) Lookup { return StoredBefore(p.s, i, p.get) }

// StoredBefore is get limited to the rows s stored before position i: what
// a writer could read as it wrote the row at i. get runs first, so that a
// lookup that records what it misses sees every id asked for.
func StoredBefore(s *store.Store, i int, get Lookup) Lookup {
	return func(id string) (*node.Node, bool) {
		n, ok := get(id)
		if !ok {
			return nil, false
		}
		if j, _ := s.Pos(id); j >= i {
			return nil, false
		}
		return n, true
	}
}

// movesHead reports whether writing a conversation row made it the session's
// head, as far as the legacy fields tell: a caller-less append does, and so
// do the writers' set_head calls after web turns, replies and runs. Rows a
// dispatcher or a sub-agent writes under ROOT do not (their reply does; for
// an unanswered dispatcher root fork see waits), nor do attach pointers (the
// spawn restores the head).
// headAfter is where the head stands once n, a node that moves it, is
// written and its turn over: n, but for a web turn's reply that failed —
// the web action ends by setting the head back to the browser's, which
// its turn had put on the user's message (ops/README.md, error-folded) —
// that message, which the reply records as its parent and its caller. A
// compaction's copy of such a reply records the row before it as its
// parent, not its caller, and the compaction sets the head itself.
func headAfter(n *node.Node) string {
	md := n.Metadata
	if n.Role == node.RoleLLM && md.Get("status").Str() == "error" && md.Get("source").Str() == "web" &&
		n.CalledBy != "" && n.CalledBy != node.RootID && md.Get("parent_id").Str() == n.CalledBy {
		return n.CalledBy
	}
	return n.ID
}

// legacyTool reports whether n is an older writer's tool row: caller-less,
// its reply recorded in metadata.called_by (not a conversation row).
func legacyTool(n *node.Node) bool {
	return n.Role == node.RoleCode && n.CalledBy == "" && n.Metadata.Get("called_by").Truthy()
}

func movesHead(n *node.Node) bool {
	if n.Metadata.Get("function").Str() == "attach" {
		return false
	}
	if n.Role == node.RoleUser && n.CalledBy == node.RootID {
		src := n.Metadata.Get("source").Str()
		return src == "web" || src == ""
	}
	return true
}

// Of returns the predecessor of a conversation-lane node ("ROOT" for a
// root) and whether id is one.
func (p *Preds) Of(id string) (string, bool) {
	i, ok := p.s.Pos(id)
	if !ok {
		return "", false
	}
	return p.At(i)
}

// At is Of for the node at store position i.
func (p *Preds) At(i int) (string, bool) {
	if i >= p.n || !p.conv[i] {
		return "", false
	}
	return p.pred[i], true
}

// IsConv reports whether id is a conversation-lane node.
func (p *Preds) IsConv(id string) bool {
	_, ok := p.Of(id)
	return ok
}

// Walk follows predecessors from the anchor of head to its root, root first,
// through every node (rewound ones included); a repeat or an unknown id ends
// it. It returns the ids walked.
func (p *Preds) Walk(head string) []string {
	start := Anchor(head, p.s.Get)
	if start == node.RootID {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for cur := start; cur != "" && cur != node.RootID && !seen[cur]; {
		if _, ok := p.s.Get(cur); !ok {
			break
		}
		seen[cur] = true
		out = append(out, cur)
		next, ok := p.Of(cur)
		if !ok {
			break
		}
		cur = next
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}
