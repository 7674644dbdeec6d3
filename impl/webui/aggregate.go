// Package webui holds what the web UI builds from messages: tool folding
// (aggregate_tool_messages), runtime cards and their execution trees, spawn
// origin, and the load pipeline that puts them together.
package webui

import (
	"slices"

	"sessiondag/impl/adapter"
	"sessiondag/impl/flags"
	"sessiondag/impl/mutant"
	"sessiondag/impl/node"
)

// Aggregate is aggregate_tool_messages (legacy §3.4): every tool row whose
// caller is a known assistant is folded into that assistant's tool_calls and
// dropped; the rest stay in place as orphans. Assistants with blocks in their
// extra get a blocks key. The input messages are not changed: assistants
// that gain keys are copies.
func Aggregate(msgs []*adapter.Message) []*adapter.Message {
	return RulesFor(flags.Off, nil).Aggregate(msgs)
}

// Aggregate is aggregate_tool_messages under these rules.
func (r Rules) Aggregate(msgs []*adapter.Message) []*adapter.Message {
	if len(msgs) == 0 {
		return msgs
	}
	// lastAsst is the original's parents map (last wins on duplicate ids);
	// copied holds the copy of each one that received a tool call.
	out := make([]*adapter.Message, 0, len(msgs))
	copied := make(map[string]*adapter.Message)
	lastAsst := make(map[string]*adapter.Message, len(msgs)/2)
	for _, m := range msgs {
		if m.Role == "assistant" && m.ID != "" {
			lastAsst[m.ID] = m
		}
	}
	for _, m := range msgs {
		if m.Role == "tool" {
			target := r.ToolTarget(m)
			if a, ok := lastAsst[target]; ok {
				c := copied[target]
				if c == nil {
					c = a.Copy()
					copied[target] = c
				}
				appendToolCall(c, m)
				continue
			}
			if mutant.On(mutant.DropOrphans) {
				continue
			}
		}
		out = append(out, m)
	}
	for i, m := range out {
		if m.Role != "assistant" || m.ID == "" {
			continue
		}
		if c := copied[m.ID]; c != nil && lastAsst[m.ID] == m {
			m = c
			out[i] = c
		}
		if blocks := extraBlocks(m); blocks.Truthy() {
			if copied[m.ID] != m {
				m = m.Copy()
				out[i] = m
			}
			m.Set("blocks", blocks)
		}
	}
	return out
}

// ToolTarget is R's rule for the assistant a tool row belongs to.
func ToolTarget(m *adapter.Message) string { return RulesFor(flags.Off, nil).ToolTarget(m) }

// ToolUse is the parsed extra.tool_use of a tool row (nil when absent).
func ToolUse(m *adapter.Message) *node.Obj {
	if tu := adapter.CachedToolUse(m); tu != nil {
		return tu
	}
	extra := parseExtra(m.Get("extra"))
	if extra.K != node.Object {
		return nil
	}
	tu := extra.O.Get("tool_use")
	if tu.K != node.Object {
		return nil
	}
	return tu.O
}

// parseExtra decodes an extra value: a JSON string, or an object as is.
func parseExtra(v node.Value) node.Value {
	switch v.K {
	case node.String:
		if v.S == "" {
			return node.Value{}
		}
		p, err := node.Parse([]byte(v.S))
		if err != nil {
			return node.Value{}
		}
		return p
	case node.Object:
		return v
	}
	return node.Value{}
}

func appendToolCall(a, tool *adapter.Message) {
	input := tool.ArgsText(func() node.Value { return ToolUse(tool).Get("arguments") })
	fn := tool.Get("function")
	if !fn.Truthy() {
		fn = node.Str("")
	}
	call := node.NewObj(5)
	call.M = append(call.M,
		node.Member{Key: "tool_call_id", Val: node.Str(tool.ID)},
		node.Member{Key: "tool", Val: fn},
		node.Member{Key: "input", Val: input},
		node.Member{Key: "result", Val: tool.Get("content")},
		node.Member{Key: "is_error", Val: node.BoolV(tool.Get("is_error").Truthy())},
	)
	calls := a.Get("tool_calls")
	if calls.K != node.Array {
		calls = node.Arr(nil)
	}
	// Clip before appending: a tool_calls list that came from the node's
	// metadata is shared with the store and with every other load of it.
	calls.A = append(calls.A[:len(calls.A):len(calls.A)], node.ObjV(call))
	a.Set("tool_calls", calls)
}

// extraBlocks is the blocks list of an assistant's extra, as a list of its
// own, so the list shown is never shared with the stored value or another
// load.
func extraBlocks(m *adapter.Message) node.Value {
	if !m.Get("extra").Truthy() {
		return node.Value{}
	}
	p := m.Extra()
	if p.K != node.Object {
		return node.Value{}
	}
	// The list is copied; its block objects are values nobody changes
	// once built, so they are shared.
	b := p.O.Get("blocks")
	if b.K == node.Array {
		b.A = slices.Clone(b.A)
	}
	return b
}
