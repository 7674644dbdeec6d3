// Package webui holds what the web UI builds from messages: tool folding
// (aggregate_tool_messages), runtime cards and their execution trees, spawn
// origin, and the load pipeline that puts them together.
package webui

import (
	"slices"
	"sync/atomic"

	"sessiondag/impl/adapter"
	"sessiondag/impl/flags"
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

// Aggregate is aggregate_tool_messages under these rules, over any message
// list. A load runs it over its columns instead (reader.aggregated), which
// gives the same rows (props TestChecks/load-columns).
func (r Rules) Aggregate(msgs []*adapter.Message) []*adapter.Message {
	if len(msgs) == 0 {
		return msgs
	}
	// last is the original's parents map: an id → the index of the last
	// assistant with it.
	last := make(map[string]int, len(msgs)/2)
	for i, m := range msgs {
		if m.Role == "assistant" && m.ID != "" {
			last[m.ID] = i
		}
	}
	// into[i] is 1 + the index of the assistant tool row i folds into.
	into := make([]int32, len(msgs))
	for i, m := range msgs {
		if m.Role != "tool" {
			continue
		}
		if a, ok := last[r.ToolTarget(m)]; ok {
			into[i] = int32(a + 1)
		}
	}
	start := make([]int32, len(msgs)+1)
	calls := callLists(msgs, into, start, make([]int32, len(msgs)))
	out := make([]*adapter.Message, 0, len(msgs)-len(calls))
	for i, m := range msgs {
		switch {
		case into[i] > 0:
			continue
		case m.Role == "assistant" && m.ID != "":
			// An earlier assistant with the id of a later one keeps its
			// rows (last wins) but gets its blocks.
			var mine []*adapter.Message
			if last[m.ID] == i {
				mine = calls[start[i]:start[i+1]]
			}
			m = fold(m, mine)
		}
		out = append(out, m)
	}
	return out
}

// callLists groups the rows that fold (into[i] = 1 + the index they fold
// into) by receiver: calls[start[a]:start[a+1]] are a's rows, in order.
// start (len(into)+1) and next (len(into)) are zeroed scratch space.
func callLists(rows []*adapter.Message, into, start, next []int32) (calls []*adapter.Message) {
	for _, a := range into {
		if a > 0 {
			start[a]++
		}
	}
	for i := 1; i < len(start); i++ {
		start[i] += start[i-1]
	}
	calls = make([]*adapter.Message, start[len(into)])
	copy(next, start[:len(into)])
	for i, a := range into {
		if a > 0 {
			calls[next[a-1]] = rows[i]
			next[a-1]++
		}
	}
	return calls
}

// foldMemo is an assistant's folded copy and what it was made from. The
// first tool rows are kept inline: most assistants have few, and every load
// compares them.
type foldMemo struct {
	base *adapter.Message
	out  *adapter.Message
	n    int
	few  [3]*adapter.Message
	more []*adapter.Message // the rows after few
}

// made reports whether f was made from base with these tool rows.
func (f *foldMemo) made(base *adapter.Message, calls []*adapter.Message) bool {
	if f.base != base || f.n != len(calls) {
		return false
	}
	k := min(len(calls), len(f.few))
	return slices.Equal(f.few[:k], calls[:k]) && slices.Equal(f.more, calls[k:])
}

// foldChunk holds the folded copies of a run of positions. Chunks never
// move, so loads read and fill them while the columns grow.
type foldChunk [foldChunkSize]atomic.Pointer[foldMemo]

const foldChunkSize = 64

// folded is fold kept for the assistant's position, and reused while its
// calls are the same rows: tool rows are compared by identity, and a
// replaced node has a new message. The copy is shared by the loads that
// reuse it, as the messages are: readers copy before they change a row.
// Folded copies sit in one dense table per rule set, beside the columns,
// so that checking them costs one memory access per assistant.
func (c *columns) folded(p int, m *adapter.Message, calls []*adapter.Message) *adapter.Message {
	i := p % foldChunkSize
	slot := &c.folds[p/foldChunkSize][i]
	if f := slot.Load(); f != nil && f.made(m, calls) {
		return f.out
	}
	f := &foldMemo{base: m, out: fold(m, calls), n: len(calls)}
	k := copy(f.few[:], calls)
	f.more = slices.Clone(calls[k:])
	slot.Store(f)
	return f.out
}

// fold builds the assistant with its calls and blocks; the message itself
// when it gets neither.
func fold(m *adapter.Message, calls []*adapter.Message) *adapter.Message {
	c := m
	if len(calls) > 0 {
		c = m.Copy()
		withCalls(c, calls)
	}
	if blocks := extraBlocks(m); blocks.Truthy() {
		if c == m {
			c = m.Copy()
		}
		c.Set("blocks", blocks)
	}
	return c
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
		p, err := node.ParseString(v.S)
		if err != nil {
			return node.Value{}
		}
		return p
	case node.Object:
		return v
	}
	return node.Value{}
}

// withCalls appends a call object per tool row to the assistant's
// tool_calls, in a new list: one that came from the node's metadata is
// shared with the store.
func withCalls(a *adapter.Message, tools []*adapter.Message) {
	calls := a.Get("tool_calls")
	var list []node.Value
	if calls.K == node.Array {
		list = make([]node.Value, len(calls.A), len(calls.A)+len(tools))
		copy(list, calls.A)
	}
	for _, t := range tools {
		list = append(list, toolCall(t))
	}
	a.Set("tool_calls", node.Arr(list))
}

// toolCall is the call object a tool row becomes.
func toolCall(tool *adapter.Message) node.Value {
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
	return node.ObjV(call)
}

// extraBlocks is the blocks list of an assistant's extra, as a list of its
// own, so the list shown is never shared with the stored value.
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
