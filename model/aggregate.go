package model

// aggregateToolMessages is `aggregate_tool_messages(messages)` (legacy §3.4).
func aggregateToolMessages(msgs []*Object) []*Object { return aggregate(msgs, newMemo()) }

// aggregate is aggregate_tool_messages with the memo's parsed extras and
// tool calls. R changes the assistant dicts it is given; this model leaves
// the messages it is given as they are and shows a copy of each assistant
// it changes, so that one message serves every view.
func aggregate(msgs []*Object, mm *memo) []*Object {
	if len(msgs) == 0 {
		return msgs
	}
	// parents: every message with role assistant and an id; last wins.
	parents := make(map[string]int, len(msgs))
	for i, m := range msgs {
		if m.Val("role") == "assistant" && msgID(m) != "" {
			parents[msgID(m)] = i
		}
	}
	folded := map[int][]any{} // parent position → the calls folded into it, in order
	kept := make([]int, 0, len(msgs))
	for i, m := range msgs {
		if m.Val("role") == "tool" {
			// target = top-level called_by (R) or parent_id; if still empty,
			// extra.tool_use.called_by.
			target := or(m.Val("called_by"), m.Val("parent_id"))
			if !Truthy(target) {
				if tu, ok := mm.extra(m.Val("extra")).Val("tool_use").(*Object); ok {
					target = tu.Val("called_by")
				}
			}
			if id, ok := target.(string); ok {
				if p, ok := parents[id]; ok {
					folded[p] = append(folded[p], mm.call(m))
					continue // folded: the row is dropped
				}
			}
		}
		kept = append(kept, i) // everything else, and orphan tool rows, in place
	}
	out := make([]*Object, 0, len(kept))
	for _, i := range kept {
		m := msgs[i]
		if m.Val("role") == "assistant" {
			m = withCalls(m, folded[i], mm)
		}
		out = append(out, m)
	}
	return out
}

// withCalls is an assistant as aggregation leaves it: the calls folded into
// it appended to its `tool_calls`, and, when its extra parses to a truthy
// `blocks`, that as `blocks` (a copy in R, which protects its stored value
// from later changes; no view value here is ever changed, so the parsed
// value itself serves). Unchanged, it is the message itself.
func withCalls(m *Object, calls []any, mm *memo) *Object {
	return mm.folded(m, calls, func() *Object { return fold(m, calls, mm) })
}

func fold(m *Object, calls []any, mm *memo) *Object {
	var blocks any
	if Truthy(m.Val("extra")) {
		blocks = mm.extra(m.Val("extra")).Val("blocks")
	}
	if len(calls) == 0 && !Truthy(blocks) {
		return m
	}
	m = m.Copy()
	if len(calls) > 0 {
		have, _ := m.Val("tool_calls").([]any)
		m.Set("tool_calls", append(have[:len(have):len(have)], calls...))
	}
	if Truthy(blocks) {
		m.Set("blocks", blocks)
	}
	return m
}

// toolCall is the entry a folded tool row becomes in its assistant's
// `tool_calls`.
func toolCall(m *Object, mm *memo) *Object {
	var args any
	if tu, ok := mm.extra(m.Val("extra")).Val("tool_use").(*Object); ok {
		args = tu.Val("arguments")
	}
	return newObject(
		"tool_call_id", m.Val("id"),
		"tool", or(m.Val("function"), ""),
		"input", stringifyArgs(args),
		"result", m.Val("content"),
		"is_error", Truthy(m.Val("is_error")),
	)
}

// parseExtra: string → parsed JSON (failure → nothing); a dict as is.
// Returns nil (an empty lookup) when there is no object.
func parseExtra(v any) *Object {
	switch x := v.(type) {
	case *Object:
		return x
	case string:
		if p, err := ParseJSON([]byte(x)); err == nil {
			o, _ := p.(*Object)
			return o
		}
	}
	return nil
}

// stringifyArgs: arguments null → "", a string as is, else JSON (non-ASCII kept).
func stringifyArgs(v any) any {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	}
	return pyDumps(v)
}
