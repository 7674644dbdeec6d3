package model

// What each op writes (ops/README.md, flags off), one method per op kind:
// first the validity checks, then the writes, in the README's order.

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"sessiondag/ops"
)

// legacyOps is the legacy writer as an ops.Interpreter.
type legacyOps LegacyRun

var _ ops.Interpreter = (*legacyOps)(nil)

func (o *legacyOps) run() *LegacyRun { return (*LegacyRun)(o) }

func (o *legacyOps) Session(op ops.Session) error {
	r := o.run()
	if r.applied > 0 {
		return fmt.Errorf("session may only be the first op")
	}
	if op.ID != "" {
		r.setSession(op.ID)
	}
	return nil
}

func (o *legacyOps) UserWeb(op ops.UserWeb) error {
	r := o.run()
	if err := firstErr(r.needIdle(), r.newIDs(op.ID)); err != nil {
		return err
	}
	// R's handle_chat strips the message and returns on an empty one
	// (ws_actions/chat.py); with an image attached it sends
	// "(see attachment)" in its place.
	text := pyStrip(op.Text)
	switch {
	case text == "" && op.Form == "image":
		text = "(see attachment)"
	case text == "":
		return fmt.Errorf("the web chat sends no empty message")
	}
	var meta *Object
	switch op.Form {
	case "":
		meta = newObject("source", "web")
	case "image": // one image attached: its manifest, as a JSON string
		image := newObject("type", "image", "media_type", "image/png", "size_b64", Int("96"))
		meta = newObject("source", "web", "extra", pyDumpsASCII(newObject("attachments", []any{image})))
	case "function": // a function-form run typed in the chat
		meta = newObject("original_content", text, "display", "runtime")
	default:
		return fmt.Errorf("user form %q is not image or function", op.Form)
	}
	r.conversation()
	r.ensureRoot()
	if r.chSet {
		meta.Set("parent_id", r.ch)
	}
	r.appendNode(op.ID, "user", "", nil, text, "ROOT", meta)
	r.setHead(op.ID)
	r.setCH(op.ID)
	r.pending, r.pendingSrc = op.ID, "web"
	r.runtime = true
	return nil
}

func (o *legacyOps) UserDispatch(op ops.UserDispatch) error {
	r := o.run()
	if err := firstErr(r.needIdle(), r.newIDs(op.ID)); err != nil {
		return err
	}
	if op.Source != "" && op.Source != "task_followup" && op.Source != "merge_turn" {
		return fmt.Errorf("dispatch source %q is not task_followup or merge_turn", op.Source)
	}
	if op.Rooted {
		r.rootedDispatch(op.ID, op.Text, op.Parent, op.Source)
	} else {
		r.dispatch(op.ID, op.Text, op.Parent, op.Source)
	}
	return nil
}

func (o *legacyOps) ForkRoot(op ops.ForkRoot) error {
	return o.UserDispatch(ops.UserDispatch{ID: op.ID, Text: op.Text, Parent: "none", Rooted: op.Rooted})
}

// Merge is /merge: the command row, a seq its dropped attach pointer
// took, and the merge turn under the command row.
func (o *legacyOps) Merge(op ops.Merge) error {
	r := o.run()
	if err := firstErr(r.needIdle(), r.newIDs(op.Cmd, op.ID)); err != nil {
		return err
	}
	r.conversation()
	r.ensureRoot()
	meta := newObject("source", "web")
	if r.chSet {
		meta.Set("parent_id", r.ch)
	}
	r.appendNode(op.Cmd, "user", "", nil, "/merge "+op.Text, "ROOT", meta)
	r.setHead(op.Cmd)
	r.setCH(op.Cmd)
	r.nextSeq++
	r.runtime = true // /merge runs in _execute_in_context too
	r.dispatch(op.ID, op.Text, op.Cmd, "merge_turn")
	return nil
}

func (o *legacyOps) Reply(ops.Reply) error {
	r := o.run()
	if r.pending == "" {
		return fmt.Errorf("no pending turn")
	}
	if r.reply != "" {
		return fmt.Errorf("a reply is open (%s)", r.reply)
	}
	id := r.pending + "_reply"
	if err := r.newIDs(id); err != nil {
		return err
	}
	// R's process_user_turn ensures ROOT before it writes the reply
	// (agent/dispatcher/__init__.py): a web turn a retry or an edit of an
	// older writer's row starts is the first to write it there.
	r.ensureRoot()
	r.appendNode(id, "llm", "", nil, "", r.pending, newObject("parent_id", r.pending,
		"source", r.pendingSrc, "status", "running", "worker_id", "w1"))
	r.setHead(id)
	r.reply = id
	r.aborted = r.pendingSrc == "web" && r.stopped
	return nil
}

func (o *legacyOps) Think(op ops.Think) error {
	r := o.run()
	if err := r.needReply(); err != nil {
		return err
	}
	r.blocks = append(r.blocks, newObject("type", "thinking", "text", op.Text))
	return nil
}

func (o *legacyOps) Say(op ops.Say) error {
	r := o.run()
	if err := r.needReply(); err != nil {
		return err
	}
	r.blocks = append(r.blocks, newObject("type", "text", "text", op.Text))
	return nil
}

// needReplyNoFrame: an open reply and no open function. A function the
// model called runs inside the reply's tool loop; until it ends, the reply
// calls nothing else and does not end (only a crash leaves it running).
func (r *LegacyRun) needReplyNoFrame() error {
	if err := r.needReply(); err != nil {
		return err
	}
	if len(r.frames) > 0 {
		return fmt.Errorf("a function is open (%s)", r.frames[len(r.frames)-1].id)
	}
	return nil
}

func (o *legacyOps) Tool(op ops.Tool) error {
	r := o.run()
	if w := r.waiting(); w != nil {
		// A call the reply waiting on its task turn ran alongside it (R
		// runs a reply's tool calls in parallel): written for that reply,
		// recorded in it before the task's call, which its end records.
		reply, blocks, calls, aborted := r.reply, r.blocks, r.toolCalls, r.aborted
		r.reply, r.blocks, r.toolCalls, r.aborted = w.reply, w.blocks, w.toolCalls, w.aborted
		defer func() {
			w.blocks, w.toolCalls = r.blocks, r.toolCalls
			r.reply, r.blocks, r.toolCalls, r.aborted = reply, blocks, calls, aborted
		}()
	}
	if err := firstErr(r.needReplyNoFrame(), r.needLiveStream()); err != nil {
		return err
	}
	id := r.reply + "_t_" + op.CallID
	args, err := jsonObject(op.Args)
	if err := firstErr(r.newIDs(id), err); err != nil {
		return err
	}
	meta := newObject("tool_call_id", op.CallID, "is_error", op.Error)
	calledBy := r.reply
	if op.Legacy {
		calledBy = ""
		meta.Set("called_by", r.reply)
	}
	var input any = pyDumpsASCII(args) // json.dumps of the arguments the model sent
	if op.Object {
		input = args
	}
	out := toolText(op.Result, op.Error)
	r.appendNode(id, "code", op.Name, input, out, calledBy, meta)
	r.addToolCall(op.CallID, op.Name, args, out, op.Error)
	return nil
}

// toolText is the text R stores of a tool's result (its row's content and
// its call's and block's result). R's dispatcher stringifies the
// AgentToolResult (agent/_event_parsing.py, stringify_tool_result): the
// text of its blocks when one has text, else json.dumps(result,
// default=str), the quoted str() of the pydantic object. An empty result
// is such an object: a tool that returns "" gets content=[TextContent(text="")]
// and details=None (functions/_runtime.py, _normalize_result); one that
// raises gets details={} (agent/agent_loop.py).
func toolText(result string, isError bool) string {
	if result != "" {
		return result
	}
	details := "None"
	if isError {
		details = "{}"
	}
	return `"content=[TextContent(type='text', text='', text_signature=None, cache_control=None)] details=` + details + `"`
}

func (o *legacyOps) Task(op ops.Task) error {
	r := o.run()
	if err := firstErr(r.needReplyNoFrame(), r.needLiveStream()); err != nil {
		return err
	}
	// R's task tool finds its parent turn through the web chat's session
	// ContextVar, which a dispatcher turn does not set: it answers with an
	// error text and runs no sub-agent (a tool op with that result). The
	// older writers' task (rooted) is not R's tool.
	if !op.Rooted && r.pendingSrc != "web" && r.pendingSrc != "agent_spawn" {
		return fmt.Errorf("task in a %s turn: the task tool answers a dispatcher turn with an error", r.pendingSrc)
	}
	toolID := r.reply + "_t_" + op.CallID
	if runner := op.Async && !op.Rooted; runner || op.Followup != "" || op.TaskID != "" {
		if err := r.needTaskRunner(op, toolID); err != nil {
			return err
		}
		r.taskRunner(op)
		return nil
	}
	if op.Async {
		r.stopped = false // the task runner clears the flag as the task starts
	}
	if err := r.newIDs(op.ID, op.ID+"_reply", op.Attach, toolID); err != nil {
		return err
	}
	if op.Turn {
		if op.Async || op.Rooted || r.spawn != nil {
			return fmt.Errorf("task turn: not async, not rooted, and not inside a sub-agent's turn")
		}
		r.taskSub(op)
		return nil
	}
	if op.Clean {
		return fmt.Errorf("task clean: only a task turn has the tool's clean context")
	}
	result := "(done)"
	if op.Async {
		result = "(running)"
	}
	r.subAgent(op.ID, op.Text, subMeta(r.reply, op.Rooted), op.Rooted)
	if !op.Rooted && !op.Async {
		r.taskAsR(op)
		return nil
	}
	r.appendNode(op.Attach, "llm", "", nil, result, "", newObject("parent_id", r.reply,
		"display", "runtime", "function", "attach", "is_error", false,
		"attach", r.attachInfo(op.ID, op.Label, op.Text, op.Async)))
	r.setHead(op.ID + "_reply")
	args := newObject("prompt", op.Text)
	r.appendNode(toolID, "code", "task", args, result, r.reply,
		newObject("tool_call_id", op.CallID, "is_error", false))
	r.addToolCall(op.CallID, "task", args, result, false)
	return nil
}

// needTaskRunner refuses an async task R's runner does not run as the op
// says: a follow-up or task id on any other form, one of a sub-agent's turn
// (what R writes then is not known), an attach pointer (the runner writes
// none), no follow-up, ids taken, or neither a label nor a prompt (R's
// follow-up then names the task by its id's first characters).
func (r *LegacyRun) needTaskRunner(op ops.Task, toolID string) error {
	switch {
	case !op.Async || op.Rooted || op.Turn || op.Clean:
		return fmt.Errorf("task followup= and task= are R's task runner's: async, not rooted, not a turn")
	case r.pendingSrc != "web":
		return fmt.Errorf("task async in a %s turn: what R's runner writes there is not known", r.pendingSrc)
	case op.Attach != "":
		return fmt.Errorf("task async: R's task runner writes no attach pointer (attach= is the older writers')")
	case op.Followup == "":
		return fmt.Errorf("task async needs followup=: R's task runner writes a follow-up turn")
	case op.Text == "" && op.Label == "":
		return fmt.Errorf("task async needs a text or a label: R's follow-up names the task by its id otherwise")
	}
	return r.newIDs(op.ID, op.ID+"_reply", toolID, op.Followup, op.Followup+"_reply")
}

// taskRunner is R's task tool with wait=False (functions/tools/task/task.py,
// _task_impl; agent/task/runner.py, _run_one and _dispatch_followup): the
// tool answers at once with the task id, its row written as the turn goes
// on; the runner then runs the sub-agent (its user under the reply), writes
// no attach pointer, sets the head back on the reply and dispatches the
// follow-up turn of R's instruction, answered at once as the sub-agent was.
// The reply stays open.
func (r *LegacyRun) taskRunner(op ops.Task) {
	id := op.TaskID
	if id == "" {
		id = "t_" + op.ID
	}
	args := newObject("prompt", op.Text, "description", op.Label, "context", "inherit", "wait", false)
	result := "[task spawned async] task_id=" + id + "\nCall await_task(task_id='" + id +
		"') to retrieve result, or cancel_task(task_id='" + id + "') to stop it."
	reply := r.reply
	r.stopped = false // the task runner clears the flag as the task starts
	r.appendNode(reply+"_t_"+op.CallID, "code", "task", pyDumpsASCII(args), result, reply,
		newObject("tool_call_id", op.CallID, "is_error", false))
	r.addToolCall(op.CallID, "task", args, result, false)
	r.subAgent(op.ID, op.Text, subMeta(reply, false), false)
	outer := taskOuter{pending: r.pending, pendingSrc: r.pendingSrc, reply: reply, blocks: r.blocks,
		toolCalls: r.toolCalls, aborted: r.aborted}
	prompt := op.Text // the task's prompt, else its description
	if prompt == "" {
		prompt = op.Label
	}
	r.followupAtOnce(reply, op.Followup, runnerLabel(op), pyStrip(prompt))
	r.pending, r.pendingSrc, r.reply, r.blocks, r.toolCalls, r.aborted = outer.pending, outer.pendingSrc,
		outer.reply, outer.blocks, outer.toolCalls, outer.aborted
	r.unheard = true // the runner removed the turn's cancel event as the task ended
}

// runnerLabel is how R's follow-up names a task the task tool submitted:
// the branch label it made of the description, else the description as
// given, else the prompt's first 60 characters.
func runnerLabel(op ops.Task) string {
	if l := taskLabel(op.Label); l != "" {
		return l
	}
	if op.Label != "" {
		return op.Label
	}
	return prefix(op.Text, 60)
}

// taskAsR is the model's task tool as R runs it (functions/tools/task/task.py,
// _task_impl, and agent/sub_agent_run.py, write_attach_pointer_for_spawn):
// after the sub-agent's turn, an attach pointer that is the reply's
// conversation child, showing the sub-agent's final text, the head set
// back to where it was before the pointer's append; then the tool's row:
// the arguments the model passed, json.dumps'd, and the final text with
// the branch it landed on.
func (r *LegacyRun) taskAsR(op ops.Task) {
	r.taskRows(r.reply, op.CallID, op.ID+"_reply", op.Attach, "sub done", op.Text, op.Label, "inherit")
}

// taskRows is what R's task tool writes once the sub-agent's reply subReply
// has answered: the attach pointer, a conversation child of the reply
// (its append moves the head, set back on subReply), then the tool's row
// with the arguments the model passed and the answer with the branch it
// landed on, recorded as the reply's call.
func (r *LegacyRun) taskRows(reply, call, subReply, attach string, answer any, prompt, label, context string) {
	a := newObject("session_id", r.sid, "head_id", subReply, "label", taskLabel(label), "prompt", prefix(prompt, 500),
		"source_commit_id", nil, "status", "completed")
	r.appendNode(attach, "llm", "", nil, answer, "", newObject("display", "runtime", "function", "attach",
		"parent_id", reply, "is_error", false, "agent_id", "main", "attach", a))
	r.setHead(subReply)
	args := newObject("prompt", prompt, "description", label, "context", context)
	result := fmt.Sprintf("%v\n\n[spawned agent branch=%s:%s]", answer, r.sid, subReply)
	r.appendNode(reply+"_t_"+call, "code", "task", pyDumpsASCII(args), result, reply,
		newObject("tool_call_id", call, "is_error", false))
	r.addToolCall(call, "task", args, result, false)
}

// taskLabel is the branch label R's task tool makes of a description:
// stripped, every character but a letter, a digit, '-' and '_' made '_',
// the first 24 kept.
func taskLabel(description string) string {
	var b strings.Builder
	n := 0
	for _, c := range pyStrip(description) {
		if n == 24 {
			break
		}
		if !unicode.IsLetter(c) && !unicode.IsNumber(c) && c != '-' && c != '_' {
			c = '_'
		}
		b.WriteRune(c)
		n++
	}
	return b.String()
}

func (o *legacyOps) Done(ops.Done) error     { return o.finish("completed", false) }
func (o *legacyOps) Cancel(ops.Cancel) error { return o.finish("cancelled", true) }

func (o *legacyOps) finish(status string, stop bool) error {
	r := o.run()
	if err := r.needReplyNoFrame(); err != nil {
		return err
	}
	if err := r.needNoSpawnTurn(stop); err != nil {
		return err
	}
	sp := r.spawn
	if r.aborted {
		status = "cancelled" // the stream R aborted ends cancelled
	} else if stop && r.unheard {
		status = "completed" // the stop reached no stream: the model ended the turn
	}
	reply := r.reply
	web := r.pendingSrc == "web"
	r.finish(status)
	if stop && web {
		// handle_stop's hard stage marks the session cancelled; a
		// dispatcher turn is stopped by its own cancel event, which marks
		// nothing
		r.stopped = true
	}
	switch {
	case sp != nil && sp.task != nil:
		r.taskEnd(sp, reply)
	case sp != nil && sp.async:
		r.asyncEnd(sp, reply)
	case sp != nil:
		r.spawnAttach(sp, reply)
	}
	return nil
}

func (o *legacyOps) ErrorFolded(op ops.ErrorFolded) error {
	r := o.run()
	if err := firstErr(r.needReplyNoFrame(), r.needNoSpawnTurn(true)); err != nil {
		return err
	}
	n := r.node(r.reply)
	r.changed(n)
	n.Output = "[error] " + op.Type + ": " + op.Msg
	n.meta().Set("status", "error")
	n.meta().Set("error", op.Msg)
	n.meta().Set("error_type", op.Type)
	r.meta.Set("status", "failed")
	r.setHead(r.reply)
	r.webActionSaved()
	r.webActionEnded()
	r.endTurn()
	return nil
}

func (o *legacyOps) ErrorStandalone(op ops.ErrorStandalone) error {
	r := o.run()
	if r.pending == "" || r.reply != "" {
		return fmt.Errorf("needs a pending turn without a reply")
	}
	if err := r.needNoSpawnTurn(true); err != nil {
		return err
	}
	if err := r.newIDs(op.ID); err != nil {
		return err
	}
	r.appendNode(op.ID, "llm", "", nil, "[error] "+op.Type+": "+op.Msg, "",
		newObject("role", "system", "parent_id", r.pending, "trace", "Traceback ..."))
	r.meta.Set("status", "failed")
	r.setHead(op.ID)
	r.webActionEnded()
	r.endTurn()
	return nil
}

func (o *legacyOps) Crash(ops.Crash) error {
	r := o.run()
	r.writeMeta()
	r.endTurn()
	r.frames = nil
	r.chMade, r.runtime = false, false // the server's conversations die with it
	r.stopped = false
	return nil
}

func (o *legacyOps) Fn(op ops.Fn) error {
	r := o.run()
	if r.reply == "" && len(r.frames) == 0 {
		return fmt.Errorf("no open reply or function")
	}
	args, err := jsonObject(op.Args)
	if err := firstErr(r.newIDs(op.ID), err, r.recursionGuard(op.Name)); err != nil {
		return err
	}
	calledBy := r.reply
	if len(r.frames) > 0 {
		calledBy = r.frames[len(r.frames)-1].id
	} else if err := r.needLiveStream(); err != nil {
		return err
	}
	if op.ViaExec {
		if !r.frameHasExec() {
			return fmt.Errorf("via-exec: the innermost function has no exec")
		}
		calledBy = r.frames[len(r.frames)-1].lastExec
	}
	r.appendFn(op.ID, op.Name, args, op.Expose, calledBy)
	f := frame{id: op.ID, name: op.Name}
	if calledBy == r.reply {
		f.call, f.input = op.Name, pyDumpsASCII(args)
	}
	r.frames = append(r.frames, f)
	return nil
}

// maxNesting is R's recursion guard: a function called while as many runs
// of the same name are open raises RecursionError in its caller's body,
// after its row is appended and before its body runs
// (agentic_programming/function.py, _MAX_AGENTIC_RECURSION_DEPTH).
const maxNesting = 5

// recursionGuard refuses a function R's recursion guard stops: what R then
// writes (a row left running, an error its caller's code may or may not
// catch) is the caller's code, which no op says.
func (r *LegacyRun) recursionGuard(name string) error {
	n := 0
	for _, f := range r.frames {
		if f.name == name {
			n++
		}
	}
	if n >= maxNesting {
		return fmt.Errorf("%s runs %d times already: R's recursion guard raises in its caller (at most %d nested runs of one name)", name, n, maxNesting)
	}
	return nil
}

func (o *legacyOps) Manual(op ops.Manual) error {
	r := o.run()
	args, err := jsonObject(op.Args)
	if err := firstErr(r.needIdle(), r.newIDs(op.ID), err); err != nil {
		return err
	}
	r.conversation() // the fn-form route gets the conversation first
	r.ensureRoot()
	// The fn-form route sets the session's title (update_session) before
	// it runs the function: the meta write persists the in-memory head,
	// ROOT when ensureRoot has just created it (R0).
	r.writeMeta()
	r.appendFn(op.ID, op.Name, args, op.Expose, "ROOT")
	r.frames = append(r.frames, frame{id: op.ID, name: op.Name, manual: true})
	return nil
}

func (o *legacyOps) Run(op ops.Run) error {
	r := o.run()
	args, err := jsonObject(op.Args)
	if err := firstErr(r.needIdle(), r.newIDs(op.ID), err); err != nil {
		return err
	}
	r.appendFn(op.ID, op.Name, args, op.Expose, "")
	r.frames = append(r.frames, frame{id: op.ID, name: op.Name})
	return nil
}

func (o *legacyOps) Exec(op ops.Exec) error {
	r := o.run()
	if err := firstErr(r.needFrame(), r.newIDs(op.ID)); err != nil {
		return err
	}
	f := &r.frames[len(r.frames)-1]
	// R's runtime.exec writes the call with no input (its prompt is in
	// prompt_text), as the real writer's sessions hold.
	r.appendNode(op.ID, "llm", "model-x", nil, op.Reply, f.id,
		newObject("status", "completed", "prompt_text", op.Prompt))
	f.lastExec = op.ID
	return nil
}

func (o *legacyOps) Ask(op ops.Ask) error {
	r := o.run()
	if err := firstErr(r.needFrame(), r.newIDs(op.ID)); err != nil {
		return err
	}
	if op.Declined && op.Answer != "" {
		return fmt.Errorf("ask %s: declined with an answer", op.ID)
	}
	status := "answered"
	if op.Answer == "" {
		status = "unanswered"
	}
	// ask_user stores what its handler returned: the answer, "" for an
	// empty one, None for a question the user rejected.
	var out any = op.Answer
	if op.Declined {
		out = nil
	}
	r.appendNode(op.ID, "user", "", newObject("question", op.Question), out,
		r.frames[len(r.frames)-1].id, newObject("status", status))
	return nil
}

func (o *legacyOps) End(op ops.End) error {
	r := o.run()
	if err := r.needFrame(); err != nil {
		return err
	}
	secs, err := op.Seconds()
	if err != nil {
		return err
	}
	var output any // default null
	status := "completed"
	if op.Error != "" {
		output, status = newObject("error", op.Error), "error"
	} else if op.Output != "" {
		v, err := ParseJSON([]byte(op.Output))
		if err != nil {
			return fmt.Errorf("output %q: %w", op.Output, err)
		}
		output = v
	}
	f := r.frames[len(r.frames)-1]
	r.frames = r.frames[:len(r.frames)-1]
	n := r.node(f.id)
	r.changed(n)
	n.Output = output
	n.meta().Set("status", status)
	n.meta().Set("duration_seconds", Float(secs))
	// R's forced-tool path (agent/dispatcher/forced_tool.py) moves the head
	// to the run only when its subprocess reports the run's row, which it
	// does only for a run that returned (agent/process_runner.py): a run
	// that ended in an error leaves the head where it was (R13).
	if f.manual && op.Error == "" {
		r.setHead(f.id)
	}
	if f.manual {
		// the forced-tool path clears the flag as the run ends; the
		// fn-form route that ran it saves no model (webui/routes/chat.py)
		r.stopped = false
	}
	if f.call != "" {
		// R's dispatcher keeps a function the model called among the
		// reply's blocks (not its slim tool_calls): its call id is the
		// adapter's "call_" + the function's id, its result the text of
		// what the function returned (agentic_programming/function.py,
		// _normalize_result), an error as "Type: message", never is_error.
		r.blocks = append(r.blocks, newObject("type", "tool", "tool", f.call, "tool_call_id", "call_"+f.id,
			"input", f.input, "result", fnResult(output, op.Error), "is_error", false))
	}
	return nil
}

// fnResult is the text of what a function the model called returned, as
// R records it in the reply's tool block.
func fnResult(out any, errMsg string) string {
	if errMsg != "" {
		return "RuntimeError: " + errMsg // the adapter's function raises RuntimeError(M)
	}
	switch v := out.(type) {
	case nil:
		return toolText("", false)
	case string:
		return toolText(v, false)
	}
	return pyDumps(out)
}

func (o *legacyOps) Retry(op ops.Retry) error { return o.run().retry(op.Of, op.ID, nil, false, op.Web) }

func (o *legacyOps) Edit(op ops.Edit) error {
	return o.run().retry(op.Of, op.ID, op.Text, true, op.Web)
}

func (o *legacyOps) Checkout(op ops.Checkout) error {
	r := o.run()
	if err := firstErr(r.needIdle(), r.existing(op.ID)); err != nil {
		return err
	}
	r.setHead(op.ID)
	// R's handle_checkout_branch sets the head of the conversation the
	// server has made; it makes none (webui/ws_actions/branch.py): after a
	// restart the next web op makes it from the store's head.
	if r.chMade {
		r.setCH(op.ID)
	}
	return nil
}

func (o *legacyOps) Reload(ops.Reload) error {
	r := o.run()
	// R's handle_load_session makes the conversation only of a session the
	// store holds (a session nothing has written yet is the welcome page),
	// its head the one the load shows: a head on a row the aggregation
	// folds (a tool row) climbs to the row it folds into (step 4).
	if len(r.nodes) == 0 {
		return nil
	}
	switch {
	case r.memHead != "":
		r.setCH(r.ShownHead())
	case r.chMade && r.chSet:
		// no head stored: the load keeps the conversation's (head_or_tip)
	default:
		// … or, with none, takes the last message it shows
		r.setCH(r.tipHead())
	}
	return nil
}

func (o *legacyOps) Spawn(op ops.Spawn) error {
	r := o.run()
	if err := r.needSpawn(op); err != nil {
		return err
	}
	prompt, label := pyStrip(op.Text), pyStrip(op.Label)
	r.conversation()
	r.ensureRoot()
	if !op.Rooted { // R's /spawn runs in _execute_in_context, which builds the runtime first
		r.runtime = true
	}
	// The command as the user typed it (R's _chat_helpers parses the label
	// before the first colon), stripped as the web chat strips a message.
	cmdMeta, text := newObject("source", "web", "function", "task"), "/spawn "+op.Label+": "+op.Text
	switch op.Mode {
	case "clean":
		text = "/spawn --clean " + op.Label + ": " + op.Text
	case "async":
		cmdMeta, text = newObject("source", "web"), "/task --async "+op.Label+": "+op.Text
	}
	if op.Rooted && op.Mode != "async" { // the older writers' command row
		text = "/spawn " + op.Text
	}
	text = pyStrip(text)
	if r.chSet {
		cmdMeta.Set("parent_id", r.ch)
	}
	r.appendNode(op.Cmd, "user", "", nil, text, "ROOT", cmdMeta)
	r.setHead(op.Cmd)
	r.setCH(op.Cmd)
	attachCaller := op.Cmd
	if p, ok := cmdMeta.Val("parent_id").(string); ok && p != "" {
		attachCaller = p
	}
	if op.Mode == "async" { // the attach pointer first, running; the head back on the command row
		r.stopped = false // the task runner clears the cancel flag as the task starts
		if !op.Rooted {
			// the web action ends once the task is submitted, before the
			// runner's sub-agent answers: the server saves its conversation
			r.savedModel = "plain"
		}
		r.appendNode(op.Attach, "llm", "", nil, "(running)", attachCaller, newObject(
			"display", "runtime", "function", "attach", "is_error", false, "agent_id", "main",
			"attach", newObject("session_id", r.sid, "head_id", nil, "label", label, "prompt", prefix(prompt, 500),
				"source_commit_id", nil, "status", "running")))
		r.setHead(op.Cmd)
	}
	if op.Turn && op.Mode == "async" {
		// R's web handler stitches the runner's task id into the card as
		// soon as it has submitted the task (webui/_execute, _run_spawn_async)
		n := r.node(op.Attach)
		r.changed(n)
		a := deepCopy(n.meta().Val("attach")).(*Object)
		a.Set("task_id", taskID(op))
		n.meta().Set("extra", pyDumpsASCII(newObject("attach", a)))
		n.meta().Set("attach", a)
	}
	if op.Turn { // the sub-agent's turn goes on in the ops that follow
		r.spawnSub(op, attachCaller)
		return nil
	}
	var sub *Object
	switch {
	case op.Mode != "clean":
		sub = subMeta(op.Cmd, op.Rooted)
	case op.Rooted:
		sub = newObject("source", "agent_spawn")
	default:
		sub = subMeta(nil, false)
	}
	subText := prompt
	if op.Rooted {
		subText = op.Text
	}
	r.subAgent(op.ID, subText, sub, op.Rooted)
	if op.Mode == "async" { // the task ended: its card shows the answer
		n := r.node(op.Attach)
		r.changed(n)
		n.Output = "sub done"
		a := deepCopy(n.meta().Val("attach")).(*Object)
		a.Set("head_id", op.ID+"_reply")
		a.Set("status", "completed")
		a.Set("task_id", taskID(op))
		n.meta().Set("attach", a)
		n.meta().Set("extra", pyDumpsASCII(newObject("attach", a)))
		if !op.Rooted {
			r.followupAtOnce(op.Cmd, op.Followup, label, prompt)
		}
		return nil
	}
	if op.Rooted { // the older writers: a done card, the head left on the sub-agent's reply
		r.appendNode(op.Attach, "llm", "", nil, "(done)", attachCaller, newObject(
			"display", "runtime", "function", "attach", "is_error", false,
			"attach", r.attachInfo(op.ID, op.Label, op.Text, false)))
		return nil
	}
	// R's _run_spawn: the attach pointer shows the sub-agent's final text,
	// and the head goes back to where it was before the pointer's append:
	// the command row (the sub-agent's rows do not move the stored head).
	a := newObject("session_id", r.sid, "head_id", op.ID+"_reply", "label", label, "prompt", prefix(prompt, 500),
		"source_commit_id", nil)
	r.appendNode(op.Attach, "llm", "", nil, "sub done", attachCaller, newObject(
		"display", "runtime", "function", "attach", "is_error", false, "agent_id", "main", "attach", a))
	r.setHead(op.Cmd)
	r.savedModel = "plain" // the web action ends: the server saves its conversation
	return nil
}

// needSpawn refuses a spawn R does not run: a writer busy, an unknown mode,
// an id taken, an empty prompt, a rooted turn, a follow-up id on anything
// but an async spawn that is not rooted (required there), a task id on a
// spawn that is not async.
func (r *LegacyRun) needSpawn(op ops.Spawn) error {
	if op.Mode != "inherit" && op.Mode != "clean" && op.Mode != "async" {
		return fmt.Errorf("spawn mode %q is not inherit, clean or async", op.Mode)
	}
	ids := []string{op.Cmd, op.ID, op.ID + "_reply", op.Attach}
	if op.Followup != "" {
		ids = append(ids, op.Followup, op.Followup+"_reply")
	}
	if err := firstErr(r.needIdle(), r.newIDs(ids...)); err != nil {
		return err
	}
	switch {
	case pyStrip(op.Text) == "":
		return fmt.Errorf("spawn needs a text: R's /spawn refuses an empty prompt")
	case op.Turn && op.Rooted:
		return fmt.Errorf("spawn turn is written as R's /task writes it: not rooted")
	case (op.Mode == "async" && !op.Rooted) != (op.Followup != ""):
		return fmt.Errorf("spawn followup= names the follow-up turn of an async spawn (not rooted), and only of one")
	case op.Task != "" && op.Mode != "async":
		return fmt.Errorf("spawn task= is the task id of an async spawn")
	}
	return nil
}

// taskID is the id of an async spawn's task: the one the runner drew, or
// t_<attach>.
func taskID(op ops.Spawn) string {
	if op.Task != "" {
		return op.Task
	}
	return "t_" + op.Attach
}

// prefix is Python's s[:n]: the first n code points.
func prefix(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}

func (o *legacyOps) Script(op ops.Script) error {
	r := o.run()
	if err := firstErr(r.needIdle(), r.newIDs(op.ID)); err != nil {
		return err
	}
	if op.Prompt != "" && op.What != "exec" {
		return fmt.Errorf("script what=%s takes no prompt", op.What)
	}
	switch op.What {
	case "fn":
		// R's @agentic_function wrapper records a run's duration as the
		// difference of two clock readings, before and after the row's own
		// append: one tick of the op clock (R9).
		start, end := r.now(), Float(r.clock+1.5*float64(r.ticks+1))
		r.appendNode(op.ID, "code", op.Name, &Object{}, "ok", "",
			newObject("expose", "io", "status", "completed", "duration_seconds", Float(float64(end)-float64(start))))
	case "exec":
		// runtime.exec records the text it sent, when it sent one
		meta := newObject("status", "completed")
		if op.Prompt != "" {
			meta.Set("prompt_text", op.Prompt)
		}
		r.appendNode(op.ID, "llm", "model-x", nil, "script reply", "", meta)
	case "ask": // a top-level ask_user, answered
		r.appendNode(op.ID, "user", "", newObject("question", "proceed?"), "yes", "", newObject("status", "answered"))
	default:
		return fmt.Errorf("script what=%q is not fn, exec or ask", op.What)
	}
	// session_context writes through the graph shim, whose append moves
	// only the in-memory head; nothing in a script writes meta (R9).
	return nil
}

func (o *legacyOps) LegacyUser(op ops.LegacyUser) error {
	r := o.run()
	if err := firstErr(r.needIdle(), r.newIDs(op.ID)); err != nil {
		return err
	}
	meta := &Object{}
	setParentID(meta, op.Parent)
	r.appendNode(op.ID, "user", "", nil, op.Text, "", meta)
	r.writeMeta()
	return nil
}

func (o *legacyOps) LegacyReply(op ops.LegacyReply) error {
	r := o.run()
	if err := firstErr(r.needIdle(), r.newIDs(op.ID)); err != nil {
		return err
	}
	meta := newObject("parent_id", op.Parent)
	if op.Blocks { // the message's extra, merged into metadata
		meta.Set("tool_calls", []any{})
		meta.Set("blocks", []any{newObject("type", "text", "text", op.Text)})
	}
	r.appendNode(op.ID, "llm", "", nil, op.Text, "", meta)
	r.writeMeta()
	return nil
}

func (o *legacyOps) Orphan(op ops.Orphan) error {
	r := o.run()
	if err := firstErr(r.needIdle(), r.newIDs(op.ID)); err != nil {
		return err
	}
	r.appendNode(op.ID, "code", op.Name, &Object{}, "orphan", op.Caller,
		newObject("tool_call_id", op.ID, "is_error", false))
	r.writeMeta()
	return nil
}

func (o *legacyOps) Rewind(op ops.Rewind) error {
	r := o.run()
	if err := r.existing(op.ID); err != nil {
		return err
	}
	n := r.node(op.ID)
	r.changed(n)
	n.meta().Set("rewound", true)
	return nil
}

// Flag: the legacy model writes with every flag off, so a flag set changes
// nothing it writes; one that names no set of the rollout path is refused.
func (o *legacyOps) Flag(op ops.Flag) error {
	_, err := op.Step()
	return err
}

// Writer: the named writer performs the ops that follow (README: writer).
// The one performing them now keeps its browser's head and its turn in
// progress for when it is named again; a writer named for the first time has
// neither. A writer that takes over reads the session as stored, as a
// process that opens it does (legacy §2.1, reading back): its in-memory head
// is meta.json's head_id, else its last_node_id, else none. The flags are
// checked as `flag` checks them and write nothing here.
func (o *legacyOps) Writer(op ops.Writer) error {
	r := o.run()
	if op.Name == "" {
		return fmt.Errorf("writer needs a name")
	}
	if _, err := op.Step(); err != nil {
		return err
	}
	if op.Name == r.writer {
		return nil
	}
	next := writerState{writer: op.Name}
	for i, w := range r.parked {
		if w.writer == op.Name {
			next = w
			r.parked = append(r.parked[:i:i], r.parked[i+1:]...)
			break
		}
	}
	at, _ := slices.BinarySearchFunc(r.parked, r.writer, func(w writerState, name string) int { return strings.Compare(w.writer, name) })
	r.parked = slices.Insert(r.parked, at, r.writerState)
	r.writerState = next
	r.memHead = r.meta.Str("head_id")
	if r.memHead == "" {
		r.memHead = r.meta.Str("last_node_id")
	}
	return nil
}

func (o *legacyOps) Clock(op ops.Clock) error {
	at, err := op.Time()
	if err != nil {
		return err
	}
	o.clock, o.ticks = at, 0
	return nil
}
