package writer

import (
	"fmt"

	"sessiondag/impl/adapter"
	"sessiondag/impl/lane"
	"sessiondag/impl/node"
)

// Message writes a message dict through append_message (legacy §2.2, the
// message adapter): {id, role, content: text, parent_id, called_by, then
// keys' members in order}, role "" and caller "" leaving their keys out,
// parent "null" an explicit null and "" none; keys, a JSON object, gives
// content, parent_id or called_by only when its own argument is empty. A
// dict the adapter raises on (an extra whose JSON text is no object, a
// tool_use that is no object) or whose names are no strings is refused.
// Under flag A the row records where its edges place it, as its siblings
// do: a row with a call edge none (an orphan's with a caller, an older
// writer's tool row with its edge in metadata.called_by), a caller-less
// tool row and a row without parent_id the store's head (a caller-less
// orphan's, a legacy user's without parent), a null parent a root. The
// store then persists meta, unless unsaved: the append alone.
func (w *Writer) Message(id, role, text, parent, caller, keys string, unsaved bool) error {
	if err := w.needIdle("message"); err != nil {
		return err
	}
	msg, err := messageDict(id, role, text, parent, caller, keys)
	if err != nil {
		return fmt.Errorf("%w: message %s: %v", ErrState, id, err)
	}
	if _, dup := w.S.Get(id); dup || id == "" || id == node.RootID {
		return fmt.Errorf("%w: message id %q is empty or already stored", ErrState, id)
	}
	n := adapter.FromMessage(msg, nil, w.now())
	p := msg.Get("parent_id")
	switch {
	case n.CalledBy != "" || n.Role == node.RoleCode && n.Metadata.Get("called_by").Truthy():
	case n.Role == node.RoleCode || p.K == node.Missing:
		w.predecessor(n.Metadata, w.storeAnchor())
	case p.Str() == "":
		w.predecessor(n.Metadata, node.RootID)
	default:
		w.predecessor(n.Metadata, lane.Anchor(p.Str(), w.S.Get))
	}
	if err := w.add(n); err != nil || unsaved {
		return err
	}
	return w.S.WriteMeta()
}

// messageDict builds the dict and refuses what the adapter cannot take.
func messageDict(id, role, text, parent, caller, keys string) (*node.Obj, error) {
	switch role {
	case "", "user", "assistant", "system", "tool":
	default:
		return nil, fmt.Errorf("role %q: want user, assistant, system or tool", role)
	}
	extra := &node.Obj{}
	if keys != "" {
		v, err := node.ParseString(keys)
		if err != nil {
			return nil, fmt.Errorf("keys: %w", err)
		}
		if v.K != node.Object {
			return nil, fmt.Errorf("keys %s: want a JSON object", keys)
		}
		extra = v.O
	}
	given := map[string]bool{"id": true, "role": true, "content": text != "", "parent_id": parent != "", "called_by": caller != ""}
	for _, k := range []string{"id", "role", "content", "parent_id", "called_by"} {
		if given[k] && extra.Has(k) {
			return nil, fmt.Errorf("keys give %s, which the op's own argument gives", k)
		}
	}
	msg := meta("id", node.Str(id))
	if role != "" {
		msg.Set("role", node.Str(role))
	}
	if !extra.Has("content") {
		msg.Set("content", node.Str(text))
	}
	switch parent {
	case "":
	case "null":
		msg.Set("parent_id", node.NullV())
	default:
		msg.Set("parent_id", node.Str(parent))
	}
	if caller != "" {
		msg.Set("called_by", node.Str(caller))
	}
	for _, m := range extra.M {
		msg.Set(m.Key, m.Val)
	}
	return msg, checkAdaptable(msg)
}

// checkAdaptable: the adapter decodes extra (a JSON string must hold an
// object: it reads its items), reads a tool's tool_use as an object, and
// the names it stores must be strings.
func checkAdaptable(msg *node.Obj) error {
	x := msg.Get("extra")
	var decoded *node.Obj
	switch {
	case !x.Truthy():
	case x.K == node.Object:
		decoded = x.O
	case x.K == node.String:
		if v, err := node.ParseString(x.S); err == nil {
			if v.K != node.Object {
				return fmt.Errorf("extra %s is JSON of no object", node.PyStr(x))
			}
			decoded = v.O
		}
	}
	names := []string{"token_model", "called_by"}
	if msg.Get("role").Str() == "tool" {
		names = []string{"function"}
		if tu := decoded.Get("tool_use"); tu.Truthy() {
			if tu.K != node.Object {
				return fmt.Errorf("extra's tool_use is %s, not an object", node.PyStr(tu))
			}
			for _, k := range []string{"name", "called_by", "tool_call_id"} {
				if v := tu.O.Get(k); v.Truthy() && v.K != node.String {
					return fmt.Errorf("extra's tool_use.%s is %s, not a string", k, node.PyStr(v))
				}
			}
		}
	}
	for _, k := range names {
		if v := msg.Get(k); v.Truthy() && v.K != node.String {
			return fmt.Errorf("%s is %s, not a string", k, node.PyStr(v))
		}
	}
	return nil
}
