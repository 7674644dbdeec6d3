package writer

import (
	"fmt"
	"strings"
	"unicode"

	"sessiondag/impl/flags"
	"sessiondag/impl/lane"
	"sessiondag/impl/node"
)

// predecessor records, under flag A, the conversation predecessor of a
// conversation-lane node as metadata.predecessor ("ROOT" for a first turn or
// an explicit root fork). Legacy fields are written as before, so readers
// with the flags off see exactly R's data.
func (w *Writer) predecessor(md *node.Obj, pred string) {
	if w.Flags.Has(flags.A) {
		md.Set("predecessor", node.Str(pred))
	}
}

// storeAnchor is the conversation position of the store's in-memory head.
func (w *Writer) storeAnchor() string { return lane.Anchor(w.S.Head(), w.S.Get) }

// imageExtra is the attachment manifest the web chat stores for a turn
// with one image attached (legacy §1: a JSON string in metadata.extra).
const imageExtra = `{"attachments": [{"type": "image", "media_type": "image/png", "size_b64": 96}]}`

// WebUser is a turn typed in the browser: the parent is the client's
// in-memory head (legacy §4 turn 3). form is "" (text), "image" (an image
// attached) or "function" (a function-form run typed in the chat).
func (w *Writer) WebUser(id, text, form string) error {
	if err := w.needIdle("user"); err != nil {
		return err
	}
	// R's handle_chat strips the message and returns on an empty one; with
	// an image attached it sends "(see attachment)" in its place.
	text = pyStrip(text)
	if text == "" {
		if form != "image" {
			return fmt.Errorf("%w: the web chat sends no empty message", ErrState)
		}
		text = "(see attachment)"
	}
	var md *node.Obj
	switch form {
	case "":
		md = meta("source", node.Str("web"))
	case "image":
		md = meta("source", node.Str("web"), "extra", node.Str(imageExtra))
	case "function":
		md = meta("original_content", node.Str(text), "display", node.Str("runtime"))
	default:
		return fmt.Errorf("%w: user form %q: want image or function", ErrState, form)
	}
	w.conversation()
	if err := w.ensureRoot(); err != nil {
		return err
	}
	if ch, ok := w.ClientHead(); ok {
		md.Set("parent_id", node.Str(ch))
	}
	pred := w.storeAnchor()
	w.predecessor(md, pred)
	if err := w.add(&node.Node{ID: id, Role: node.RoleUser, Output: node.Str(text), CalledBy: node.RootID, Metadata: md}); err != nil {
		return err
	}
	if err := w.S.SetHead(id); err != nil {
		return err
	}
	w.setClient(id)
	w.pending = &turn{user: id, source: "web"}
	w.runtime = true
	return nil
}

// Dispatch is a dispatcher turn (legacy §3.8). parent is "" for INHERIT,
// "none" for an explicit None (a root-level fork), or a node id; source is
// "" (cli) or an internal turn's (task_followup, merge_turn). R's
// dispatcher writes the user through the message adapter: caller-less,
// with an explicit parent_id, moving the head (legacy §1). rooted is the
// direct write of older versions: called by ROOT, parent_id only when
// there is one, the head unmoved.
func (w *Writer) Dispatch(id, text, parent, source string, rooted bool) error {
	return w.dispatch(id, text, parent, source, rooted, false)
}

// dispatch is Dispatch; runner says R's task runner starts the turn (a
// task's follow-up), not a user at the dispatcher.
func (w *Writer) dispatch(id, text, parent, source string, rooted, runner bool) error {
	if err := w.needIdle("dispatch"); err != nil {
		return err
	}
	internal := false
	switch source {
	case "":
		source = "cli"
	case "task_followup", "merge_turn":
		internal = true
	default:
		return fmt.Errorf("%w: dispatch source %q: want task_followup or merge_turn", ErrState, source)
	}
	if rooted {
		return w.rootedDispatch(id, text, parent, source, internal)
	}
	pv := node.NullV()
	switch parent {
	case "":
		if p := w.inherit(); p != "" {
			pv = node.Str(p)
		}
	case "none":
	default:
		pv = node.Str(parent)
	}
	// The dispatcher stamps the row as it builds it, before it writes
	// ROOT: a session's first turn has ROOT's time.
	at := w.now()
	// Flag A: a turn typed at the dispatcher that creates ROOT starts a
	// conversation (ROOT's creation moves the head); a follow-up R's task
	// runner starts continues the row it set the head on, as R's
	// parent_id, read before ROOT, does.
	var pred string
	if runner {
		pred = w.dispatchPred(parent)
	}
	if err := w.ensureRoot(); err != nil {
		return err
	}
	if !runner {
		pred = w.dispatchPred(parent)
	}
	md := meta("parent_id", pv, "source", node.Str(source), "peer_display", node.NullV(), "peer_id", node.NullV(),
		"agent_id", node.Str("main"))
	if internal {
		md.Set("display", node.Str("runtime"))
	}
	w.predecessor(md, pred)
	if err := w.add(&node.Node{ID: id, CreatedAt: at, Role: node.RoleUser, Output: node.Str(text), Metadata: md}); err != nil {
		return err
	}
	if err := w.S.SetHead(id); err != nil {
		return err
	}
	w.pending = &turn{user: id, source: source}
	return nil
}

// dispatchPred is flag A's predecessor of a dispatcher user: where the
// store's head is (INHERIT), a root (none), or the named row's anchor.
func (w *Writer) dispatchPred(parent string) string {
	switch parent {
	case "":
		return w.storeAnchor()
	case "none":
		return node.RootID
	}
	return lane.Anchor(parent, w.S.Get)
}

// rootedDispatch is the dispatcher's direct write (rooted Dispatch).
func (w *Writer) rootedDispatch(id, text, parent, source string, internal bool) error {
	if err := w.ensureRoot(); err != nil {
		return err
	}
	md := meta("source", node.Str(source))
	switch parent {
	case "":
		if p := w.inherit(); p != "" {
			md.Set("parent_id", node.Str(p))
		}
	case "none":
	default:
		md.Set("parent_id", node.Str(parent))
	}
	if internal {
		md.Set("display", node.Str("runtime"))
	}
	w.predecessor(md, w.dispatchPred(parent))
	if err := w.add(&node.Node{ID: id, Role: node.RoleUser, Output: node.Str(text), CalledBy: node.RootID, Metadata: md}); err != nil {
		return err
	}
	w.pending = &turn{user: id, source: source}
	return nil
}

// Merge is the /merge command (legacy §1): its command row, a seq the
// merge's attach pointer takes and drops again, and the dispatcher's merge
// turn under the command row.
func (w *Writer) Merge(cmd, id, text string) error {
	if err := w.needIdle("merge"); err != nil {
		return err
	}
	for _, x := range []string{cmd, id} {
		if _, dup := w.S.Get(x); dup || x == node.RootID || x == "" {
			return fmt.Errorf("%w: merge id %q is empty or already taken", ErrState, x)
		}
	}
	if id == cmd {
		return fmt.Errorf("%w: merge names %q twice", ErrState, id)
	}
	w.conversation()
	if err := w.ensureRoot(); err != nil {
		return err
	}
	md := meta("source", node.Str("web"))
	if ch, ok := w.ClientHead(); ok {
		md.Set("parent_id", node.Str(ch))
	}
	w.predecessor(md, w.storeAnchor())
	if err := w.add(&node.Node{ID: cmd, Role: node.RoleUser, Output: node.Str("/merge " + text), CalledBy: node.RootID, Metadata: md}); err != nil {
		return err
	}
	if err := w.S.SetHead(cmd); err != nil {
		return err
	}
	w.setClient(cmd)
	w.S.SetNextSeq(w.S.NextSeq() + 1)
	w.runtime = true // /merge runs in _execute_in_context too
	return w.Dispatch(id, text, cmd, "merge_turn", false)
}

// inherit is the dispatcher's INHERIT parent: the last id of get_branch, else
// of get_messages, else the session head.
func (w *Writer) inherit() string {
	if br := branchIDs(w.S); len(br) > 0 {
		return br[len(br)-1]
	}
	for i := len(w.S.Nodes()) - 1; i >= 0; i-- {
		if n := w.S.Nodes()[i]; !n.IsRoot() && !n.IsRewound() {
			return n.ID
		}
	}
	return w.S.Head()
}

// ForkRoot starts a root-level conversation (dispatcher, parent None).
func (w *Writer) ForkRoot(id, text string, rooted bool) error {
	return w.Dispatch(id, text, "none", "", rooted)
}

// Reply inserts the pending turn's reply placeholder and makes it the head.
func (w *Writer) Reply() error {
	if w.pending == nil || w.reply != nil {
		return fmt.Errorf("%w: reply needs a pending turn without a reply", ErrState)
	}
	if len(w.frames) > 0 {
		return fmt.Errorf("%w: reply while a function is running", ErrState)
	}
	u := w.pending.user
	id := u + "_reply"
	// R's process_user_turn ensures ROOT before it writes the reply: a web
	// turn a retry or an edit of an older writer's row starts writes it.
	if err := w.ensureRoot(); err != nil {
		return err
	}
	md := meta("parent_id", node.Str(u), "source", node.Str(w.pending.source), "status", node.Str("running"), "worker_id", node.Str("w1"))
	w.predecessor(md, lane.Anchor(u, w.S.Get)) // u, or the run an ask_user row a retry made the turn belongs to
	if err := w.add(&node.Node{ID: id, Role: node.RoleLLM, Output: node.Str(""), CalledBy: u, Metadata: md}); err != nil {
		return err
	}
	if err := w.S.SetHead(id); err != nil {
		return err
	}
	w.reply = &reply{id: id}
	w.aborted = w.pending.source == "web" && *w.stop
	return nil
}

// needLiveStream refuses a tool call of a reply whose stream R aborted
// (the web turn started with the cancel flag set): the turn ended,
// cancelled, and ran no tool.
func (w *Writer) needLiveStream(what string) error {
	if w.aborted {
		return fmt.Errorf("%w: %s: the web turn started with the session's cancel flag set; R ended it at the model's first tool call", ErrState, what)
	}
	return nil
}

// Think adds a thinking block to the open reply.
func (w *Writer) Think(text string) error { return w.block("thinking", text) }

// Say adds a text block to the open reply.
func (w *Writer) Say(text string) error { return w.block("text", text) }

func (w *Writer) block(kind, text string) error {
	if err := w.needReply(kind); err != nil {
		return err
	}
	w.reply.blocks = append(w.reply.blocks, node.ObjV(meta("type", node.Str(kind), "text", node.Str(text))))
	if kind == "text" {
		w.reply.texts = append(w.reply.texts, text)
	}
	return nil
}

// Tool records one tool call of the open reply and writes its result row,
// whose input is the arguments' JSON text, as R stores it (object: the
// arguments as an object, as older writers stored them). legacy writes the
// call edge only into metadata.called_by.
func (w *Writer) Tool(callID, name, args, result string, isErr, legacy, object bool) error {
	if t := w.waitingTask(); t != nil {
		// R runs a reply's tool calls in parallel: a call of the reply
		// waiting on its task turn can end while the sub-agent's turn runs,
		// before its reply opens. Its row and its call are that reply's.
		aborted := w.aborted
		w.reply, w.aborted = t.reply, t.aborted
		defer func() { w.reply, w.aborted = nil, aborted }()
	}
	if err := w.needReply("tool"); err != nil {
		return err
	}
	if err := w.needLiveStream("tool"); err != nil {
		return err
	}
	if len(w.frames) > 0 {
		return fmt.Errorf("%w: tool while a function is running", ErrState)
	}
	input, err := parseArgs("tool args", args)
	if err != nil {
		return err
	}
	r := w.reply.id
	md := meta("tool_call_id", node.Str(callID), "is_error", node.BoolV(isErr))
	caller := r
	if legacy {
		caller = ""
		md.Set("called_by", node.Str(r))
	}
	text := node.DumpsASCII(node.ObjV(input))
	in := node.Str(text) // json.dumps of the arguments the model sent (R)
	if object {
		in = node.ObjV(input)
	}
	out := resultText(result, isErr)
	if err := w.add(&node.Node{ID: r + "_t_" + callID, Role: node.RoleCode, Name: name, Input: in, Output: node.Str(out), CalledBy: caller, Metadata: md}); err != nil {
		return err
	}
	w.recordCall(callID, name, text, out, isErr)
	return nil
}

// emptyResult is what R stores of a tool result with no text: its
// dispatcher falls back from the result's text blocks to the quoted str()
// of the pydantic AgentToolResult (agent/_event_parsing.py,
// stringify_tool_result), whose details are None for a tool that returned
// "" (functions/_runtime.py) and {} for one that raised (agent/agent_loop.py).
const emptyResult = `"content=[TextContent(type='text', text='', text_signature=None, cache_control=None)] details=`

// resultText is the text R stores of a tool's result.
func resultText(result string, isErr bool) string {
	switch {
	case result != "":
		return result
	case isErr:
		return emptyResult + `{}"`
	}
	return emptyResult + `None"`
}

func (w *Writer) recordCall(callID, name, input, result string, isErr bool) {
	w.reply.calls = append(w.reply.calls, node.ObjV(meta("id", node.Str(callID), "tool_call_id", node.Str(callID),
		"tool", node.Str(name), "input", node.Str(input), "result", node.Str(result), "is_error", node.BoolV(isErr))))
	// The block has keys of its own, type first and no id, as R's
	// dispatcher builds it.
	w.reply.blocks = append(w.reply.blocks, node.ObjV(meta("type", node.Str("tool"), "tool", node.Str(name),
		"tool_call_id", node.Str(callID), "input", node.Str(input), "result", node.Str(result), "is_error", node.BoolV(isErr))))
}

// Done finalizes the open reply; Cancel does the same with status cancelled.
func (w *Writer) Done() error { return w.finish("completed") }

// Cancel is the stop button: the reply ends cancelled, and the session's
// cancel flag stays set (handle_stop's hard stage; no exception clears it).
func (w *Writer) Cancel() error {
	// handle_stop's hard stage marks the session cancelled; a dispatcher
	// turn is stopped by its own cancel event, which marks nothing
	web := w.pending != nil && w.pending.source == "web"
	if err := w.finish("cancelled"); err != nil {
		return err
	}
	*w.stop = *w.stop || web
	return nil
}

func (w *Writer) finish(status string) error {
	if err := w.needReply(status); err != nil {
		return err
	}
	if status != "completed" {
		if err := w.needNoSpawnTurn(status); err != nil {
			return err
		}
	}
	if len(w.frames) > 0 {
		return fmt.Errorf("%w: the reply cannot end while a function is running", ErrState)
	}
	r := w.reply
	if w.aborted {
		status = "cancelled"
	} else if status == "cancelled" && r.unheard {
		status = "completed" // the stop reached no stream: the model ended the turn
	}
	md := meta("status", node.Str(status), "model", node.Str("model-x"), "provider", node.Str("p"),
		"token_model", node.Str("model-x"))
	// R writes extra only when the reply has a tool call or a block.
	if len(r.calls) > 0 || len(r.blocks) > 0 {
		extra := meta("tool_calls", node.Arr(nonNil(r.calls)), "blocks", node.Arr(nonNil(r.blocks)))
		md.Set("extra", node.Str(node.DumpsASCII(node.ObjV(extra))))
	}
	err := w.S.Update(r.id, func(n *node.Node) {
		// The reply's text is its text blocks joined and stripped as
		// Python strips: U+001C..U+001F too, which strings.TrimSpace keeps.
		n.Output = node.Str(pyStrip(strings.Join(r.texts, "")))
		n.Metadata.Update(md)
	})
	if err != nil {
		return err
	}
	if err := w.S.SetHead(r.id); err != nil {
		return err
	}
	if w.pending.source == "web" {
		w.setClient(r.id)
	}
	if w.pending.source != "agent_spawn" && w.pending.source != "task_followup" {
		*w.saved = modelProvider // the turn's finalize; one R's task runner starts names no model to save
	}
	w.webActionEnded()
	end := w.pending.spawn
	w.pending, w.reply, w.aborted = nil, nil, false
	switch n, _ := w.S.Get(r.id); {
	case end != nil && end.task != nil:
		return w.endTask(end, r.id, n.Output)
	case end != nil && end.async != nil:
		return w.endAsync(end, r.id, n.Output)
	case end != nil:
		return w.endSpawn(end, r.id, n.Output)
	}
	return nil
}

// webActionEnded: a web action's end saves the conversation, the session's
// model with it (R's _save_conversation).
func (w *Writer) webActionEnded() {
	if w.pending != nil && w.pending.source == "web" {
		*w.saved = modelPlain
	}
}

func nonNil(v []node.Value) []node.Value {
	if v == nil {
		return []node.Value{}
	}
	return v
}

// ErrorFolded fails the turn into its placeholder (legacy §6 #14).
func (w *Writer) ErrorFolded(typ, msg string) error {
	if err := w.needReply("error-folded"); err != nil {
		return err
	}
	if err := w.needNoSpawnTurn("error-folded"); err != nil {
		return err
	}
	if len(w.frames) > 0 {
		return fmt.Errorf("%w: error-folded while a function is running", ErrState)
	}
	id := w.reply.id
	err := w.S.Update(id, func(n *node.Node) {
		n.Output = node.Str("[error] " + typ + ": " + msg)
		n.Metadata.Update(meta("status", node.Str("error"), "error", node.Str(msg), "error_type", node.Str(typ)))
	})
	if err != nil {
		return err
	}
	w.S.Meta.Set("status", node.Str("failed"))
	if err := w.S.SetHead(id); err != nil {
		return err
	}
	if err := w.webActionSaved(); err != nil {
		return err
	}
	w.webActionEnded()
	w.pending, w.reply, w.aborted = nil, nil, false
	return nil
}

// webActionSaved is the end of a web action in R's _execute_in_context:
// _save_session hands the conversation's head to update_session, which
// sets the store's head to it when it is not null and writes meta. It runs
// when the pending turn came from the web.
func (w *Writer) webActionSaved() error {
	if w.pending == nil || w.pending.source != "web" {
		return nil
	}
	if ch, ok := w.ClientHead(); ok {
		return w.S.SetHead(ch)
	}
	return w.S.WriteMeta()
}

// ErrorStandalone fails a turn whose placeholder was never inserted: a
// system row under the pending user becomes the head.
func (w *Writer) ErrorStandalone(id, typ, msg string) error {
	if w.pending == nil || w.reply != nil || len(w.frames) > 0 {
		return fmt.Errorf("%w: error-standalone needs a pending turn without a reply", ErrState)
	}
	if err := w.needNoSpawnTurn("error-standalone"); err != nil {
		return err
	}
	u := w.pending.user
	md := meta("role", node.Str("system"), "parent_id", node.Str(u), "trace", node.Str("Traceback ..."))
	w.predecessor(md, lane.Anchor(u, w.S.Get))
	if err := w.add(&node.Node{ID: id, Role: node.RoleLLM, Output: node.Str("[error] " + typ + ": " + msg), Metadata: md}); err != nil {
		return err
	}
	w.S.Meta.Set("status", node.Str("failed"))
	if err := w.S.SetHead(id); err != nil {
		return err
	}
	w.webActionEnded()
	w.pending = nil
	return nil
}

// Crash ends the process: running rows stay running and meta.json keeps
// the in-memory head of that moment. A process can die in any state, so
// nothing need be in progress (ops/README.md lists no condition).
func (w *Writer) Crash() error {
	w.pending, w.reply, w.frames = nil, nil, nil
	w.conv, w.runtime = false, false // the server's conversations die with it
	*w.stop, w.aborted = false, false
	return w.S.WriteMeta()
}

// pyStrip is Python's str.strip(): Unicode whitespace and U+001C..U+001F.
func pyStrip(s string) string {
	return strings.TrimFunc(s, func(c rune) bool { return unicode.IsSpace(c) || c >= 0x1c && c <= 0x1f })
}

// waitingTask is the task turn whose sub-agent user is pending with no
// reply open, its reply waiting on it (nil for none).
func (w *Writer) waitingTask() *taskWait {
	if w.reply != nil || w.pending == nil || w.pending.spawn == nil || len(w.frames) > 0 {
		return nil
	}
	return w.pending.spawn.task
}
