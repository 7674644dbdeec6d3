package writer

import (
	"fmt"

	"sessiondag/impl/lane"
	"sessiondag/impl/node"
)

// Script writes a caller-less row of a script session (legacy §6 #26, #34):
// a top-level function ("fn"), model call ("exec") or answered ask_user
// question ("ask"). The append moves the in-memory head; meta.json is not
// written (R's session_context writes through the graph shim).
func (w *Writer) Script(what, id, name, prompt string) error {
	if err := w.needIdle("script"); err != nil {
		return err
	}
	if prompt != "" && what != "exec" {
		return fmt.Errorf("%w: script what=%s: only a model call sends a prompt", ErrState, what)
	}
	var n *node.Node
	switch what {
	case "fn":
		// R's function wrapper reads the clock before and after the row's
		// own append: the run lasts one tick.
		start := w.clock.base + 1.5*float64(w.clock.ticks)
		end := w.clock.base + 1.5*float64(w.clock.ticks+1)
		md := meta("expose", node.Str("io"), "status", node.Str("completed"), "duration_seconds", node.Num(pyFloat(end-start)))
		w.predecessor(md, w.storeAnchor())
		n = &node.Node{ID: id, Role: node.RoleCode, Name: name, Input: node.ObjV(&node.Obj{}), Output: node.Str("ok"), Metadata: md}
	case "exec":
		md := meta("status", node.Str("completed"))
		if prompt != "" { // R's runtime.exec records a prompt it sent (prompt_text)
			md.Set("prompt_text", node.Str(prompt))
		}
		w.predecessor(md, w.storeAnchor())
		n = &node.Node{ID: id, Role: node.RoleLLM, Name: "model-x", Output: node.Str("script reply"), Metadata: md}
	case "ask":
		md := meta("status", node.Str("answered"))
		w.predecessor(md, w.storeAnchor())
		in := node.ObjV(meta("question", node.Str("proceed?")))
		n = &node.Node{ID: id, Role: node.RoleUser, Input: in, Output: node.Str("yes"), Metadata: md}
	default:
		return fmt.Errorf("script what=%q: want fn, exec or ask", what)
	}
	// R's session_context appends through the graph shim, which moves the
	// in-memory head and writes no meta.
	return w.add(n)
}

// LegacyUser writes a user row through append_message (legacy §2.2): no
// caller; parent is an id, "null" for an explicit null, or "" for none.
// Under flag A the rollout-aware append_message also records the
// predecessor: the parent's anchor, a root for an explicit null, else where
// the head is.
func (w *Writer) LegacyUser(id, text, parent string) error {
	if err := w.needIdle("legacy-user"); err != nil {
		return err
	}
	md := &node.Obj{}
	pred := w.storeAnchor()
	switch parent {
	case "":
	case "null":
		md.Set("parent_id", node.NullV())
		pred = node.RootID
	default:
		md.Set("parent_id", node.Str(parent))
		pred = lane.Anchor(parent, w.S.Get)
	}
	w.predecessor(md, pred)
	if err := w.add(&node.Node{ID: id, Role: node.RoleUser, Output: node.Str(text), Metadata: md}); err != nil {
		return err
	}
	return w.S.WriteMeta()
}

// LegacyReply writes an assistant row through append_message; with blocks
// its message's extra held its calls and blocks, which land in metadata
// (legacy §2.2).
func (w *Writer) LegacyReply(id, text, parent string, blocks bool) error {
	if err := w.needIdle("legacy-reply"); err != nil {
		return err
	}
	md := meta("parent_id", node.Str(parent))
	if blocks {
		md.Set("tool_calls", node.Arr([]node.Value{}))
		md.Set("blocks", node.Arr([]node.Value{node.ObjV(meta("type", node.Str("text"), "text", node.Str(text)))}))
	}
	w.predecessor(md, lane.Anchor(parent, w.S.Get))
	if err := w.add(&node.Node{ID: id, Role: node.RoleLLM, Output: node.Str(text), Metadata: md}); err != nil {
		return err
	}
	return w.S.WriteMeta()
}

// Orphan writes a tool row whose caller is missing or dangling.
func (w *Writer) Orphan(id, name, caller string) error {
	if err := w.needIdle("orphan"); err != nil {
		return err
	}
	md := meta("tool_call_id", node.Str(id), "is_error", node.BoolV(false))
	if caller == "" {
		w.predecessor(md, w.storeAnchor()) // a caller-less row is a top-level run
	}
	if err := w.add(&node.Node{ID: id, Role: node.RoleCode, Name: name, Input: node.ObjV(&node.Obj{}), Output: node.Str("orphan"), CalledBy: caller, Metadata: md}); err != nil {
		return err
	}
	return w.S.WriteMeta()
}

// Rewind hides a node from reads.
func (w *Writer) Rewind(id string) error {
	if _, ok := w.S.Get(id); !ok {
		return fmt.Errorf("%w: rewind of unknown node %q", ErrState, id)
	}
	return w.S.Update(id, func(n *node.Node) { n.Metadata.Set("rewound", node.BoolV(true)) })
}

// Drop removes an attach pointer (process_merge_turn's retirement of the
// pointers it wrote, R's drop_message): refused for anything else, for a
// pointer a row names, a head rests on or a spawn turn in progress
// finishes, and for the last row stored (the seq a later process would
// count from).
func (w *Writer) Drop(id string) error {
	if err := w.needIdle("drop"); err != nil {
		return err
	}
	n, ok := w.S.Get(id)
	switch {
	case !ok:
		return fmt.Errorf("%w: drop of unknown node %q", ErrState, id)
	case n.Metadata.Get("function").Str() != "attach":
		return fmt.Errorf("%w: drop %s: no attach pointer", ErrState, id)
	case id == w.S.Head() || id == w.S.Meta.Get("head_id").Str():
		return fmt.Errorf("%w: drop %s: a head rests on it", ErrState, id)
	case w.Finishes(id):
		return fmt.Errorf("%w: drop %s: the spawn turn in progress finishes it", ErrState, id)
	}
	nodes := w.S.Nodes()
	if nodes[len(nodes)-1] == n {
		return fmt.Errorf("%w: drop %s: the last row stored", ErrState, id)
	}
	for _, m := range nodes {
		if m.CalledBy == id || m.Metadata.Get("parent_id").Str() == id || m.Metadata.Get("called_by").Str() == id {
			return fmt.Errorf("%w: drop %s: row %s names it", ErrState, id, m.ID)
		}
	}
	return w.S.Drop(id)
}

// Finishes reports whether the spawn turn this writer has in progress
// finishes the attach pointer id once its sub-agent's turn is done (an
// async spawn's card, written running).
func (w *Writer) Finishes(id string) bool {
	return w.pending != nil && w.pending.spawn != nil && w.pending.spawn.attach == id
}
