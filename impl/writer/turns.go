package writer

import (
	"fmt"
	"strings"

	"sessiondag/impl/flags"
	"sessiondag/impl/lane"
	"sessiondag/impl/mutant"
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

// WebUser is a turn typed in the browser: the parent is the client's
// in-memory head (legacy §4 turn 3).
func (w *Writer) WebUser(id, text string) error {
	if err := w.needIdle("user"); err != nil {
		return err
	}
	if err := w.ensureRoot(); err != nil {
		return err
	}
	md := meta("source", node.Str("web"))
	if ch, ok := w.ClientHead(); ok && !(w.Flags.Has(flags.A) && mutant.On(mutant.StepADropsParent)) {
		md.Set("parent_id", node.Str(ch))
	}
	pred := w.storeAnchor()
	if ch, ok := w.ClientHead(); ok && mutant.On(mutant.StepAWrongPred) {
		pred = lane.Anchor(ch, w.S.Get)
	}
	w.predecessor(md, pred)
	if err := w.add(&node.Node{ID: id, Role: node.RoleUser, Output: node.Str(text), CalledBy: node.RootID, Metadata: md}); err != nil {
		return err
	}
	if err := w.S.SetHead(id); err != nil {
		return err
	}
	w.setClient(id)
	w.pending = &turn{user: id, source: "web"}
	return nil
}

// Dispatch is a dispatcher turn (legacy §3.8). parent is "" for INHERIT,
// "none" for an explicit None (a root-level fork), or a node id.
func (w *Writer) Dispatch(id, text, parent string) error {
	if err := w.needIdle("dispatch"); err != nil {
		return err
	}
	if err := w.ensureRoot(); err != nil {
		return err
	}
	md := meta("source", node.Str("cli"))
	pred := ""
	switch parent {
	case "":
		if p := w.inherit(); p != "" {
			md.Set("parent_id", node.Str(p))
		}
		pred = w.storeAnchor()
	case "none":
		pred = node.RootID
	default:
		md.Set("parent_id", node.Str(parent))
		pred = lane.Anchor(parent, w.S.Get)
	}
	w.predecessor(md, pred)
	if err := w.add(&node.Node{ID: id, Role: node.RoleUser, Output: node.Str(text), CalledBy: node.RootID, Metadata: md}); err != nil {
		return err
	}
	w.pending = &turn{user: id, source: "cli"}
	return nil
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
func (w *Writer) ForkRoot(id, text string) error { return w.Dispatch(id, text, "none") }

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
	md := meta("parent_id", node.Str(u), "source", node.Str(w.pending.source), "status", node.Str("running"), "worker_id", node.Str("w1"))
	w.predecessor(md, u)
	if err := w.add(&node.Node{ID: id, Role: node.RoleLLM, Output: node.Str(""), CalledBy: u, Metadata: md}); err != nil {
		return err
	}
	if err := w.S.SetHead(id); err != nil {
		return err
	}
	w.reply = &reply{id: id}
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

// Tool records one tool call of the open reply and writes its result row.
// legacy writes the call edge only into metadata.called_by.
func (w *Writer) Tool(callID, name, args, result string, isErr, legacy bool) error {
	if err := w.needReply("tool"); err != nil {
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
	if err := w.add(&node.Node{ID: r + "_t_" + callID, Role: node.RoleCode, Name: name, Input: node.ObjV(input), Output: node.Str(result), CalledBy: caller, Metadata: md}); err != nil {
		return err
	}
	w.recordCall(callID, name, node.Dumps(node.ObjV(input)), result, isErr)
	return nil
}

func (w *Writer) recordCall(callID, name, input, result string, isErr bool) {
	call := func() *node.Obj {
		return meta("id", node.Str(callID), "tool_call_id", node.Str(callID), "tool", node.Str(name),
			"input", node.Str(input), "result", node.Str(result), "is_error", node.BoolV(isErr))
	}
	w.reply.calls = append(w.reply.calls, node.ObjV(call()))
	b := call()
	b.Set("type", node.Str("tool"))
	w.reply.blocks = append(w.reply.blocks, node.ObjV(b))
}

// Done finalizes the open reply; Cancel does the same with status cancelled.
func (w *Writer) Done() error   { return w.finish("completed") }
func (w *Writer) Cancel() error { return w.finish("cancelled") }

func (w *Writer) finish(status string) error {
	if err := w.needReply(status); err != nil {
		return err
	}
	if len(w.frames) > 0 {
		return fmt.Errorf("%w: the reply cannot end while a function is running", ErrState)
	}
	r := w.reply
	extra := meta("tool_calls", node.Arr(nonNil(r.calls)), "blocks", node.Arr(nonNil(r.blocks)))
	err := w.S.Update(r.id, func(n *node.Node) {
		n.Output = node.Str(strings.TrimSpace(strings.Join(r.texts, "")))
		n.Metadata.Update(meta("status", node.Str(status), "model", node.Str("model-x"), "provider", node.Str("p"),
			"token_model", node.Str("model-x"), "extra", node.Str(node.Dumps(node.ObjV(extra)))))
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
	w.pending, w.reply = nil, nil
	return nil
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
	w.pending, w.reply = nil, nil
	return nil
}

// ErrorStandalone fails a turn whose placeholder was never inserted: a
// system row under the pending user becomes the head.
func (w *Writer) ErrorStandalone(id, typ, msg string) error {
	if w.pending == nil || w.reply != nil || len(w.frames) > 0 {
		return fmt.Errorf("%w: error-standalone needs a pending turn without a reply", ErrState)
	}
	u := w.pending.user
	md := meta("role", node.Str("system"), "parent_id", node.Str(u), "trace", node.Str("Traceback ..."))
	w.predecessor(md, u)
	if err := w.add(&node.Node{ID: id, Role: node.RoleLLM, Output: node.Str("[error] " + typ + ": " + msg), Metadata: md}); err != nil {
		return err
	}
	w.S.Meta.Set("status", node.Str("failed"))
	if err := w.S.SetHead(id); err != nil {
		return err
	}
	w.pending = nil
	return nil
}

// Crash ends the process: running rows stay running and meta.json keeps
// the in-memory head of that moment. A process can die in any state, so
// nothing need be in progress (checker/ops/README.md lists no condition).
func (w *Writer) Crash() error {
	w.pending, w.reply, w.frames = nil, nil, nil
	return w.S.WriteMeta()
}
