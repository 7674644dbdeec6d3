package adapter

import (
	"slices"
	"sync/atomic"

	"sessiondag/impl/node"
)

// ToMessage is _node_to_msg (legacy §2.3): the message a reader sees for a
// stored node. It reads n and never changes it. reads is the session's
// count of parent_id reads, which the message and its copies add to.
func ToMessage(sessionID string, n *node.Node, reads *atomic.Int64) *Message {
	meta := n.Metadata
	f := node.NewObj(10 + meta.Len())
	f.M = append(f.M,
		node.Member{Key: "id", Val: node.Str(n.ID)},
		node.Member{Key: "session_id", Val: node.Str(sessionID)},
	)
	callerOr := func(alt node.Value) node.Value {
		if n.CalledBy != "" {
			return node.Str(n.CalledBy)
		}
		return alt
	}
	switch n.Role {
	case node.RoleUser:
		f.M = append(f.M,
			node.Member{Key: "role", Val: node.Str("user")},
			node.Member{Key: "content", Val: orEmpty(n.Output)},
			node.Member{Key: "parent_id", Val: node.Str(n.CalledBy)},
			node.Member{Key: "caller", Val: callerOr(node.Str(""))},
			node.Member{Key: "timestamp", Val: n.CreatedAt},
		)
		overlay(f, meta, nil)
	case node.RoleCode:
		mcb := meta.Get("called_by")
		tcid := meta.Get("tool_call_id")
		content := n.Output
		if content.K != node.String {
			content = node.Str(node.Dumps(n.Output))
		}
		f.M = append(f.M,
			node.Member{Key: "role", Val: node.Str("tool")},
			node.Member{Key: "content", Val: content},
			node.Member{Key: "parent_id", Val: node.Str(n.CalledBy)},
			node.Member{Key: "caller", Val: callerOr(pyStrOr(mcb))},
			node.Member{Key: "timestamp", Val: n.CreatedAt},
			node.Member{Key: "function", Val: node.Str(n.Name)},
		)
		extra, tu := toolExtra(n, mcb, tcid, meta.Get("extra"))
		f.M = append(f.M, node.Member{Key: "extra", Val: node.Str(extra)})
		overlay(f, meta, codeConsumed)
		m := New(f)
		m.toolUse = tu
		m.CalledBy = n.CalledBy // a legacy edge in metadata stays in extra.tool_use
		m.reads = reads
		return m
	case node.RoleLLM:
		role := meta.Get("role")
		if !role.Truthy() {
			role = node.Str("assistant")
		}
		f.M = append(f.M,
			node.Member{Key: "role", Val: role},
			node.Member{Key: "content", Val: orEmpty(n.Output)},
			node.Member{Key: "parent_id", Val: node.Str(n.CalledBy)},
			node.Member{Key: "caller", Val: callerOr(node.Str(""))},
			node.Member{Key: "timestamp", Val: n.CreatedAt},
			node.Member{Key: "token_model", Val: node.Str(n.Name)},
		)
		overlay(f, meta, llmConsumed)
		if n.CalledBy != "" {
			f.Set("called_by", node.Str(n.CalledBy))
		}
	default:
		f.M = append(f.M,
			node.Member{Key: "role", Val: node.Str(n.Role)},
			node.Member{Key: "content", Val: orEmpty(n.Output)},
			node.Member{Key: "parent_id", Val: node.Str(n.CalledBy)},
			node.Member{Key: "timestamp", Val: n.CreatedAt},
		)
	}
	m := New(f)
	m.CalledBy = n.CalledBy
	m.reads = reads
	return m
}

// Keys the role's builder pops from the metadata copy before the overlay.
var (
	codeConsumed = []string{"called_by", "tool_call_id", "extra"}
	llmConsumed  = []string{"role"}
)

// overlay applies the metadata copy (status defaulted to "done") over the
// base keys, skipping the popped ones.
func overlay(f *node.Obj, meta *node.Obj, skip []string) {
	hasStatus := false
	for _, m := range meta.M {
		if m.Key == "status" && !slices.Contains(skip, m.Key) {
			hasStatus = true
			break
		}
	}
	f.UpdateExcept(meta, skip)
	if !hasStatus {
		f.Set("status", node.Str("done"))
	}
}

// toolExtra is the extra string of a tool message:
// {"tool_use": {name, arguments, called_by, tool_call_id?}, **metadata.extra}.
func toolExtra(n *node.Node, mcb, tcid, mextra node.Value) (string, *node.Obj) {
	args := n.Input
	if !args.Truthy() {
		args = node.ObjV(&node.Obj{})
	}
	tu := node.NewObj(4)
	tu.M = append(tu.M,
		node.Member{Key: "name", Val: node.Str(n.Name)},
		node.Member{Key: "arguments", Val: args},
		node.Member{Key: "called_by", Val: pyStrOr(mcb)},
	)
	if tcid.Truthy() {
		tu.M = append(tu.M, node.Member{Key: "tool_call_id", Val: tcid})
	}
	extra := node.NewObj(1 + mextra.O.Len())
	extra.M = append(extra.M, node.Member{Key: "tool_use", Val: node.ObjV(tu)})
	if mextra.K == node.Object {
		extra.Update(mextra.O)
	}
	// metadata.extra may itself carry a tool_use key, which wins.
	final := tu
	if v := extra.Get("tool_use"); v.K == node.Object {
		final = v.O
	} else {
		final = nil
	}
	return node.Dumps(node.ObjV(extra)), final
}

// orEmpty is Python's `v or ""`.
func orEmpty(v node.Value) node.Value {
	if v.Truthy() {
		return v
	}
	return node.Str("")
}

// pyStrOr is `v or ""` for a value expected to be a string.
func pyStrOr(v node.Value) node.Value {
	if v.Truthy() {
		return v
	}
	return node.Str("")
}
