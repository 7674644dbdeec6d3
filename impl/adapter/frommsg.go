package adapter

import (
	"sessiondag/impl/node"
)

// FromMessage is _msg_to_node (legacy §2.2), the path of append_message:
// the node a message dict becomes. newID supplies an id when the message has
// none; now is the created_at when it has no timestamp.
func FromMessage(msg *node.Obj, newID func() string, now node.Value) *node.Node {
	n := &node.Node{Seq: -1, Reads: node.Arr([]node.Value{}), Input: node.NullV()}
	n.ID = msg.Get("id").Str()
	if n.ID == "" {
		n.ID = newID()
	}
	role := msg.Get("role")
	if role.K == node.Missing { // msg.get("role", "user"): a role of null is none of the three
		role = node.Str("user")
	}
	n.CreatedAt = msg.Get("timestamp")
	if !n.CreatedAt.Truthy() {
		n.CreatedAt = now
	}
	content := msg.Get("content")
	extra := decodeExtra(msg.Get("extra"))

	switch role.Str() {
	case "user":
		n.Role = node.RoleUser
		// extra is taken out: its keys are merged in its place.
		n.Metadata = without(msg, "id", "role", "content", "timestamp", "extra")
		mergeMissing(n.Metadata, extra)
		n.Output = orEmpty(content)
	case "tool":
		n.Role = node.RoleCode
		n.Metadata = without(msg, "id", "role", "content", "timestamp", "function", "extra")
		var tu *node.Obj
		if v := extra.Get("tool_use"); v.K == node.Object {
			tu = v.O
		}
		if extra.Len() > 0 {
			rest := extra.Clone()
			rest.Delete("tool_use")
			if rest.Len() > 0 {
				n.Metadata.Set("extra", node.ObjV(rest))
			}
		}
		parent := n.Metadata.Delete("parent_id")
		n.CalledBy = firstTruthy(tu.Get("called_by"), parent).Str()
		n.Metadata.Set("tool_call_id", firstTruthy(tu.Get("tool_call_id"), node.Str(n.ID)))
		n.Name = firstTruthy(tu.Get("name"), msg.Get("function")).Str()
		n.Input = tu.Get("arguments")
		if !n.Input.Truthy() {
			n.Input = node.ObjV(&node.Obj{})
		}
		n.Output = content
		if n.Output.K == node.Missing {
			n.Output = node.NullV()
		}
	default:
		n.Role = node.RoleLLM
		n.Metadata = without(msg, "id", "role", "content", "timestamp", "token_model", "extra")
		mergeMissing(n.Metadata, extra)
		if role.Str() == "system" {
			n.Metadata.Set("role", node.Str("system"))
		}
		n.CalledBy = n.Metadata.Delete("called_by").Str()
		n.Name = msg.Get("token_model").Str()
		n.Output = orEmpty(content)
	}
	return n
}

// decodeExtra reads a message's extra: a JSON string or an object.
func decodeExtra(v node.Value) *node.Obj {
	switch v.K {
	case node.Object:
		return v.O
	case node.String:
		if p, err := node.ParseString(v.S); err == nil && p.K == node.Object {
			return p.O
		}
	}
	return &node.Obj{}
}

func without(o *node.Obj, keys ...string) *node.Obj {
	out := node.NewObj(o.Len())
next:
	for _, m := range o.M {
		for _, k := range keys {
			if m.Key == k {
				continue next
			}
		}
		out.M = append(out.M, m)
	}
	return out
}

// mergeMissing adds src's keys that dst lacks (existing keys win).
func mergeMissing(dst, src *node.Obj) {
	for _, m := range src.M {
		if !dst.Has(m.Key) {
			dst.M = append(dst.M, m)
		}
	}
}

func firstTruthy(vs ...node.Value) node.Value {
	for _, v := range vs {
		if v.Truthy() {
			return v
		}
	}
	return node.Str("")
}
