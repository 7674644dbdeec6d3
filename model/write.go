package model

// The legacy model's writing half: op script → nodes and persisted head,
// following ops/README.md (flags off) rule by rule. One case per op: first
// the validity checks, then the writes, in the README's order. Plain slices,
// the index and message memo a reader of the store would keep; the reading
// half (get_branch, get_messages) is reused on the model's own state where
// the README needs it.

import (
	"fmt"
	"strings"
	"unicode"

	"sessiondag/ops"
)

// frame is one open function (README: the frame stack).
type frame struct {
	id       string
	name     string // the function's name (R's recursion guard counts by it)
	manual   bool   // pushed by `manual`: its `end` does set_head(F)
	lastExec string // the frame's last `exec` id (for `fn via-exec`)
	// A function the open reply's model called: its name and arguments
	// (dumps), for the tool block R records of the call when it ends.
	call, input string
}

// LegacyRun is the writer state of ops/README.md for one session.
type LegacyRun struct {
	sid     string
	nodes   []*Node          // the store, in append order (= seq order)
	byID    map[string]*Node // … by id
	idx     *index           // … indexed for the reading half: nodes[:indexed]
	indexed int
	memo    *memo              // the adapter's message per node, forgotten when a node changes
	replies map[string][]*Node // nodes[:indexed] whose message is an assistant's, by its parent_id
	memHead string             // the store's in-memory head
	clock   float64            // created_at of the next new node: clock + 1.5·ticks
	ticks   int
	nextSeq int     // the seq of the next new node (a /merge skips one)
	meta    *Object // meta.json as last written: head_id is the persisted head
	applied int     // ops applied so far (`session` must be the first)
	// stopped is the server's cancel flag of the session (R's
	// _cancel_flags, webui/_pause_stop.py): the stop button sets it, and
	// only a manual run's end (forced_tool.py), an async task's start
	// (agent/task/runner.py) or the process's end clear it; a stop that
	// ends its turn without an exception leaves it set. Kept for the
	// session, as the clock is: R runs one server, and a rollout that hands
	// turns to other writers keeps the script's meaning.
	stopped bool
	// savedModel is the model meta.json records for the session, which a
	// sub-agent's reply names (agent/dispatcher/persistence.py:
	// session.get("model")): "" none yet; "provider" once a turn's
	// finalize saved the request's "p/model-x" (agent/dispatcher/finalize.py),
	// which the reply splits into model and provider; "plain" once the web
	// server saved its conversation as a web action ended (webui/server.py,
	// _save_conversation: the chat runtime's model alone). Kept on disk: a
	// crash does not clear it.
	savedModel string

	writerState               // the writer performing the ops now
	parked      []writerState // every other writer named so far, by name
}

// writerState is what one writer (a server process and the browser talking
// to it) keeps beside the store (README: the writer's state, "writer"): its
// browser's head and its turn in progress. The store, the clock and meta.json
// are the session's, shared by every writer.
type writerState struct {
	writer string // its name (ops.FirstWriter at first)

	ch     string // client head CH …
	chSet  bool   // … null while false
	chMade bool   // the server has made its conversation (R's _sessions entry) since it started
	// runtime: the conversation has its chat runtime (R's conv["runtime"]),
	// which a web action's _execute_in_context builds as it starts
	// (webui/_runtime_management.py, _get_session_runtime) and which dies
	// with the process. A retry's save writes its model (R33).
	runtime    bool
	pending    string // pending turn P ("" = none)
	pendingSrc string // its source: "web" or "cli"
	reply      string // open reply R ("" = none)
	blocks     []any  // R's blocks
	toolCalls  []any  // R's tool calls
	frames     []frame
	compacted  []string   // the rows the last compact op copied, in order
	spawn      *spawnTurn // the pending turn is a /spawn's sub-agent turn (spawn turn)

	// aborted: the open reply is a web turn's that started with the
	// session's cancel flag set (LegacyRun.stopped; webui/_execute/chat.py
	// sets the turn's cancel event), whose stream R ends, cancelled, at the
	// model's first tool call or its end.
	aborted bool
	// unheard: R's task runner ran an async task in the open web turn. It
	// registers its own cancel event under the session id as the task
	// starts and removes whatever is registered there as it ends
	// (agent/task/runner.py, _run_one; webui/_pause_stop.py), so the turn's
	// own event is gone: a stop sets the session's flag but reaches no
	// stream, and the turn ends completed as the model ends it.
	unheard bool
}

// NewLegacy starts an empty session (no nodes, meta written, CH null).
func NewLegacy(sessionID string) *LegacyRun {
	r := &LegacyRun{byID: map[string]*Node{}, idx: newIndex(nil), memo: newMemo(),
		replies: map[string][]*Node{}, clock: 1782000000.0, writerState: writerState{writer: ops.FirstWriter}}
	r.setSession(sessionID)
	return r
}

// setSession is the `session` op's meta (README: session).
func (r *LegacyRun) setSession(id string) {
	r.sid = id
	r.meta = newObject("id", id, "agent_id", "main", "title", "generated", "source", "web",
		"created_at", Float(1782000000.0), "updated_at", Float(1782000000.0), "head_id", "",
		"status", "idle", "branches", &Object{}, "merged_heads", []any{})
}

// Legacy runs a script and returns the view after every op.
func Legacy(script []ops.Op) ([]View, error) {
	r := NewLegacy(ops.DefaultSession)
	var views []View
	for i, op := range script {
		if err := r.Apply(op); err != nil {
			return views, fmt.Errorf("op %d (%s): %w", i+1, ops.Format(op), err)
		}
		views = append(views, r.View())
	}
	return views, nil
}

// ----------------------------------------------------------- state access

// Session is the store as a reader sees it: copies of the nodes in append
// order, HeadID = the persisted head (meta head_id), Meta = meta.json.
func (r *LegacyRun) Session() *Session {
	s := &Session{ID: r.sid, HeadID: r.meta.Str("head_id"), Meta: deepCopy(r.meta).(*Object)}
	for _, n := range r.nodes {
		s.Nodes = append(s.Nodes, n.copy())
	}
	return s
}

// View is LegacyView(Session()), the views at the persisted head, read
// through the index and messages the writer keeps instead of rebuilt from
// copies (TestRunViewIsLegacyViewOfSession holds it to that).
func (r *LegacyRun) View() View { return r.reading(r.meta.Str("head_id")).view() }

// ClientHead is CH; ok is false while it is null.
func (r *LegacyRun) ClientHead() (string, bool) {
	if !r.chMade {
		return r.memHead, r.memHead != ""
	}
	return r.ch, r.chSet
}

// ConversationMade reports whether the writer's server has made its
// conversation of the session (README: conversation): until it has, CH is
// the store's head as the next web op would read it, and no op moves it.
func (r *LegacyRun) ConversationMade() bool { return r.chMade }

// Rooted reports whether the session holds ROOT: until it does, the
// writers' ensureRoot creates it on the next web turn, /spawn or run, and
// the head moves to it before the row is written.
func (r *LegacyRun) Rooted() bool { return r.byID["ROOT"] != nil }

// InMemoryHead is the store's in-memory head ("" before any).
func (r *LegacyRun) InMemoryHead() string { return r.memHead }

// ShownHead is the in-memory head as the load shows it (step 4): a head on
// a row the aggregation folds (a tool row, a call of a reply) climbs to the
// row it folds into. Only a row with a caller can fold, so any other head
// is read without aggregating the session.
func (r *LegacyRun) ShownHead() string {
	n := r.byID[r.memHead]
	if n == nil || n.Role != "code" || n.CalledBy == "" || n.CalledBy == "ROOT" {
		return r.memHead
	}
	rd := r.reading(r.memHead)
	raw := rd.messages()
	return fixHead(r.memHead, raw, indexByID(aggregate(raw, rd.memo)))
}

// tipHead is the head the load takes with none stored and no conversation
// made: the last message it shows ("" for none; legacy §3.5 step 3).
func (r *LegacyRun) tipHead() string {
	rd := r.reading("")
	all := aggregate(rd.messages(), rd.memo)
	if len(all) == 0 {
		return ""
	}
	return msgID(all[len(all)-1])
}

// Stopped reports whether a stop left the session's cancel flag set, so
// that the next web turn's stream is aborted.
func (r *LegacyRun) Stopped() bool { return r.stopped }

// CallerPending reports whether the node id names a caller that is not
// written yet (an orphan whose caller a later op writes).
func (r *LegacyRun) CallerPending(id string) bool {
	n := r.byID[id]
	return n != nil && n.CalledBy != "" && n.CalledBy != "ROOT" && r.byID[n.CalledBy] == nil
}

// Rewound reports whether the node id is marked rewound.
func (r *LegacyRun) Rewound(id string) bool {
	n := r.byID[id]
	return n != nil && n.isRewound()
}

// NodeCount is how many nodes the store holds, ROOT included.
func (r *LegacyRun) NodeCount() int { return len(r.nodes) }

// NextSeq is the seq the next new node gets.
func (r *LegacyRun) NextSeq() int { return r.nextSeq }

// Applied is how many ops the writer has accepted: it grows by one exactly
// when Apply returns nil.
func (r *LegacyRun) Applied() int { return r.applied }

// IDsFrom lists the ids of the nodes appended at positions k and after, in
// append order: with k = NodeCount() before an op, the rows the op wrote
// (ops/README.md names each one).
func (r *LegacyRun) IDsFrom(k int) []string {
	out := make([]string, 0, max(len(r.nodes)-k, 0))
	for _, n := range r.nodes[min(k, len(r.nodes)):] {
		out = append(out, n.ID)
	}
	return out
}

// Node is a copy of the stored node with this id, nil if none: the rows an op wrote, read one at a time
// (Session copies every node).
func (r *LegacyRun) Node(id string) *Node {
	if n := r.node(id); n != nil {
		return n.copy()
	}
	return nil
}

// Meta is a copy of meta.json as last written (its head_id is the persisted
// head).
func (r *LegacyRun) Meta() *Object { return deepCopy(r.meta).(*Object) }

// Inherit is the parent a dispatcher turn that inherits records if it is
// written now (README: dispatch, INHERIT): "" when it records none. Reading
// it writes nothing.
func (r *LegacyRun) Inherit() string { return r.inherit() }

// Busy: a turn is pending, a reply is open or a function frame is open.
func (r *LegacyRun) Busy() bool { return r.pending != "" || r.reply != "" || len(r.frames) > 0 }

// pendingTurn is the pending turn's user id ("" = none).
func (r *LegacyRun) pendingTurn() string { return r.pending }

// openReply is the open reply's id ("" = none).
func (r *LegacyRun) openReply() string { return r.reply }

// waiting is the turn whose reply waits on a task turn whose sub-agent's
// reply is not open yet: a tool op then is a call of that reply (nil for
// none).
func (r *LegacyRun) waiting() *taskOuter {
	if r.reply != "" || r.spawn == nil || r.spawn.task == nil || len(r.frames) > 0 {
		return nil
	}
	return r.spawn.task
}

// callReply is the reply a tool op calls from now: the open one, else the
// one waiting on its task turn ("" for none).
func (r *LegacyRun) callReply() string {
	if w := r.waiting(); w != nil {
		return w.reply
	}
	return r.reply
}

// frameHasExec: the innermost frame has an exec (so `fn via-exec` applies).
func (r *LegacyRun) frameHasExec() bool {
	return len(r.frames) > 0 && r.frames[len(r.frames)-1].lastExec != ""
}

// openFrames lists the open function ids, outermost first.
func (r *LegacyRun) openFrames() []string {
	var out []string
	for _, f := range r.frames {
		out = append(out, f.id)
	}
	return out
}

// -------------------------------------------------------- store helpers

// node is the store's node with this id, nil if none.
func (r *LegacyRun) node(id string) *Node { return r.byID[id] }

// reading is the store as the reading half sees it with this head: the
// writer's own nodes (not copies), index and messages.
func (r *LegacyRun) reading(head string) *reading {
	return &reading{s: &Session{ID: r.sid, Nodes: r.nodes, HeadID: head, Meta: r.meta}, idx: r.index(), memo: r.memo}
}

// index brings the index and the replies up to the nodes written so far
// (a writer nobody reads keeps none).
func (r *LegacyRun) index() *index {
	for ; r.indexed < len(r.nodes); r.indexed++ {
		r.idx.add(r.nodes[r.indexed])
		r.noteReply(r.nodes[r.indexed])
	}
	return r.idx
}

// state is the store at the in-memory head (for the dispatcher's INHERIT and
// the retry climb).
func (r *LegacyRun) state() *reading { return r.reading(r.memHead) }

// message is get_messages' message with this id, nil if none (ROOT and
// rewound nodes have none). The writer's ids are unique and no metadata it
// writes has an "id", so a message's id is its node's.
func (r *LegacyRun) message(id string) *Object {
	n := r.node(id)
	if n == nil || n.isRootNode() || n.isRewound() {
		return nil
	}
	return r.memo.message(n, r.sid)
}

// lastMessage is the last message of get_messages, nil if none.
func (r *LegacyRun) lastMessage() *Object {
	for i := len(r.nodes) - 1; i >= 0; i-- {
		if m := r.message(r.nodes[i].ID); m != nil {
			return m
		}
	}
	return nil
}

// changed records that a node was updated in place: its message is made
// afresh next time.
func (r *LegacyRun) changed(n *Node) { r.memo.forget(n) }

// appendNode is the legacy append (README helpers): idempotent by id; the
// k-th new node gets seq k and created_at clock + 1.5·(ticks since the
// clock was set; 1782000000.0 + 1.5·k without a clock op); a node whose
// called_by is "" becomes the in-memory head.
func (r *LegacyRun) appendNode(id, role, name string, input, output any, calledBy string, meta *Object) {
	r.appendAt(&Node{ID: id, CreatedAt: r.now(),
		Role: role, Name: name, Input: input, Output: output, CalledBy: calledBy, Reads: []any{}, Metadata: meta})
}

// now is the clock's reading: the op clock, 1.5 s on for each node
// appended since it was set.
func (r *LegacyRun) now() Float { return Float(r.clock + 1.5*float64(r.ticks)) }

// appendAt is the legacy append of a node whose created_at is set: the next
// seq, a tick of the clock, the head moved when it has no caller.
func (r *LegacyRun) appendAt(n *Node) {
	if r.node(n.ID) != nil {
		return
	}
	n.Seq = r.nextSeq
	r.nextSeq++
	r.nodes = append(r.nodes, n)
	r.byID[n.ID] = n
	r.ticks++
	if n.CalledBy == "" {
		r.memHead = n.ID
	}
}

// noteReply records a node whose message is an assistant's under its
// parent_id (the retry's "has an assistant message"). Only llm nodes become
// assistant messages (§2.3); a message's role and parent_id come from fields
// no update touches.
func (r *LegacyRun) noteReply(n *Node) {
	if n.Role != "llm" {
		return
	}
	if m := r.memo.message(n, r.sid); m.Val("role") == "assistant" {
		if p, ok := m.Val("parent_id").(string); ok {
			r.replies[p] = append(r.replies[p], n)
		}
	}
}

// ensureRoot appends ROOT if no node has that id (its append moves the head).
func (r *LegacyRun) ensureRoot() {
	r.appendNode("ROOT", "user", "", nil, "", "", newObject("display", "root"))
}

// writeMeta persists the in-memory head.
func (r *LegacyRun) writeMeta() { r.meta.Set("head_id", r.memHead) }

// setHead sets the in-memory head and writes meta.
func (r *LegacyRun) setHead(id string) {
	r.memHead = id
	r.writeMeta()
}

// setCH sets the client head; "" is null.
func (r *LegacyRun) setCH(id string) { r.ch, r.chSet, r.chMade = id, id != "", true }

// webActionSaved is the end of a web action in R's _execute_in_context
// (webui/_execute/__init__.py): _save_session hands the conversation's head
// to update_session, which sets the store's head to it when it is not null
// and writes meta. It runs when the pending turn came from the web.
func (r *LegacyRun) webActionSaved() {
	if r.pendingSrc != "web" {
		return
	}
	if r.chMade && r.chSet {
		r.setHead(r.ch)
		return
	}
	r.writeMeta()
}

// conversation is the web server's _get_or_create_session (R's
// webui/server.py): a server process makes its conversation of a session
// when a web op first needs it, with the head the store's index holds then
// (README: CH). Once made, CH moves only as the web ops move it.
func (r *LegacyRun) conversation() {
	if !r.chMade {
		r.setCH(r.memHead)
	}
}

// webActionEnded is the end of a web action in R's _execute_in_context:
// the server saves its conversation, the session's model with it.
func (r *LegacyRun) webActionEnded() {
	if r.pendingSrc == "web" {
		r.savedModel = "plain"
	}
}

// endTurn: no pending turn, no open reply.
func (r *LegacyRun) endTurn() {
	r.pending, r.pendingSrc, r.reply, r.blocks, r.toolCalls = "", "", "", nil, nil
	r.aborted, r.unheard, r.spawn = false, false, nil
}

// spawnTurn is what a /spawn whose sub-agent's turn is pending (spawn turn)
// writes once that turn is done: the attach pointer, under the fork anchor,
// and the head back on the command row (R's _run_spawn restores
// head_before).
type spawnTurn struct {
	cmd, attach, caller, label, prompt string
	task                               *taskOuter // a task turn's: the reply waiting on its call
	async                              bool       // an async spawn's: the runner finishes the card, then the follow-up
	followup, taskID                   string
}

// taskOuter is the turn a task turn's reply is in, suspended while the
// sub-agent's turn runs: its call and what the writer held of it.
type taskOuter struct {
	call, context, pending, pendingSrc, reply string
	blocks, toolCalls                         []any
	aborted, unheard                          bool
}

// needLiveStream refuses a tool call of a reply whose stream R aborted:
// the turn ended, cancelled, and ran no tool.
func (r *LegacyRun) needLiveStream() error {
	if r.aborted {
		return fmt.Errorf("the web turn started with the session's cancel flag set (a stop before it): R ended it, cancelled, at the model's first tool call")
	}
	return nil
}

// ------------------------------------------------------ validity checks

func (r *LegacyRun) needIdle() error {
	switch {
	case r.pending != "":
		return fmt.Errorf("a turn is pending (%s)", r.pending)
	case r.reply != "":
		return fmt.Errorf("a reply is open (%s)", r.reply)
	case len(r.frames) > 0:
		return fmt.Errorf("a function is open (%s)", r.frames[len(r.frames)-1].id)
	}
	return nil
}

func (r *LegacyRun) needReply() error {
	if r.reply == "" {
		return fmt.Errorf("no open reply")
	}
	return nil
}

func (r *LegacyRun) needFrame() error {
	if len(r.frames) == 0 {
		return fmt.Errorf("no open function")
	}
	return nil
}

// newIDs: every id is non-empty, not ROOT, not in the store, and the op's
// ids are distinct.
func (r *LegacyRun) newIDs(ids ...string) error {
	for i, id := range ids {
		switch {
		case id == "":
			return fmt.Errorf("missing id")
		case id == "ROOT":
			return fmt.Errorf("id ROOT is reserved")
		case r.node(id) != nil:
			return fmt.Errorf("id %q already exists", id)
		}
		for _, prev := range ids[:i] {
			if prev == id {
				return fmt.Errorf("id %q used twice", id)
			}
		}
	}
	return nil
}

func (r *LegacyRun) existing(id string) error {
	if id == "" || r.node(id) == nil {
		return fmt.Errorf("no node %q", id)
	}
	return nil
}

// jsonObject parses an op's JSON object literal (args).
func jsonObject(text string) (*Object, error) {
	v, err := ParseJSON([]byte(text))
	if err != nil {
		return nil, fmt.Errorf("args %q: %w", text, err)
	}
	o, ok := v.(*Object)
	if !ok || o == nil {
		return nil, fmt.Errorf("args %q is not a JSON object", text)
	}
	return o, nil
}

// ------------------------------------------------------------------ Apply

// Apply runs one op. An op that does not apply in the current state (README
// "Validity") returns an error and changes nothing: every op's method checks
// first and writes after (write_ops.go).
func (r *LegacyRun) Apply(op ops.Op) error {
	if err := op.Apply((*legacyOps)(r)); err != nil {
		return err
	}
	r.applied++
	return nil
}

// dispatch is a dispatcher turn as R's dispatcher writes it (README:
// dispatch): through append_message, so caller-less, with parent_id always
// present (INHERIT read before ensureRoot; "none" null), the head moved and
// set. source is "" (cli) or an internal turn's.
func (r *LegacyRun) dispatch(id, text, parent, source string) {
	internal := source != ""
	if !internal {
		source = "cli"
	}
	var p any // null
	switch parent {
	case "none":
	case "":
		if h := r.inherit(); h != "" {
			p = h
		}
	default:
		p = parent
	}
	// R reads the clock for the row's timestamp as it builds the message,
	// before it writes ROOT: the first turn of a session is stamped at
	// ROOT's time, not after it (corpus/realwriter dispatcher_1_0).
	at := r.now()
	r.ensureRoot()
	meta := newObject("parent_id", p, "source", source, "peer_display", nil, "peer_id", nil, "agent_id", "main")
	if internal {
		meta.Set("display", "runtime")
	}
	r.appendAt(&Node{ID: id, CreatedAt: at, Role: "user", Output: text, Reads: []any{}, Metadata: meta})
	r.setHead(id)
	r.pending, r.pendingSrc = id, source
}

// inherit is the dispatcher's INHERIT parent: the last id of
// get_branch(in-memory head), else of get_messages, else the in-memory head.
func (r *LegacyRun) inherit() string {
	if br := r.state().branch(r.memHead); len(br) > 0 {
		return msgID(br[len(br)-1])
	}
	if m := r.lastMessage(); m != nil {
		return msgID(m)
	}
	return r.memHead
}

// rootedDispatch is a dispatcher turn as its direct write stored it before
// R (README: dispatch, rooted): called by ROOT, parent_id only when there is
// one, no head move.
func (r *LegacyRun) rootedDispatch(id, text, parent, source string) {
	internal := source != ""
	if !internal {
		source = "cli"
	}
	r.ensureRoot()
	meta := newObject("source", source)
	switch parent {
	case "none":
	case "":
		// INHERIT: last id of get_branch(in-memory head), else last id of
		// get_messages, else the in-memory head (omitted if "").
		p := r.memHead
		if br := r.state().branch(r.memHead); len(br) > 0 {
			p = msgID(br[len(br)-1])
		} else if m := r.lastMessage(); m != nil {
			p = msgID(m)
		}
		if p != "" {
			meta.Set("parent_id", p)
		}
	default:
		meta.Set("parent_id", parent)
	}
	if internal {
		meta.Set("display", "runtime")
	}
	r.appendNode(id, "user", "", nil, text, "ROOT", meta)
	r.pending, r.pendingSrc = id, source
}

// addToolCall records a tool call on the open reply: the call and its
// block.
func (r *LegacyRun) addToolCall(callID, name string, args *Object, result string, isError bool) {
	r.toolCalls = append(r.toolCalls, newObject("id", callID, "tool_call_id", callID, "tool", name,
		"input", pyDumpsASCII(args), "result", result, "is_error", isError))
	// R's dispatcher builds a tool block of its own keys, type first and
	// no id (agent/dispatcher/persistence.py).
	r.blocks = append(r.blocks, newObject("type", "tool", "tool", name, "tool_call_id", callID,
		"input", pyDumpsASCII(args), "result", result, "is_error", isError))
}

// finish is `done` / `cancel`: fill R, set_head(R), CH := R for a web turn.
func (r *LegacyRun) finish(status string) {
	var text strings.Builder
	for _, b := range r.blocks {
		if b := b.(*Object); b.Val("type") == "text" {
			text.WriteString(b.Str("text"))
		}
	}
	n := r.node(r.reply)
	r.changed(n)
	n.Output = pyStrip(text.String())
	calls, blocks := r.toolCalls, r.blocks
	if calls == nil {
		calls = []any{}
	}
	if blocks == nil {
		blocks = []any{}
	}
	m := n.meta()
	m.Set("status", status)
	m.Set("model", "model-x")
	m.Set("provider", "p")
	m.Set("token_model", "model-x")
	// R writes extra only when the reply has a tool call or a block
	// (agent/dispatcher/persistence.py: `if tool_calls or _ordered_blocks`).
	if len(r.toolCalls) > 0 || len(r.blocks) > 0 {
		m.Set("extra", pyDumpsASCII(newObject("tool_calls", calls, "blocks", blocks)))
	}
	r.setHead(r.reply)
	if r.pendingSrc == "web" {
		r.setCH(r.reply)
	}
	if r.pendingSrc != "agent_spawn" && r.pendingSrc != "task_followup" {
		// a turn R's task runner starts (a sub-agent's, a follow-up) names
		// no model of its own, and its finalize saves none
		r.savedModel = "provider" // the turn's finalize
	}
	r.webActionEnded()
	r.endTurn()
}

// appendFn appends a function entry row (README: fn): input = args plus
// "runtime": "<Runtime>", output null, status running.
func (r *LegacyRun) appendFn(id, name string, args *Object, expose, calledBy string) {
	if expose == "" {
		expose = "io"
	}
	input := deepCopy(args).(*Object)
	input.Set("runtime", "<Runtime>")
	r.appendNode(id, "code", name, input, nil, calledBy, newObject("expose", expose, "status", "running"))
}

// subAgent writes a sub-agent turn: user S, as the dispatcher writes it
// (caller-less, then set_head(S)) or, rooted, called by ROOT; S_reply; then
// set_head(S_reply).
func (r *LegacyRun) subAgent(id, text string, meta *Object, rooted bool) {
	if rooted {
		r.appendNode(id, "user", "", nil, text, "ROOT", meta)
	} else {
		r.appendNode(id, "user", "", nil, text, "", meta)
		r.setHead(id)
	}
	m := newObject("parent_id", id, "status", "completed") // the older writers' sub-agent reply
	if !rooted {
		m = r.subReplyMeta(id)
	}
	r.appendNode(id+"_reply", "llm", "", nil, "sub done", id, m)
	r.setHead(id + "_reply")
}

// subReplyMeta is a sub-agent's reply as R's persistence writes every
// agent turn's (agent/dispatcher/persistence.py): its source, the model
// once the session records one, and the extra of its one text block.
func (r *LegacyRun) subReplyMeta(sub string) *Object {
	m := newObject("parent_id", sub, "source", "agent_spawn", "status", "completed", "worker_id", "w1")
	if r.savedModel != "" {
		m.Set("model", "model-x")
		if r.savedModel == "provider" {
			m.Set("provider", "p")
		}
		m.Set("token_model", "model-x")
	}
	text := newObject("type", "text", "text", "sub done")
	m.Set("extra", pyDumpsASCII(newObject("tool_calls", []any{}, "blocks", []any{text})))
	return m
}

// subMeta is a sub-agent user's metadata under parent (nil: null): the
// dispatcher's keys, or only parent and source when rooted.
func subMeta(parent any, rooted bool) *Object {
	if rooted {
		return newObject("parent_id", parent, "source", "agent_spawn")
	}
	return newObject("parent_id", parent, "source", "agent_spawn", "peer_display", nil, "peer_id", nil, "agent_id", "main")
}

func (r *LegacyRun) attachInfo(sub, label, prompt string, running bool) *Object {
	a := newObject("session_id", r.sid, "head_id", sub+"_reply", "label", label, "prompt", prompt)
	if running {
		a.Set("status", "running")
	}
	return a
}

// retry is `retry` and `edit` (README). text is the edit's new text.
func (r *LegacyRun) retry(of, newID string, text any, edit, web bool) error {
	if err := firstErr(r.needIdle(), r.existing(of)); err != nil {
		return err
	}
	// Climb message parent_id from X to the nearest user row (get_messages).
	var u *Object
	seen := map[string]bool{}
	for cur := of; r.message(cur) != nil && !seen[cur]; {
		seen[cur] = true
		if m := r.message(cur); m.Val("role") == "user" {
			u = m
			break
		}
		cur, _ = r.message(cur).Val("parent_id").(string)
	}
	if u == nil {
		return fmt.Errorf("no user message above %q", of)
	}
	uid := msgID(u)
	hasAssistant := false
	r.index()
	for _, n := range r.replies[uid] {
		hasAssistant = hasAssistant || r.message(n.ID) != nil
	}
	if !edit && !hasAssistant {
		r.setHead(uid)
		r.setCH(uid)
		r.rerun(uid)
		return nil
	}
	if err := r.newIDs(newID); err != nil {
		return err
	}
	if !edit {
		text = deepCopy(u.Val("content"))
	}
	// R's _fork_user_turn_and_run (webui/_chat_routes.py) builds the new
	// message from the one it reruns: no source, its display copied (R5).
	// The older writers wrote the web source first and no display.
	meta := newObject("parent_id", deepCopy(u.Val("parent_id")), "forked_from", uid)
	if web {
		meta = newObject("source", "web", "parent_id", deepCopy(u.Val("parent_id")), "forked_from", uid)
	} else if d := u.Val("display"); Truthy(d) {
		meta.Set("display", deepCopy(d))
	}
	if edit {
		meta.Set("edit_of", uid)
	}
	r.appendNode(newID, "user", "", nil, text, "", meta)
	r.setHead(newID)
	r.setCH(newID)
	r.rerun(newID)
	return nil
}

// rerun is the end of R's _fork_user_turn_and_run (webui/_chat_routes.py):
// it saves the conversation (webui/server.py, _save_session) before it
// starts the rerun's web action. The save writes the chat runtime's model,
// the name alone, when the conversation has a runtime; with none it writes
// None, which update_session drops, and the saved model stays (R33). The
// rerun builds the runtime as it starts.
func (r *LegacyRun) rerun(user string) {
	if r.runtime {
		r.savedModel = "plain"
	}
	r.runtime = true
	r.pending, r.pendingSrc = user, "web"
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// pyStrip is Python's str.strip(): Unicode whitespace plus U+001C..U+001F.
func pyStrip(s string) string {
	return strings.TrimFunc(s, func(c rune) bool { return unicode.IsSpace(c) || c >= 0x1c && c <= 0x1f })
}

// spawnSub writes the sub-agent's user of a spawn turn as the dispatcher
// writes it (the append moves the head; set_head(S)) and leaves its turn
// pending, source agent_spawn.
func (r *LegacyRun) spawnSub(op ops.Spawn, caller string) {
	var parent any = op.Cmd
	if op.Mode == "clean" {
		parent = nil
	}
	r.appendNode(op.ID, "user", "", nil, op.Text, "", subMeta(parent, false))
	r.setHead(op.ID)
	r.pending, r.pendingSrc = op.ID, "agent_spawn"
	r.spawn = &spawnTurn{cmd: op.Cmd, attach: op.Attach, caller: caller, label: op.Label, prompt: op.Text}
	if op.Mode == "async" {
		r.spawn.async, r.spawn.followup, r.spawn.taskID = true, op.Followup, taskID(op)
	}
}

// asyncEnd is an async spawn turn's end once the sub-agent's reply is done,
// as R's task runner writes it (agent/task/runner.py _run_one): the attach
// card finished (_update_attach_card: the answer, its branch, the task's
// status and id, the attach again in extra), then the follow-up
// (_dispatch_followup): the head back on the command row and a dispatcher
// turn, source task_followup, with R's instruction as its text, pending.
func (r *LegacyRun) asyncEnd(sp *spawnTurn, reply string) {
	n := r.node(sp.attach)
	r.changed(n)
	if out := r.node(reply).Output; Truthy(out) { // result_text or the card's own
		n.Output = out
	}
	a := deepCopy(n.meta().Val("attach")).(*Object)
	a.Set("head_id", reply)
	a.Set("status", "completed")
	a.Set("task_id", sp.taskID)
	n.meta().Set("attach", a)
	n.meta().Set("extra", pyDumpsASCII(newObject("attach", a)))
	r.setHead(sp.cmd)
	r.dispatch(sp.followup, followupText(pyStrip(sp.label), pyStrip(sp.prompt)), "", "task_followup")
}

// followupAtOnce is the follow-up turn of an async spawn whose sub-agent
// answered at once (R's runner, _dispatch_followup): the head back on the
// command row, the dispatcher turn of R's instruction, answered at once as
// the sub-agent was. A turn the runner starts names no model of its own: its
// finalize saves none (as a sub-agent's).
func (r *LegacyRun) followupAtOnce(cmd, id, label, prompt string) {
	r.setHead(cmd)
	r.dispatch(id, followupText(label, prompt), "", "task_followup")
	m := r.subReplyMeta(id)
	m.Set("source", "task_followup")
	r.appendNode(id+"_reply", "llm", "", nil, "sub done", id, m)
	r.setHead(id + "_reply")
	r.endTurn()
}

// followupText is the instruction R's runner sends the caller's agent when
// an async task completes (_dispatch_followup): the task's label (its
// prompt's first 60 characters without one) and the prompt.
func followupText(label, prompt string) string {
	if label == "" {
		label = prefix(prompt, 60)
	}
	text := "[系统消息] 你派发的子 agent \"" + label + "\" 已经跑完了，它完整的对话记录作为附加内容嵌在上面。\n"
	if prompt != "" {
		text += "用户原本让子 agent 做的事是：" + prompt + "\n"
	}
	return text + "现在请你直接面向原始用户给出完整回答，基于子 agent 跑出来的结果做总结、解读、给出后续建议。" +
		"不要原样复读子 agent 的最后一句话。如果子 agent 的输出已经直接回答了用户问题，用你自己的话重新组织一遍，" +
		"并补充必要的背景或上下文。"
}

// needNoSpawnTurn refuses an end of a spawn turn other than done: what R's
// /task writes when the sub-agent's turn is stopped or fails is not known
// to the op language.
func (r *LegacyRun) needNoSpawnTurn(refuse bool) error {
	if refuse && r.spawn != nil {
		return fmt.Errorf("the pending turn is a spawn's sub-agent turn (%s): it ends with done", r.pending)
	}
	return nil
}

// spawnAttach is a spawn turn's end after the sub-agent's reply is done:
// the attach pointer with the sub-agent's answer, then the head back on the
// command row.
func (r *LegacyRun) spawnAttach(sp *spawnTurn, reply string) {
	a := newObject("session_id", r.sid, "head_id", reply, "label", sp.label, "prompt", sp.prompt, "source_commit_id", nil)
	r.appendNode(sp.attach, "llm", "", nil, r.node(reply).Output, sp.caller, newObject(
		"display", "runtime", "function", "attach", "is_error", false, "agent_id", "main", "attach", a))
	r.setHead(sp.cmd)
}

// taskSub starts a task turn (README: task … turn): the open reply waits
// on the call while the sub-agent's user, written as the dispatcher writes
// it, is the pending turn.
func (r *LegacyRun) taskSub(op ops.Task) {
	ctx, parent := "inherit", any(r.reply)
	if op.Clean {
		ctx, parent = "clean", nil
	}
	out := &taskOuter{call: op.CallID, context: ctx, pending: r.pending, pendingSrc: r.pendingSrc, reply: r.reply,
		blocks: r.blocks, toolCalls: r.toolCalls, aborted: r.aborted, unheard: r.unheard}
	r.appendNode(op.ID, "user", "", nil, op.Text, "", subMeta(parent, false))
	r.setHead(op.ID)
	r.pending, r.pendingSrc, r.reply, r.blocks, r.toolCalls, r.aborted = op.ID, "agent_spawn", "", nil, nil, false
	r.unheard = false
	r.spawn = &spawnTurn{attach: op.Attach, label: op.Label, prompt: op.Text, task: out}
}

// taskEnd is a task turn's end once the sub-agent's reply is done: the
// waiting reply open again, the attach pointer (caller-less, its parent
// the reply; the head set back to the sub-agent's reply), then the task's
// tool row with the answer and the branch it is on, recorded as the
// reply's call.
func (r *LegacyRun) taskEnd(sp *spawnTurn, sub string) {
	o := sp.task
	r.pending, r.pendingSrc, r.reply, r.aborted, r.unheard = o.pending, o.pendingSrc, o.reply, o.aborted, o.unheard
	r.blocks, r.toolCalls = deepCopy(o.blocks).([]any), deepCopy(o.toolCalls).([]any)
	r.taskRows(o.reply, o.call, sub, sp.attach, r.node(sub).Output, sp.prompt, sp.label, o.context)
}
