package model

// Adapter node → message (`_node_to_msg`, legacy §2.3), applied on every read.
// A message is an ordered *Object.

import "slices"

// nodeToMsg turns one node into the message dict the original builds.
func nodeToMsg(n *Node, sid string) *Object {
	// "Start from a copy of metadata with status defaulted to done."
	meta := deepCopy(n.meta()).(*Object)
	if !meta.Has("status") {
		meta.Set("status", "done")
	}
	overlay := func(m *Object) {
		m.Fields = slices.Grow(m.Fields, len(meta.Fields))
		for _, f := range meta.Fields {
			m.Set(f.Key, f.Val)
		}
	}
	switch n.Role {
	case "user":
		// {id, session_id, role, content, parent_id: called_by, caller, timestamp}
		// + all metadata, so metadata.parent_id (even null) wins over called_by.
		m := newObject("id", n.ID, "session_id", sid, "role", "user",
			"content", or(deepCopy(n.Output), ""), "parent_id", n.CalledBy,
			"caller", n.CalledBy, "timestamp", n.CreatedAt)
		overlay(m)
		return m
	case "code":
		// pop metadata.called_by (m_cb) and metadata.tool_call_id.
		mcb, _ := meta.del("called_by")
		tcid, _ := meta.del("tool_call_id")
		toolUse := newObject("name", n.Name, "arguments", or(deepCopy(n.Input), &Object{}),
			"called_by", or(mcb, ""))
		if Truthy(tcid) { // "tool_call_id?": only when set
			toolUse.Set("tool_call_id", tcid)
		}
		extra := newObject("tool_use", toolUse)
		// "…metadata.extra": the leftover extra keys the msg→node adapter put
		// there (§2.2) are merged after tool_use. Not in the conformance data:
		// a non-object metadata.extra is dropped, never overlaid (it would
		// replace the extra string).
		if me, ok := meta.del("extra"); ok {
			if mo, ok := me.(*Object); ok {
				for _, f := range mo.Fields {
					extra.Set(f.Key, f.Val)
				}
			}
		}
		// content = output if it is a string, else JSON-encoded output.
		content, ok := n.Output.(string)
		if !ok {
			content = pyDumps(n.Output)
		}
		m := newObject("id", n.ID, "session_id", sid, "role", "tool", "content", content,
			"parent_id", n.CalledBy, "caller", or(or(n.CalledBy, mcb), ""),
			"timestamp", n.CreatedAt, "function", n.Name, "extra", pyDumps(extra))
		overlay(m) // status, is_error, expose, …
		return m
	case "llm":
		role, _ := meta.del("role")
		m := newObject("id", n.ID, "session_id", sid, "role", or(role, "assistant"),
			"content", or(deepCopy(n.Output), ""), "parent_id", n.CalledBy,
			"caller", n.CalledBy, "timestamp", n.CreatedAt, "token_model", n.Name)
		overlay(m) // metadata.parent_id wins
		// Only llm messages get a top-level called_by key (§2.3, docs/rollout.md §1 item 3).
		if n.CalledBy != "" {
			m.Set("called_by", n.CalledBy)
		}
		return m
	}
	// Other roles: "minimal dict with parent_id: called_by, no metadata
	// overlay". Its exact keys are not given; this model uses the common
	// base keys (no role writes such nodes).
	return newObject("id", n.ID, "session_id", sid, "role", n.Role,
		"content", or(deepCopy(n.Output), ""), "parent_id", n.CalledBy, "timestamp", n.CreatedAt)
}

// getMessages is `get_messages(sid)` (§2.1).
func getMessages(s *Session) []*Object { return newReading(s).messages() }

// messages is get_messages: the adapter over nodes_by_seq, skipping ROOT
// (`display=root`) and rewound nodes.
func (rd *reading) messages() []*Object {
	out := make([]*Object, 0, len(rd.s.Nodes))
	for _, n := range rd.s.Nodes {
		if n.isRootNode() || n.isRewound() {
			continue
		}
		out = append(out, rd.message(n))
	}
	return out
}
