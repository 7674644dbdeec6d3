package model

// The message adapter (legacy §2.2): the node append_message makes of a
// message dict, and the message op, which hands it one.

import (
	"fmt"
	"slices"

	"sessiondag/ops"
)

// Message: append_message of the dict the op spells (ops/README.md:
// message); the append moves the head when the node has no caller; write
// meta, unless the op says the append was not saved.
func (o *legacyOps) Message(op ops.Message) error {
	r := o.run()
	msg, err := messageDict(op)
	if err != nil {
		return err
	}
	if err := firstErr(r.needIdle(), r.newIDs(op.ID)); err != nil {
		return err
	}
	r.appendAt(appendedNode(msg, r.now()))
	if !op.Unsaved {
		r.writeMeta()
	}
	return nil
}

// messageDict is the dict a message op hands append_message: id, role,
// content, parent_id, called_by, then its keys in order. A dict on which
// the adapter raises (an extra whose JSON text is no object, a tool_use
// that is no object) or whose names are no strings is refused.
func messageDict(op ops.Message) (*Object, error) {
	if !slices.Contains([]string{"", "user", "assistant", "system", "tool"}, op.Role) {
		return nil, fmt.Errorf("message role=%q: want user, assistant, system or tool", op.Role)
	}
	keys := &Object{}
	if op.Keys != "" {
		v, err := ParseJSON([]byte(op.Keys))
		if err != nil {
			return nil, fmt.Errorf("message keys: %w", err)
		}
		o, ok := v.(*Object)
		if !ok {
			return nil, fmt.Errorf("message keys=%s: want a JSON object", op.Keys)
		}
		keys = o
	}
	for _, k := range []struct {
		key, field string
		set        bool
	}{{"id", "id", true}, {"role", "role", true}, {"content", "text", op.Text != ""},
		{"parent_id", "parent", op.Parent != ""}, {"called_by", "caller", op.Caller != ""}} {
		if k.set && keys.Has(k.key) {
			return nil, fmt.Errorf("message keys give %s, which its %s field gives", k.key, k.field)
		}
	}
	msg := newObject("id", op.ID)
	if op.Role != "" {
		msg.Set("role", op.Role)
	}
	if !keys.Has("content") {
		msg.Set("content", op.Text)
	}
	setParentID(msg, op.Parent)
	if op.Caller != "" {
		msg.Set("called_by", op.Caller)
	}
	for _, f := range keys.Fields {
		msg.Set(f.Key, f.Val)
	}
	if err := adaptable(msg); err != nil {
		return nil, err
	}
	return msg, nil
}

// adaptable refuses a dict the adapter raises on, or whose names (a tool's
// name and edges, a reply's model and caller) are not strings.
func adaptable(msg *Object) error {
	extra, err := messageExtra(msg.Val("extra"))
	if err != nil {
		return err
	}
	names := []string{"token_model", "called_by"}
	if msg.Val("role") == "tool" {
		names = []string{"function"}
		if tu := extra.Val("tool_use"); Truthy(tu) {
			o, ok := tu.(*Object)
			if !ok {
				return fmt.Errorf("message extra's tool_use is %s, not an object", PyStr(tu))
			}
			for _, k := range []string{"name", "called_by", "tool_call_id"} {
				if v := o.Val(k); Truthy(v) {
					if _, ok := v.(string); !ok {
						return fmt.Errorf("message extra's tool_use.%s is %s, not a string", k, PyStr(v))
					}
				}
			}
		}
	}
	for _, k := range names {
		if v := msg.Val(k); Truthy(v) {
			if _, ok := v.(string); !ok {
				return fmt.Errorf("message %s is %s, not a string", k, PyStr(v))
			}
		}
	}
	return nil
}

// messageExtra is _decode_extra: a falsy extra is none, an object is
// itself, JSON text is what it parses to (none when it does not parse);
// anything else is none. JSON text of another value is an error (the
// adapter then calls a method objects alone have).
func messageExtra(raw any) (*Object, error) {
	if !Truthy(raw) {
		return &Object{}, nil
	}
	switch x := raw.(type) {
	case *Object:
		return x, nil
	case string:
		v, err := ParseJSON([]byte(x))
		if err != nil {
			return &Object{}, nil
		}
		o, ok := v.(*Object)
		if !ok {
			return nil, fmt.Errorf("message extra %s is JSON of no object", PyStr(x))
		}
		return o, nil
	}
	return &Object{}, nil
}

// appendedNode is the node append_message makes of a message (legacy §2.2,
// _msg_to_node): created_at its timestamp, else now. A user's or a reply's
// metadata = the keys that are no node field, the parsed extra's keys after
// them (existing keys win), a system message's role kept as metadata.role,
// a called_by key moved to the node. A tool's: its keys but the native
// ones and parent_id, the extra's keys but tool_use as metadata.extra, and
// tool_call_id (tool_use's, else its id); its caller tool_use's called_by,
// else its parent_id; its name tool_use's, else the function key; its input
// tool_use's arguments, else {}; its output the content as it is.
func appendedNode(m *Object, now any) *Node {
	n := &Node{ID: m.Str("id"), CreatedAt: m.Val("timestamp"), Reads: []any{}}
	if !Truthy(n.CreatedAt) {
		n.CreatedAt = now
	}
	extra, _ := messageExtra(m.Val("extra")) // messageDict refused what errs
	role, ok := m.Get("role")                // msg.get("role", "user"): a role of null is none of the three
	if !ok {
		role = "user"
	}
	if role == "tool" {
		n.Role = "code"
		meta := &Object{}
		for _, f := range m.Fields {
			if !slices.Contains([]string{"id", "role", "content", "timestamp", "function", "extra"}, f.Key) {
				meta.Set(f.Key, deepCopy(f.Val))
			}
		}
		use, _ := extra.Val("tool_use").(*Object)
		rest := &Object{}
		for _, f := range extra.Fields {
			if f.Key != "tool_use" {
				rest.Set(f.Key, deepCopy(f.Val))
			}
		}
		if len(rest.Fields) > 0 {
			meta.Set("extra", rest)
		}
		n.CalledBy, _ = or(use.Val("called_by"), or(m.Val("parent_id"), "")).(string)
		meta.del("parent_id")
		meta.Set("tool_call_id", or(use.Val("tool_call_id"), n.ID))
		n.Name, _ = or(use.Val("name"), or(m.Val("function"), "")).(string)
		n.Input = deepCopy(or(use.Val("arguments"), &Object{}))
		n.Output = deepCopy(m.Val("content"))
		n.Metadata = meta
		return n
	}
	n.Output = deepCopy(m.Val("content"))
	if !Truthy(n.Output) {
		n.Output = "" // content or ""
	}
	native := []string{"id", "role", "content", "timestamp", "extra", "token_model"}
	if role == "user" {
		n.Role, native = "user", native[:5]
	} else {
		n.Role, n.Name = "llm", m.Str("token_model")
	}
	meta := &Object{}
	for _, f := range m.Fields {
		if !slices.Contains(native, f.Key) {
			meta.Set(f.Key, deepCopy(f.Val))
		}
	}
	for _, f := range extra.Fields {
		if !meta.Has(f.Key) {
			meta.Set(f.Key, deepCopy(f.Val))
		}
	}
	if n.Role == "llm" {
		if role == "system" {
			meta.Set("role", "system")
		}
		cb, _ := meta.del("called_by")
		n.CalledBy, _ = cb.(string)
	}
	n.Metadata = meta
	return n
}

// MessageNode is the node a message op writes, without its seq, its
// created_at the dict's timestamp or nil: what a reader of a directory
// compares a stored row with to tell whether the op explains it.
func MessageNode(op ops.Message) (*Node, error) {
	msg, err := messageDict(op)
	if err != nil {
		return nil, err
	}
	return appendedNode(msg, nil), nil
}

// setParentID sets an append_message dict's parent_id as an op spells it:
// "" leaves the key out, "null" is an explicit null, anything else the id.
func setParentID(o *Object, parent string) {
	switch parent {
	case "":
	case "null":
		o.Set("parent_id", nil)
	default:
		o.Set("parent_id", parent)
	}
}
