package writer

import (
	"fmt"
	"strings"
	"unicode"

	"sessiondag/impl/flags"
	"sessiondag/impl/node"
)

// Spawn is the /spawn command (legacy §6 #11, #12, #35): a command row, a
// sub-agent turn (inherit and async: parented to the command row; clean: a
// new chain root) and an attach pointer under the fork anchor (async: the
// pointer first, running, finished once the sub-agent has answered). The
// sub-agent's user is written as the dispatcher writes it (Dispatch). R's
// _run_spawn (webui/_execute) stores the command as typed, shows the
// sub-agent's final text on the pointer and sets the head back to the
// command row; the older writers (rooted: the sub-agent's user called by
// ROOT) left it on the sub-agent's reply.
//
// With turn (inherit and clean, not rooted) the sub-agent's turn is left
// pending, as R's /task writes it: the ops that follow write its reply, and
// its Done the attach pointer (spawnEnd).
func (w *Writer) Spawn(mode, cmd, sub, attach, text, label string, rooted, turn bool, followup, task string) error {
	if err := w.needSpawn(mode, text, rooted, turn, followup, task); err != nil {
		return err
	}
	prompt, lbl := pyStrip(text), pyStrip(label)
	if task == "" {
		task = TaskID(attach)
	}
	w.conversation()
	if !rooted { // R's /spawn runs in _execute_in_context, which builds the runtime first
		w.runtime = true
	}
	if err := w.ensureRoot(); err != nil {
		return err
	}
	md, out := meta("source", node.Str("web"), "function", node.Str("task")), pyStrip(typed(mode, label, text))
	if mode == "async" {
		md = meta("source", node.Str("web"))
	} else if rooted {
		out = "/spawn " + text // the older writers' command row
	}
	if ch, ok := w.ClientHead(); ok {
		md.Set("parent_id", node.Str(ch))
	}
	from := w.storeAnchor() // where the spawn was issued: C's and the attach's predecessor
	w.predecessor(md, from)
	if err := w.add(&node.Node{ID: cmd, Role: node.RoleUser, Output: node.Str(out), CalledBy: node.RootID, Metadata: md}); err != nil {
		return err
	}
	if err := w.S.SetHead(cmd); err != nil {
		return err
	}
	w.setClient(cmd)
	anchor := cmd
	if c, ok := w.S.Get(cmd); ok && c.ParentID() != "" {
		anchor = c.ParentID()
	}
	if from == node.RootID {
		from = cmd // a spawn that starts the conversation hangs off its command row
	}
	if mode == "async" {
		*w.stop = false // the task runner clears the cancel flag as the task starts
		if !rooted {    // the web action ends as the task is submitted: the server saves its conversation
			*w.saved = modelPlain
		}
		amd := meta("display", node.Str("runtime"), "function", node.Str("attach"), "is_error", node.BoolV(false),
			"agent_id", node.Str("main"), "attach", node.ObjV(meta("session_id", node.Str(w.S.ID), "head_id", node.NullV(),
				"label", node.Str(lbl), "prompt", node.Str(prefix(prompt, 500)), "source_commit_id", node.NullV(), "status", node.Str("running"))))
		w.predecessor(amd, from)
		if err := w.add(&node.Node{ID: attach, Role: node.RoleLLM, Output: node.Str("(running)"), CalledBy: anchor, Metadata: amd}); err != nil {
			return err
		}
		if err := w.S.SetHead(cmd); err != nil {
			return err
		}
	}
	var smd *node.Obj
	switch {
	case mode != "clean":
		smd = w.subMeta(node.Str(cmd), rooted)
		w.predecessor(smd, cmd)
	case rooted:
		smd = meta("source", node.Str("agent_spawn"))
	default:
		smd = w.subMeta(node.NullV(), false)
	}
	if mode == "clean" && w.Flags.Has(flags.A) { // a clean spawn is a marked spawn root
		smd.Set("spawn_root", node.BoolV(true))
	}
	subText := prompt
	if rooted {
		subText = text
	}
	if turn && mode == "async" {
		// R's web handler stitches the runner's task id into the card as
		// soon as the task is submitted
		err := w.S.Update(attach, func(n *node.Node) {
			a := n.Metadata.Get("attach").O.Clone()
			a.Set("task_id", node.Str(task))
			n.Metadata.Set("extra", node.Str(node.DumpsASCII(node.ObjV(meta("attach", node.ObjV(a))))))
			n.Metadata.Set("attach", node.ObjV(a))
		})
		if err != nil {
			return err
		}
	}
	if turn {
		end := &spawnEnd{cmd: cmd, attach: attach, anchor: anchor, from: from, label: label, prompt: text}
		if mode == "async" {
			end.async = &asyncEnd{followup: followup, task: task}
		}
		return w.spawnTurn(sub, text, smd, end)
	}
	if err := w.subTurn(sub, subText, smd, rooted); err != nil {
		return err
	}
	if mode == "async" && rooted {
		return w.finishAttach(attach, sub, task)
	}
	if mode == "async" {
		if err := w.finishAttach(attach, sub, task); err != nil {
			return err
		}
		return w.followupAtOnce(cmd, followup, lbl, prompt)
	}
	if rooted { // the older writers: a done card, the head left on the sub-agent's reply
		amd := w.attachMeta(sub, text, label, false)
		w.predecessor(amd, from)
		return w.add(&node.Node{ID: attach, Role: node.RoleLLM, Output: node.Str("(done)"), CalledBy: anchor, Metadata: amd})
	}
	amd := meta("display", node.Str("runtime"), "function", node.Str("attach"), "is_error", node.BoolV(false),
		"agent_id", node.Str("main"), "attach", node.ObjV(meta("session_id", node.Str(w.S.ID), "head_id", node.Str(sub+"_reply"),
			"label", node.Str(lbl), "prompt", node.Str(prefix(prompt, 500)), "source_commit_id", node.NullV())))
	w.predecessor(amd, from)
	if err := w.add(&node.Node{ID: attach, Role: node.RoleLLM, Output: node.Str("sub done"), CalledBy: anchor, Metadata: amd}); err != nil {
		return err
	}
	*w.saved = modelPlain // the web action ends: the server saves its conversation
	return w.S.SetHead(cmd)
}

// needSpawn refuses a spawn the original does not run: no writer idle, an
// unknown mode, an empty prompt, a rooted turn, a follow-up id on anything
// but an async turn (required there, and new), a task id on a spawn that is
// not async.
func (w *Writer) needSpawn(mode, text string, rooted, turn bool, followup, task string) error {
	if err := w.needIdle("spawn"); err != nil {
		return err
	}
	if mode != "inherit" && mode != "clean" && mode != "async" {
		return fmt.Errorf("spawn mode %q: want inherit, clean or async", mode)
	}
	if pyStrip(text) == "" {
		return fmt.Errorf("%w: spawn needs a text (R's /spawn refuses an empty prompt)", ErrState)
	}
	if turn && rooted {
		return fmt.Errorf("%w: spawn turn: not rooted", ErrState)
	}
	if (mode == "async" && !rooted) != (followup != "") {
		return fmt.Errorf("%w: spawn followup=%q: the follow-up turn of an async spawn (not rooted), and only of one", ErrState, followup)
	}
	if task != "" && mode != "async" {
		return fmt.Errorf("%w: spawn task=%q: the task id of an async spawn", ErrState, task)
	}
	for _, id := range []string{followup, followup + "_reply"} {
		if _, dup := w.S.Get(id); dup && followup != "" {
			return fmt.Errorf("%w: node id %q is already stored", ErrState, id)
		}
	}
	return nil
}

// typed is the command line the user typed for a spawn (R's _chat_helpers
// parses the label before the first colon; async is /task --async).
func typed(mode, label, text string) string {
	switch mode {
	case "clean":
		return "/spawn --clean " + label + ": " + text
	case "async":
		return "/task --async " + label + ": " + text
	}
	return "/spawn " + label + ": " + text
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

// subMeta is a sub-agent user's metadata under parent: as the dispatcher
// writes it (the peer and agent keys), or as its direct write did (rooted).
func (w *Writer) subMeta(parent node.Value, rooted bool) *node.Obj {
	if rooted {
		return meta("parent_id", parent, "source", node.Str("agent_spawn"))
	}
	return meta("parent_id", parent, "source", node.Str("agent_spawn"), "peer_display", node.NullV(),
		"peer_id", node.NullV(), "agent_id", node.Str("main"))
}

// TaskID is the default id of an async task: of a /task --async, t_ and
// its attach row's id; of the task tool's, t_ and its sub-agent user's.
func TaskID(of string) string { return "t_" + of }

// finishAttach is the async task's end: its attach pointer shows the
// sub-agent's answer, its head, status and task id, and the same attach
// again in an extra string.
func (w *Writer) finishAttach(attach, sub, task string) error {
	return w.S.Update(attach, func(n *node.Node) {
		n.Output = node.Str("sub done")
		a := n.Metadata.Get("attach").O.Clone()
		a.Set("head_id", node.Str(sub+"_reply"))
		a.Set("status", node.Str("completed"))
		a.Set("task_id", node.Str(task))
		n.Metadata.Set("attach", node.ObjV(a))
		n.Metadata.Set("extra", node.Str(node.DumpsASCII(node.ObjV(meta("attach", node.ObjV(a))))))
	})
}

// subTurn writes a sub-agent's user row and reply; the head moves to the
// reply. The user is caller-less (its append moves the head, which is then
// set to it), or called by ROOT when rooted.
func (w *Writer) subTurn(sub, text string, md *node.Obj, rooted bool) error {
	caller := ""
	if rooted {
		caller = node.RootID
	}
	if err := w.add(&node.Node{ID: sub, Role: node.RoleUser, Output: node.Str(text), CalledBy: caller, Metadata: md}); err != nil {
		return err
	}
	if !rooted {
		if err := w.S.SetHead(sub); err != nil {
			return err
		}
	}
	rmd := meta("parent_id", node.Str(sub), "status", node.Str("completed")) // the older writers'
	if !rooted {
		rmd = w.atOnceReplyMeta(sub)
	}
	w.predecessor(rmd, sub)
	if err := w.add(&node.Node{ID: sub + "_reply", Role: node.RoleLLM, Output: node.Str("sub done"), CalledBy: sub, Metadata: rmd}); err != nil {
		return err
	}
	return w.S.SetHead(sub + "_reply")
}

// atOnceReplyMeta is the metadata of a sub-agent's reply answered at once,
// as R's persistence writes every agent turn's: its source, the model once
// the session records one (the provider when a turn's finalize saved it
// last), and the extra of its one text block.
func (w *Writer) atOnceReplyMeta(user string) *node.Obj {
	rmd := meta("parent_id", node.Str(user), "source", node.Str("agent_spawn"), "status", node.Str("completed"),
		"worker_id", node.Str("w1"))
	if *w.saved != noModel {
		rmd.Set("model", node.Str("model-x"))
		if *w.saved == modelProvider {
			rmd.Set("provider", node.Str("p"))
		}
		rmd.Set("token_model", node.Str("model-x"))
	}
	blocks := node.Arr([]node.Value{node.ObjV(meta("type", node.Str("text"), "text", node.Str("sub done")))})
	rmd.Set("extra", node.Str(node.DumpsASCII(node.ObjV(meta("tool_calls", node.Arr([]node.Value{}), "blocks", blocks)))))
	return rmd
}

func (w *Writer) attachMeta(sub, text, label string, async bool) *node.Obj {
	a := meta("session_id", node.Str(w.S.ID), "head_id", node.Str(sub+"_reply"), "label", node.Str(label), "prompt", node.Str(text))
	if async {
		a.Set("status", node.Str("running"))
	}
	return meta("display", node.Str("runtime"), "function", node.Str("attach"), "is_error", node.BoolV(false), "attach", node.ObjV(a))
}

// Task is the model's `task` tool (legacy §6 #13): a sub-agent turn parented
// to the open reply, an attach pointer that is a conversation child of the
// reply, and the tool's result row.
func (w *Writer) Task(callID, sub, attach, text, label string, async, rooted bool) error {
	if err := w.needTaskCall(); err != nil {
		return err
	}
	if err := w.needTaskParent(rooted); err != nil {
		return err
	}
	return w.task(callID, sub, attach, text, label, async, rooted)
}

func (w *Writer) task(callID, sub, attach, text, label string, async, rooted bool) error {
	if async {
		*w.stop = false // the task runner clears the cancel flag as the task starts
	}
	r := w.reply.id
	smd := w.subMeta(node.Str(r), rooted)
	w.predecessor(smd, r)
	if err := w.subTurn(sub, text, smd, rooted); err != nil {
		return err
	}
	if !rooted && !async {
		return w.taskAsR(callID, sub, attach, text, label)
	}
	pre := w.S.Head()
	out := "(done)"
	if async {
		out = "(running)"
	}
	amd := meta("parent_id", node.Str(r))
	amd.Update(w.attachMeta(sub, text, label, async))
	w.predecessor(amd, r)
	if err := w.add(&node.Node{ID: attach, Role: node.RoleLLM, Output: node.Str(out), Metadata: amd}); err != nil {
		return err
	}
	if err := w.S.SetHead(pre); err != nil {
		return err
	}
	in := meta("prompt", node.Str(text))
	md := meta("tool_call_id", node.Str(callID), "is_error", node.BoolV(false))
	if err := w.add(&node.Node{ID: r + "_t_" + callID, Role: node.RoleCode, Name: "task", Input: node.ObjV(in), Output: node.Str(out), CalledBy: r, Metadata: md}); err != nil {
		return err
	}
	w.recordCall(callID, "task", node.DumpsASCII(node.ObjV(in)), out, false)
	return nil
}

// taskAsR is the model's task tool as R runs it (functions/tools/task/task.py
// and agent/sub_agent_run.py, write_attach_pointer_for_spawn): an attach
// pointer that is the reply's conversation child, with the sub-agent's
// final text, the head set back to where it was before its append; then
// the tool's row: the arguments the model passed, json.dumps'd, and the
// final text with the branch it landed on.
func (w *Writer) taskAsR(callID, sub, attach, text, label string) error {
	return w.taskRows(w.reply.id, callID, sub+"_reply", attach, node.Str("sub done"), text, label, "inherit")
}

// needTaskCall refuses a task call outside an open reply's live stream, or
// while a function is running.
func (w *Writer) needTaskCall() error {
	if err := w.needReply("task"); err != nil {
		return err
	}
	if len(w.frames) > 0 {
		return fmt.Errorf("%w: task while a function is running", ErrState)
	}
	return w.needLiveStream("task")
}

// needTaskParent refuses R's task tool in a dispatcher turn: the tool finds
// its parent turn through the web chat's session ContextVar, which a
// dispatcher turn does not set, so it answers with an error text and runs
// no sub-agent (R's functions/tools/task/task.py, _resolve_parent): that
// row is a tool op's, with the error as its result. The older writers'
// task (rooted) is not R's tool.
func (w *Writer) needTaskParent(rooted bool) error {
	if rooted || w.pending == nil || w.pending.source == "web" || w.pending.source == "agent_spawn" {
		return nil
	}
	return fmt.Errorf("%w: task in a %s turn: the task tool answers a dispatcher turn with an error and runs no sub-agent (a tool op)", ErrState, w.pending.source)
}

// taskRows writes what R's task tool writes once the sub-agent's reply
// subReply has answered out: the attach pointer, a conversation child of the
// reply r (its append moves the head, which is set back on subReply), then
// the tool's row with the arguments the model passed and the answer with the
// branch it landed on, recorded as r's call.
func (w *Writer) taskRows(r, callID, subReply, attach string, out node.Value, prompt, label, context string) error {
	a := meta("session_id", node.Str(w.S.ID), "head_id", node.Str(subReply), "label", node.Str(taskLabel(label)),
		"prompt", node.Str(prefix(prompt, 500)), "source_commit_id", node.NullV(), "status", node.Str("completed"))
	amd := meta("display", node.Str("runtime"), "function", node.Str("attach"), "parent_id", node.Str(r),
		"is_error", node.BoolV(false), "agent_id", node.Str("main"), "attach", node.ObjV(a))
	w.predecessor(amd, r)
	if err := w.add(&node.Node{ID: attach, Role: node.RoleLLM, Output: out, Metadata: amd}); err != nil {
		return err
	}
	if err := w.S.SetHead(subReply); err != nil {
		return err
	}
	in := node.DumpsASCII(node.ObjV(meta("prompt", node.Str(prompt), "description", node.Str(label), "context", node.Str(context))))
	result := out.Str() + "\n\n[spawned agent branch=" + w.S.ID + ":" + subReply + "]"
	md := meta("tool_call_id", node.Str(callID), "is_error", node.BoolV(false))
	if err := w.add(&node.Node{ID: r + "_t_" + callID, Role: node.RoleCode, Name: "task", Input: node.Str(in), Output: node.Str(result), CalledBy: r, Metadata: md}); err != nil {
		return err
	}
	w.recordCall(callID, "task", in, result, false)
	return nil
}

// taskLabel is the branch label R's task tool makes of a description:
// stripped, every character but a letter, a digit, '-' and '_' made '_',
// the first 24 kept.
func taskLabel(description string) string {
	out := []rune(pyStrip(description))
	if len(out) > 24 {
		out = out[:24]
	}
	for i, c := range out {
		if !unicode.IsLetter(c) && !unicode.IsNumber(c) && c != '-' && c != '_' {
			out[i] = '_'
		}
	}
	return string(out)
}

// spawnEnd is what a spawn turn writes once its sub-agent's reply is done:
// the attach pointer under the fork anchor, with the sub-agent's answer,
// then the head back on the command row (R's _run_spawn restores
// head_before).
type spawnEnd struct {
	cmd, attach, anchor, from, label, prompt string
	task                                     *taskWait // a task turn's: the reply waiting on its call
	async                                    *asyncEnd // an async spawn's: the runner's end
}

// asyncEnd is what R's task runner writes once an async spawn's sub-agent
// turn is done: the card finished, then the follow-up turn.
type asyncEnd struct{ followup, task string }

// taskWait is the turn whose reply called a task turn, suspended while the
// sub-agent's turn runs.
type taskWait struct {
	call, context string
	pending       *turn
	reply         *reply
	aborted       bool
}

// spawnTurn writes a spawn turn's sub-agent user as the dispatcher writes
// it (its append moves the head, then set to it) and leaves its turn
// pending.
func (w *Writer) spawnTurn(sub, text string, md *node.Obj, end *spawnEnd) error {
	if err := w.add(&node.Node{ID: sub, Role: node.RoleUser, Output: node.Str(text), Metadata: md}); err != nil {
		return err
	}
	if err := w.S.SetHead(sub); err != nil {
		return err
	}
	w.pending = &turn{user: sub, source: "agent_spawn", spawn: end}
	return nil
}

// endSpawn writes the attach pointer of a spawn turn whose reply (its
// answer out) is done, and sets the head back on the command row.
func (w *Writer) endSpawn(end *spawnEnd, reply string, out node.Value) error {
	a := meta("session_id", node.Str(w.S.ID), "head_id", node.Str(reply), "label", node.Str(end.label),
		"prompt", node.Str(end.prompt), "source_commit_id", node.NullV())
	amd := meta("display", node.Str("runtime"), "function", node.Str("attach"), "is_error", node.BoolV(false),
		"agent_id", node.Str("main"), "attach", node.ObjV(a))
	w.predecessor(amd, end.from)
	if err := w.add(&node.Node{ID: end.attach, Role: node.RoleLLM, Output: out, CalledBy: end.anchor, Metadata: amd}); err != nil {
		return err
	}
	return w.S.SetHead(end.cmd)
}

// endAsync ends an async spawn turn whose reply (its answer out) is done,
// as R's task runner does (agent/task/runner.py): the attach card shows the
// answer, the branch, the completed status and the task id, and holds the
// attach again in extra; then the follow-up (_dispatch_followup): the head
// back on the command row, and a dispatcher turn of R's own instruction,
// source task_followup, pending.
func (w *Writer) endAsync(end *spawnEnd, reply string, out node.Value) error {
	err := w.S.Update(end.attach, func(n *node.Node) {
		if out.Truthy() { // the task's result text, else the card's own
			n.Output = out
		}
		a := n.Metadata.Get("attach").O.Clone()
		a.Set("head_id", node.Str(reply))
		a.Set("status", node.Str("completed"))
		a.Set("task_id", node.Str(end.async.task))
		n.Metadata.Set("attach", node.ObjV(a))
		n.Metadata.Set("extra", node.Str(node.DumpsASCII(node.ObjV(meta("attach", node.ObjV(a))))))
	})
	if err != nil {
		return err
	}
	if err := w.S.SetHead(end.cmd); err != nil {
		return err
	}
	return w.dispatch(end.async.followup, followupText(pyStrip(end.label), pyStrip(end.prompt)), "", "task_followup", false, true)
}

// followupAtOnce is the follow-up turn R's runner dispatches once an async
// spawn's sub-agent answered at once: the head back on the command row, the
// dispatcher turn of R's instruction, answered at once too; a turn the
// runner starts names no model of its own, and its finalize saves none.
func (w *Writer) followupAtOnce(cmd, id, label, prompt string) error {
	if err := w.S.SetHead(cmd); err != nil {
		return err
	}
	if err := w.dispatch(id, followupText(label, prompt), "", "task_followup", false, true); err != nil {
		return err
	}
	w.pending = nil
	rmd := w.atOnceReplyMeta(id)
	rmd.Set("source", node.Str("task_followup"))
	w.predecessor(rmd, id)
	if err := w.add(&node.Node{ID: id + "_reply", Role: node.RoleLLM, Output: node.Str("sub done"), CalledBy: id, Metadata: rmd}); err != nil {
		return err
	}
	return w.S.SetHead(id + "_reply")
}

// followupText is R's instruction to the caller's agent once its async
// task completed: the label (else the prompt's first 60 characters) and the
// prompt the user gave the sub-agent.
func followupText(label, prompt string) string {
	if label == "" {
		label = prefix(prompt, 60)
	}
	var b strings.Builder
	b.WriteString("[系统消息] 你派发的子 agent \"" + label + "\" 已经跑完了，它完整的对话记录作为附加内容嵌在上面。\n")
	if prompt != "" {
		b.WriteString("用户原本让子 agent 做的事是：" + prompt + "\n")
	}
	b.WriteString("现在请你直接面向原始用户给出完整回答，基于子 agent 跑出来的结果做总结、解读、给出后续建议。" +
		"不要原样复读子 agent 的最后一句话。如果子 agent 的输出已经直接回答了用户问题，用你自己的话重新组织一遍，并补充必要的背景或上下文。")
	return b.String()
}

// needNoSpawnTurn refuses an end of a spawn turn other than Done: what R's
// /task writes when the sub-agent's turn is stopped or fails is not known.
func (w *Writer) needNoSpawnTurn(what string) error {
	if w.pending != nil && w.pending.spawn != nil {
		return fmt.Errorf("%w: %s: the pending turn is a spawn's sub-agent turn, which ends with done", ErrState, what)
	}
	return nil
}

// TaskTurn is the model's task tool as R writes it (ops/README.md: task …
// turn): the open reply waits on the call while the sub-agent's turn, its
// user written as the dispatcher writes it (clean: no parent, the tool's
// clean context), is the pending turn; its Done writes the attach pointer
// and the tool row (endTask).
func (w *Writer) TaskTurn(callID, sub, attach, text, label string, clean bool) error {
	if err := w.needTaskCall(); err != nil {
		return err
	}
	if err := w.needTaskParent(false); err != nil {
		return err
	}
	if w.pending.spawn != nil {
		return fmt.Errorf("%w: task turn inside a sub-agent's turn", ErrState)
	}
	r := w.reply.id
	for _, id := range []string{sub + "_reply", attach, r + "_t_" + callID} {
		if _, dup := w.S.Get(id); dup {
			return fmt.Errorf("%w: node id %q is already stored", ErrState, id)
		}
	}
	ctx, smd := "inherit", w.subMeta(node.Str(r), false)
	if clean {
		ctx, smd = "clean", w.subMeta(node.NullV(), false)
		if w.Flags.Has(flags.A) { // a clean sub-agent is a marked spawn root
			smd.Set("spawn_root", node.BoolV(true))
		}
	} else {
		w.predecessor(smd, r)
	}
	wait := &taskWait{call: callID, context: ctx, pending: w.pending, reply: w.reply, aborted: w.aborted}
	if err := w.add(&node.Node{ID: sub, Role: node.RoleUser, Output: node.Str(text), Metadata: smd}); err != nil {
		return err
	}
	if err := w.S.SetHead(sub); err != nil {
		return err
	}
	w.pending, w.reply, w.aborted = &turn{user: sub, source: "agent_spawn", spawn: &spawnEnd{attach: attach, label: label, prompt: text, task: wait}}, nil, false
	return nil
}

// endTask ends a task turn whose sub-agent's reply (its answer out) is
// done: the waiting reply open again, the attach pointer (caller-less, its
// parent the reply; the head set back to the sub-agent's reply), the tool
// row with the answer and its branch, recorded as the reply's call.
func (w *Writer) endTask(end *spawnEnd, sub string, out node.Value) error {
	t := end.task
	w.pending, w.reply, w.aborted = t.pending, t.reply, t.aborted
	return w.taskRows(t.reply.id, t.call, sub, end.attach, out, end.prompt, end.label, t.context)
}
