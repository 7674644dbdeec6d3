package model

// aggregateToolMessages is `aggregate_tool_messages(messages)` (legacy §3.4).
// It mutates the assistant dicts it is given (as R does); callers pass copies.
func aggregateToolMessages(msgs []*Object) []*Object {
	if len(msgs) == 0 {
		return msgs
	}
	// parents: every message with role assistant and an id; last wins.
	parents := map[string]*Object{}
	for _, m := range msgs {
		if m.Val("role") == "assistant" && msgID(m) != "" {
			parents[msgID(m)] = m
		}
	}
	var out []*Object
	for _, m := range msgs {
		if m.Val("role") == "tool" {
			// target = top-level called_by (R) or parent_id; if still empty,
			// extra.tool_use.called_by.
			target := Or(m.Val("called_by"), m.Val("parent_id"))
			if !Truthy(target) {
				if tu, ok := parseExtra(m.Val("extra")).Val("tool_use").(*Object); ok {
					target = tu.Val("called_by")
				}
			}
			if id, ok := target.(string); ok && parents[id] != nil {
				a := parents[id]
				calls, _ := a.Val("tool_calls").([]any)
				var args any
				if tu, ok := parseExtra(m.Val("extra")).Val("tool_use").(*Object); ok {
					args = tu.Val("arguments")
				}
				a.Set("tool_calls", append(calls, NewObject(
					"tool_call_id", m.Val("id"),
					"tool", Or(m.Val("function"), ""),
					"input", stringifyArgs(args),
					"result", m.Val("content"),
					"is_error", Truthy(m.Val("is_error")),
				)))
				continue // folded: the row is dropped
			}
		}
		out = append(out, m) // everything else, and orphan tool rows, in place
	}
	// Surviving assistants with a non-empty extra whose parsed blocks is truthy
	// get a copy of it as `blocks`.
	for _, m := range out {
		if m.Val("role") == "assistant" && Truthy(m.Val("extra")) {
			if b := parseExtra(m.Val("extra")).Val("blocks"); Truthy(b) {
				m.Set("blocks", DeepCopy(b))
			}
		}
	}
	return out
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
	return PyDumps(v)
}
