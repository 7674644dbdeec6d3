package writer

import (
	"fmt"

	"sessiondag/impl/flags"
	"sessiondag/impl/node"
)

// Spawn is the /spawn command (legacy §6 #11, #12): a command row, a
// sub-agent turn (inherit: parented to the command row; clean: a new chain
// root) and an attach pointer under the fork anchor. The head ends on the
// sub-agent's reply.
func (w *Writer) Spawn(mode, cmd, sub, attach, text, label string) error {
	if err := w.needIdle("spawn"); err != nil {
		return err
	}
	if mode != "inherit" && mode != "clean" {
		return fmt.Errorf("spawn mode %q: want inherit or clean", mode)
	}
	if err := w.ensureRoot(); err != nil {
		return err
	}
	md := meta("source", node.Str("web"), "function", node.Str("task"))
	if ch, ok := w.ClientHead(); ok {
		md.Set("parent_id", node.Str(ch))
	}
	from := w.storeAnchor() // where the spawn was issued: C's and the attach's predecessor
	w.predecessor(md, from)
	if err := w.add(&node.Node{ID: cmd, Role: node.RoleUser, Output: node.Str("/spawn " + text), CalledBy: node.RootID, Metadata: md}); err != nil {
		return err
	}
	if err := w.S.SetHead(cmd); err != nil {
		return err
	}
	w.setClient(cmd)
	var smd *node.Obj
	if mode == "inherit" {
		smd = meta("parent_id", node.Str(cmd), "source", node.Str("agent_spawn"))
		w.predecessor(smd, cmd)
	} else {
		smd = meta("source", node.Str("agent_spawn"))
		if w.Flags.Has(flags.A) { // a clean spawn is a marked spawn root
			smd.Set("spawn_root", node.BoolV(true))
		}
	}
	if err := w.subTurn(sub, text, smd); err != nil {
		return err
	}
	anchor := cmd
	if c, ok := w.S.Get(cmd); ok && c.ParentID() != "" {
		anchor = c.ParentID()
	}
	amd := w.attachMeta(sub, text, label, false)
	if from == node.RootID {
		from = cmd // a spawn that starts the conversation hangs off its command row
	}
	w.predecessor(amd, from)
	return w.add(&node.Node{ID: attach, Role: node.RoleLLM, Output: node.Str("(done)"), CalledBy: anchor, Metadata: amd})
}

// subTurn writes a sub-agent's user row and reply; the head moves to the
// reply.
func (w *Writer) subTurn(sub, text string, md *node.Obj) error {
	if err := w.add(&node.Node{ID: sub, Role: node.RoleUser, Output: node.Str(text), CalledBy: node.RootID, Metadata: md}); err != nil {
		return err
	}
	rmd := meta("parent_id", node.Str(sub), "status", node.Str("completed"))
	w.predecessor(rmd, sub)
	if err := w.add(&node.Node{ID: sub + "_reply", Role: node.RoleLLM, Output: node.Str("sub done"), CalledBy: sub, Metadata: rmd}); err != nil {
		return err
	}
	return w.S.SetHead(sub + "_reply")
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
func (w *Writer) Task(callID, sub, attach, text, label string, async bool) error {
	if err := w.needReply("task"); err != nil {
		return err
	}
	if len(w.frames) > 0 {
		return fmt.Errorf("%w: task while a function is running", ErrState)
	}
	r := w.reply.id
	smd := meta("parent_id", node.Str(r), "source", node.Str("agent_spawn"))
	w.predecessor(smd, r)
	if err := w.subTurn(sub, text, smd); err != nil {
		return err
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
	w.recordCall(callID, "task", node.Dumps(node.ObjV(in)), out, false)
	return nil
}
