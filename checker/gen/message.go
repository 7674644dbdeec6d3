package gen

import (
	"fmt"

	"sessiondag/ops"
)

// messageForms are the dicts the generator hands append_message beyond
// what legacy-user, legacy-reply and orphan write, each a shape R's own
// tests and importers store (corpus/realwriter's adapter_* and f2_*
// folders): a system message under a row, a reply whose extra holds its
// blocks alone, a tool message whose call edge is its parent_id with a
// tool_call_id and arguments of its own, and one whose caller is a plain
// called_by key (stored in its metadata: an older writer's tool edge, the
// row caller-less, so the head moves to it) and whose tool_call_id is its
// id (no id is written into keys: a reducer's renaming leaves keys alone),
// and an attach pointer handed over as a dict (as process_merge_turn writes
// its pointers, called by the head, and R's tests one under its parent).
var messageForms = []string{"system", "blocks", "tool-edge", "tool-key", "attach"}

// drawMessage draws a message op of one of messageForms, saved (as every
// importer and channel saves the turn it appends) or, one in three, not
// (a test or tool that appends and stops: meta.json keeps its head). A
// tool's edge names a row not written yet or never (an orphan's caller):
// the target of a call written after its reply is not a shape the models
// tell.
func (g *Gen) drawMessage(src Source) ops.Op {
	s := &g.st
	id := s.id12()
	var op ops.Message
	switch pickStr(src, "message form", messageForms) {
	case "system":
		op = ops.Message{ID: id, Role: "system", Text: "[error] boom", Parent: g.messageParent(src)}
	case "blocks":
		op = ops.Message{ID: id, Role: "assistant", Text: "legacy answer", Parent: g.messageParent(src),
			Keys: `{"extra": {"blocks": [{"type": "text", "text": "legacy answer"}]}}`}
	case "tool-edge":
		op = ops.Message{ID: id, Role: "tool", Text: "tool out", Parent: g.messageCaller(src),
			Keys: fmt.Sprintf(`{"extra": {"tool_use": {"name": %q, "arguments": {"cmd": "ls"}, "tool_call_id": "tc_%s"}}}`,
				pickStr(src, "tool", toolNames), s.id8())}
	case "attach":
		op = ops.Message{ID: id, Role: "assistant", Text: "peer answer",
			Keys: `{"display": "runtime", "function": "attach", "agent_id": "main", "attach": {"session_id": "peer", "head_id": "peer_reply", "label": "peer"}}`}
		// Three in four as a merge writes them, called by the head (whose
		// pointers it drops once its turn has run), else under a parent.
		on := s.nodes[src.IntN(len(s.nodes), "attach on")]
		if src.IntN(4, "attach edge") > 0 {
			op.Caller = on
		} else {
			op.Parent = on
		}
	default:
		op = ops.Message{ID: id, Role: "tool", Text: "tool out", Caller: g.messageCaller(src),
			Keys: fmt.Sprintf(`{"extra": {"tool_use": {"name": %q}}}`, pickStr(src, "tool", toolNames))}
	}
	op.Unsaved = src.IntN(3, "message unsaved") == 0
	return op
}

// messageParent is a reply's parent as legacy-reply draws it: a row
// written, a root fork waiting for an answer, or a later id.
func (g *Gen) messageParent(src Source) string {
	s := &g.st
	if fork, ok := s.waitingFork(src); ok {
		return fork
	}
	if src.IntN(2, "message parent later") == 1 {
		return g.laterRef(src)
	}
	return s.nodes[src.IntN(len(s.nodes), "message parent")]
}

// messageCaller is a tool message's edge as orphan and orphan-later draw
// it: a row never written, or one a later op writes.
func (g *Gen) messageCaller(src Source) string {
	if src.IntN(2, "message caller later") == 1 {
		return g.laterRef(src)
	}
	return "gone_" + g.st.id8()
}

// Message follows a message op as the adapter writes it: a row whose node
// has no caller (a tool's edge in tool_use or parent_id, a reply's
// called_by key) moves the head; a reply counts for a retry of the row its
// message names as parent, its parent_id or else its caller's copy; a tool's
// edge is an orphan's caller.
func (s *shadow) Message(o ops.Message) error {
	parent, set, call := o.Edges()
	for _, id := range []string{o.Parent, o.Caller} {
		if id != "null" {
			s.await(id, ShapeAdapterLater)
		}
	}
	moves := o.Caller == ""
	if o.Role == "tool" {
		moves = o.Parent == "" || o.Parent == "null" // the generator draws no tool_use called_by
		if call != "" {
			s.orphanCaller[o.ID] = call
		}
	} else if parent != "" {
		s.answered(parent, ShapeForkAnsweredByChild)
	}
	s.write(o.ID, moves)
	if o.IsAttach() {
		s.addAttach(o.ID)
		s.msgAttaches = append(s.msgAttaches, o.ID)
	}
	if o.Unsaved {
		s.tally.Shape(ShapeMessageUnsaved)
	} else {
		s.writeMeta()
	}
	if under := parent; o.Role == "assistant" {
		if !set {
			under = call // no parent_id key: the message's is its caller's copy (legacy §2)
		}
		if under != "" {
			s.asst[under] = append(s.asst[under], o.ID)
		}
	}
	s.tally.Shape(ShapeMessage)
	return nil
}
