package model

// What each op means to the intended conversation (ops/README.md, "Intent"),
// one method per op kind. The legacy writer has already applied the op; the
// fields of targetOps hold the writer state from before it.

import (
	"sessiondag/ops"
	"slices"
)

type targetOps struct {
	r       *TargetRun
	h       string // the in-memory head before the op (ROOT if the op created it)
	aH      string // anchor(h)
	pending string // the pending turn before the op
	reply   string // the open reply before the op
	// callReply: the reply a tool op calls, the open one or the one waiting
	// on its task turn
	callReply string
	framed    bool   // a function was open before the op
	outer     string // the outermost open function before the op
	top       string // anchor(outermost open frame): where function internals belong
	exec      string // the innermost open frame's last exec (what `fn via-exec` calls)
	written   int    // nodes the store held before the op
}

var _ ops.Interpreter = (*targetOps)(nil)

func (t *targetOps) UserWeb(op ops.UserWeb) error {
	t.r.add(&tRow{id: op.ID, ip: t.aH, user: true})
	return nil
}

func (t *targetOps) UserDispatch(op ops.UserDispatch) error {
	ip := t.aH // INHERIT
	switch op.Parent {
	case "":
	case "none":
		ip = ""
	default:
		ip = t.r.Anchor(op.Parent)
	}
	t.r.add(&tRow{id: op.ID, ip: ip, user: true})
	return nil
}

func (t *targetOps) ForkRoot(op ops.ForkRoot) error {
	t.r.add(&tRow{id: op.ID, user: true})
	return nil
}

// Merge: the command row continues what the server shows; the merge turn
// answers it.
func (t *targetOps) Merge(op ops.Merge) error {
	t.r.add(&tRow{id: op.Cmd, ip: t.aH, user: true})
	t.r.add(&tRow{id: op.ID, ip: op.Cmd, user: true})
	return nil
}

// Reply adds the reply row. Orphans written earlier that name it as their
// caller are its calls, first in seq order: a tool row stored before the
// reply that called it (aggregation folds it into an assistant that comes
// later, legacy §3.4).
func (t *targetOps) Reply(ops.Reply) error {
	id := t.pending + "_reply"
	ip := t.r.Anchor(t.pending)
	t.r.add(&tRow{id: id, ip: ip})
	for _, o := range t.r.early[id] {
		t.r.addCall(id, o)
	}
	delete(t.r.early, id)
	return nil
}

func (t *targetOps) Tool(op ops.Tool) error {
	t.reply = t.callReply // the open reply, or the one waiting on its task turn
	t.folds(t.reply + "_t_" + op.CallID)
	t.r.recorded[t.reply] = append(t.r.recorded[t.reply], op.CallID)
	return nil
}

// folds records a call row of the open reply: it stands for the reply and
// is shown folded into it.
func (t *targetOps) folds(id string) {
	t.r.anchor[id] = t.reply
	t.r.addCall(t.reply, id)
}

func (t *targetOps) ErrorStandalone(op ops.ErrorStandalone) error {
	t.r.add(&tRow{id: op.ID, ip: t.r.Anchor(t.pending)})
	return nil
}

func (t *targetOps) Fn(op ops.Fn) error {
	if !t.framed { // called by the model: folds into the reply
		t.folds(op.ID)
	} else {
		t.r.anchor[op.ID] = t.top
	}
	if op.ViaExec {
		t.r.viaExec[op.ID] = t.exec
	}
	return nil
}

func (t *targetOps) Manual(op ops.Manual) error {
	t.r.add(&tRow{id: op.ID, ip: t.aH, card: true})
	return nil
}

func (t *targetOps) Run(op ops.Run) error {
	t.r.add(&tRow{id: op.ID, ip: t.aH, card: true})
	return nil
}

// Compact: the summary is a root; each copy continues the row before it. A
// copy of a reply shows the calls its original's extra recorded, which its
// metadata now holds, and none of its own.
func (t *targetOps) Compact(op ops.Compact) error {
	r := t.r
	r.add(&tRow{id: op.ID})
	prev := op.ID
	copies := op.CopyIDs()
	for i, orig := range r.leg.compacted {
		id := copies[i]
		row := &tRow{id: id, ip: prev}
		if o := r.byID[orig]; o != nil {
			row.user = o.user
		}
		if r.finished[orig] {
			row.calls = append([]string(nil), r.recorded[orig]...)
			r.recorded[id], r.finished[id] = row.calls, true
		}
		r.add(row)
		prev = id
	}
	return nil
}

func (t *targetOps) Exec(op ops.Exec) error {
	t.r.anchor[op.ID] = t.top
	return nil
}

func (t *targetOps) Ask(op ops.Ask) error {
	t.r.anchor[op.ID] = t.top
	return nil
}

func (t *targetOps) Retry(op ops.Retry) error {
	t.r.retry(op.Of, t.freshID(op.ID))
	return nil
}

func (t *targetOps) Edit(op ops.Edit) error {
	t.r.retry(op.Of, t.freshID(op.ID))
	return nil
}

// freshID is id if the op created it, else "": its node came after the
// nodes the store held before the op.
func (t *targetOps) freshID(id string) string {
	for _, n := range t.r.leg.nodes[t.written:] {
		if n.ID == id {
			return id
		}
	}
	return ""
}

func (t *targetOps) Spawn(op ops.Spawn) error {
	r := t.r
	r.add(&tRow{id: op.Cmd, ip: t.aH, user: true})
	sub := &tRow{id: op.ID, ip: op.Cmd, user: true}
	if op.Mode == "clean" {
		sub.ip, sub.spawnRoot = "", true
	}
	r.add(sub)
	at := t.aH // C's parent if C had one, else C
	if at == "" {
		at = op.Cmd
	}
	if op.Turn && op.Mode == "async" {
		// the attach pointer is written first; the done writes the
		// follow-up, which continues the command row
		r.add(&tRow{id: op.Attach, ip: at, attach: true})
		r.spawnAt[op.ID] = op.Cmd
		return nil
	}
	if op.Turn { // the reply is the next ops'; the attach pointer comes with its done
		r.spawnAt[op.ID] = at
		return nil
	}
	r.add(&tRow{id: op.ID + "_reply", ip: op.ID})
	r.add(&tRow{id: op.Attach, ip: at, attach: true})
	if op.Followup != "" { // the runner's follow-up, answered at once, under the command row
		r.add(&tRow{id: op.Followup, ip: op.Cmd, user: true})
		r.add(&tRow{id: op.Followup + "_reply", ip: op.Followup})
	}
	return nil
}

// spawnDone: the done of a spawn or task turn wrote its attach pointer
// (and a task turn's tool row, a call of the reply that waited on it).
func (t *targetOps) spawnDone() {
	at, ok := t.r.spawnAt[t.pending]
	if !ok {
		return
	}
	delete(t.r.spawnAt, t.pending)
	for _, n := range t.r.leg.nodes[t.written:] {
		switch {
		case n.meta().Val("function") == "attach":
			t.r.add(&tRow{id: n.ID, ip: at, attach: true})
		case n.meta().Val("source") == "task_followup": // an async spawn's follow-up, under its command row
			t.r.add(&tRow{id: n.ID, ip: at, user: true})
		}
	}
	if call, ok := t.r.taskCall[t.pending]; ok {
		delete(t.r.taskCall, t.pending)
		id := at + "_t_" + call
		t.r.anchor[id] = at
		t.r.addCall(at, id)
		t.r.recorded[at] = append(t.r.recorded[at], call)
	}
}

func (t *targetOps) Task(op ops.Task) error {
	r := t.r
	if op.Turn { // the reply, attach pointer and tool row come with the turn's ops and its done
		sub := &tRow{id: op.ID, ip: t.reply, user: true}
		if op.Clean {
			sub.ip, sub.spawnRoot = "", true
		}
		r.add(sub)
		r.spawnAt[op.ID], r.taskCall[op.ID] = t.reply, op.CallID
		return nil
	}
	r.add(&tRow{id: op.ID, ip: t.reply, user: true})
	r.add(&tRow{id: op.ID + "_reply", ip: op.ID})
	if op.Followup != "" { // R's runner: no attach pointer; the follow-up, answered at once, under the reply
		t.folds(t.reply + "_t_" + op.CallID)
		r.recorded[t.reply] = append(r.recorded[t.reply], op.CallID)
		r.add(&tRow{id: op.Followup, ip: t.reply, user: true})
		r.add(&tRow{id: op.Followup + "_reply", ip: op.Followup})
		return nil
	}
	r.add(&tRow{id: op.Attach, ip: t.reply, attach: true})
	t.folds(t.reply + "_t_" + op.CallID)
	r.recorded[t.reply] = append(r.recorded[t.reply], op.CallID)
	return nil
}

// Script: an answered top-level ask_user is a user's message in the chat
// (role user), so a rerun that climbs to it reruns it, as R's climb stops at
// it.
func (t *targetOps) Script(op ops.Script) error {
	t.r.add(&tRow{id: op.ID, ip: t.aH, card: op.What == "fn", user: op.What == "ask"})
	return nil
}

func (t *targetOps) LegacyUser(op ops.LegacyUser) error {
	ip := ""
	switch op.Parent {
	case "":
		ip = t.aH // no parent recorded: it continues where the head was
	case "null":
	default:
		ip = t.r.Anchor(op.Parent)
	}
	t.r.add(&tRow{id: op.ID, ip: ip, user: true})
	return nil
}

func (t *targetOps) LegacyReply(op ops.LegacyReply) error {
	t.r.add(&tRow{id: op.ID, ip: t.r.Anchor(op.Parent)})
	return nil
}

func (t *targetOps) Orphan(op ops.Orphan) error {
	if op.Caller == "" {
		t.r.add(&tRow{id: op.ID, ip: t.aH, card: true})
		return nil
	}
	// No conversation row: it stands for what its caller stands for once
	// that is written (Anchor), and is a call of the reply by that id if
	// one is written later, or of the reply written already: a load folds
	// a tool row into the assistant message its edge names.
	t.r.callers[op.ID] = op.Caller
	switch c := t.r.leg.node(op.Caller); {
	case c == nil:
		t.r.early[op.Caller] = append(t.r.early[op.Caller], op.ID)
	case t.r.byID[op.Caller] != nil && c.Role == "llm" && c.Metadata.Val("role") != "system":
		t.r.addCall(op.Caller, op.ID)
	}
	return nil
}

// Message: what the message's edges mean, as for its siblings: an attach
// pointer follows the row it names, as a spawn's does; a row with
// a call edge (a tool's, a reply's caller) is an orphan's with that caller;
// a tool row without one is a caller-less orphan's card; any other row is
// a row under anchor(parent), a root for a null parent, under anchor(H)
// when it has no parent_id (a legacy-user's).
func (t *targetOps) Message(op ops.Message) error {
	parent, set, call := op.Edges()
	if op.IsAttach() {
		var ip string
		switch {
		case call != "":
			ip = t.r.Anchor(call) // after the row its caller stands for (a tool row's reply)
		case set:
			ip = t.r.Anchor(parent) // under its parent: after the row that stands for it
		default:
			ip = t.aH // no edge: where the head is, as a legacy-user's without parent
		}
		t.r.add(&tRow{id: op.ID, ip: ip, attach: true})
		return nil
	}
	switch {
	case call != "" || op.Role == "tool":
		return t.Orphan(ops.Orphan{ID: op.ID, Caller: call})
	case !set:
		t.r.add(&tRow{id: op.ID, ip: t.aH, user: op.Role == "" || op.Role == "user"})
	default:
		t.r.add(&tRow{id: op.ID, ip: t.r.Anchor(parent), user: op.Role == "" || op.Role == "user"})
	}
	return nil
}

// Drop: the pointer leaves the intended conversation; a row the user
// wrote from it (its IP, as a user's turn written while the head rested
// there) continues from the row it followed.
func (t *targetOps) Drop(op ops.Drop) error {
	r := t.r
	d := r.byID[op.ID]
	if d == nil {
		return nil
	}
	delete(r.byID, op.ID)
	r.rows = slices.DeleteFunc(r.rows, func(x *tRow) bool { return x == d })
	r.attachAt[d.ip] = slices.DeleteFunc(r.attachAt[d.ip], func(x *tRow) bool { return x == d })
	for _, x := range r.rows {
		if x.ip == op.ID {
			x.ip = d.ip
		}
	}
	for id, a := range r.anchor {
		if a == op.ID {
			r.anchor[id] = d.ip
		}
	}
	return nil
}

func (t *targetOps) Rewind(op ops.Rewind) error {
	t.r.rewound[op.ID] = true
	return nil
}

// The ops below add no conversation row.

func (t *targetOps) Session(ops.Session) error { return nil }
func (t *targetOps) Think(ops.Think) error     { return nil }
func (t *targetOps) Say(ops.Say) error         { return nil }

// Done and Cancel write the reply's extra, which records its calls.
func (t *targetOps) Done(ops.Done) error     { t.r.finished[t.reply] = true; t.spawnDone(); return nil }
func (t *targetOps) Cancel(ops.Cancel) error { t.r.finished[t.reply] = true; return nil }

func (t *targetOps) ErrorFolded(ops.ErrorFolded) error { return nil }
func (t *targetOps) Crash(ops.Crash) error             { return nil }
func (t *targetOps) End(ops.End) error                 { return nil }
func (t *targetOps) Checkout(ops.Checkout) error       { return nil }
func (t *targetOps) Reload(ops.Reload) error           { return nil }
func (t *targetOps) Flag(ops.Flag) error               { return nil }
func (t *targetOps) Writer(ops.Writer) error           { return nil }
func (t *targetOps) Clock(ops.Clock) error             { return nil }
