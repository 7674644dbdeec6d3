package reconstruct

import (
	"slices"

	"sessiondag/model"
	"sessiondag/ops"
)

// The message op: a row an importer, a channel or a test handed the message
// adapter as a dict (append_message), whose shape no other writer's op
// writes. It is the reading of last resort: a row one of the specialized
// ops explains is read as that op (legacy-user, legacy-reply, orphan, a
// script's model call, a standalone error), whose values the walks draw.

// messageRow is the message op that explains r when no specialized op
// does, as a step; ok is false when none does either.
func (b *builder) messageRow(r *Row) (step, bool) {
	op, ok := messageFor(r)
	if !ok {
		return step{}, false
	}
	return step{op: op, rows: 1, need: needIdle, clock: r}, true
}

// unsavedStep reads a row append_message wrote (a legacy-user's,
// legacy-reply's or message's) as the message op unsaved when meta.json
// holds no head: every one of those ops but an unsaved message persists the
// head its append moved, so in a folder whose head nothing persisted they
// were appended and not saved (a test or a tool that appends and stops; the
// store persists meta.json only on a set_head, a commit_turn or a turn's
// save). The intent is the same: a message means what its siblings mean.
func (b *builder) unsavedStep(r *Row, s step) step {
	if !b.noHead || b.first != nil {
		return s
	}
	switch s.op.(type) {
	case ops.LegacyUser, ops.LegacyReply, ops.Message:
	default:
		return s
	}
	if m, ok := messageFor(r); ok {
		m.Unsaved = true
		s.op = m
	}
	return s
}

// metaKeys are r's metadata keys in order, flag A's predecessor aside (the
// builder turns the flags on for a row that records one).
func metaKeys(r *Row) []string {
	var keys []string
	for _, f := range r.Meta.Fields {
		if f.Key != "predecessor" {
			keys = append(keys, f.Key)
		}
	}
	return keys
}

// keysAre reports whether r's metadata keys are one of the lists given.
func keysAre(r *Row, lists ...[]string) bool {
	got := metaKeys(r)
	for _, l := range lists {
		if slices.Equal(got, l) {
			return true
		}
	}
	return false
}

// messageFor inverts the message adapter (legacy §2.2): the op whose dict
// append_message makes into r, its fields exact (created_at aside: the
// clock's). ok is false for a row no dict becomes (an input on a user or
// reply row, reads, a key the adapter takes out of every dict), and for
// one whose node the op's does not equal.
func messageFor(r *Row) (ops.Message, bool) {
	if r.ID == "" || r.ID == "ROOT" {
		return ops.Message{}, false
	}
	if reads, ok := r.Obj.Val("reads").([]any); !ok || len(reads) > 0 {
		return ops.Message{}, false
	}
	var fields []model.Field
	for _, f := range r.Meta.Fields {
		if f.Key != "predecessor" {
			fields = append(fields, f)
		}
	}
	op := ops.Message{ID: r.ID}
	keys := &model.Object{}
	out := r.Obj.Val("output")
	text := func(always bool) bool {
		switch s, isText := out.(string); {
		case isText:
			op.Text = s
		case always || model.Truthy(out):
			keys.Set("content", out)
		default:
			return false // content or "": no dict stores a falsy value but ""
		}
		return true
	}
	switch r.Role {
	case "user", "llm":
		if r.Obj.Val("input") != nil || !text(false) {
			return ops.Message{}, false
		}
		op.Role = "user"
		if r.Role == "llm" {
			op.Role, op.Caller = "assistant", r.CalledBy
			if n := len(fields); n > 0 && fields[n-1].Key == "role" && fields[n-1].Val == "system" {
				op.Role, fields = "system", fields[:n-1]
			}
			if r.Name != "" {
				keys.Set("token_model", r.Name)
			}
		} else if r.Name != "" || r.CalledBy != "" {
			return ops.Message{}, false
		}
		if len(fields) > 0 && fields[0].Key == "parent_id" {
			switch p := fields[0].Val.(type) {
			case nil:
				op.Parent, fields = "null", fields[1:]
			case string:
				if p != "" && p != "null" {
					op.Parent, fields = p, fields[1:]
				}
			}
		}
		if r.Role == "user" && len(fields) > 0 && fields[0].Key == "called_by" {
			if c, ok := fields[0].Val.(string); ok && c != "" {
				op.Caller, fields = c, fields[1:]
			}
		}
		for _, f := range fields {
			keys.Set(f.Key, f.Val)
		}
	case "code":
		if !toolMessage(r, &op, keys, fields, text) {
			return ops.Message{}, false
		}
	default:
		return ops.Message{}, false
	}
	if len(keys.Fields) > 0 {
		b, err := model.AppendJSON(nil, keys)
		if err != nil {
			return ops.Message{}, false
		}
		op.Keys = string(b)
	}
	return op, writesRow(op, r)
}

// writesRow reports whether op writes r's fields (seq and created_at
// aside, and flag A's predecessor).
func writesRow(op ops.Message, r *Row) bool {
	n, err := model.MessageNode(op)
	if err != nil || n.Role != r.Role || n.Name != r.Name || n.CalledBy != r.CalledBy {
		return false
	}
	if jsonText(n.Input) != jsonText(r.Obj.Val("input")) || jsonText(n.Output) != jsonText(r.Obj.Val("output")) {
		return false
	}
	stored := &model.Object{}
	for _, f := range r.Meta.Fields {
		if f.Key != "predecessor" {
			stored.Fields = append(stored.Fields, f)
		}
	}
	return jsonText(n.Metadata) == jsonText(stored)
}

// toolMessage fills op and keys with the tool message r was made of: its
// call edge as parent_id, its name and arguments and a call id of its own
// in tool_use, its keys, and the extra's other keys stored as metadata.extra.
func toolMessage(r *Row, op *ops.Message, keys *model.Object, fields []model.Field, text func(bool) bool) bool {
	op.Role, op.Parent = "tool", r.CalledBy
	text(true)
	use := &model.Object{}
	if r.Name != "" {
		use.Set("name", r.Name)
	}
	switch in := r.Obj.Val("input"); {
	case model.Truthy(in):
		use.Set("arguments", in)
	case !isObject(in):
		return false // arguments or {}
	}
	n := len(fields)
	if n == 0 {
		return false
	}
	last := fields[n-1]
	if last.Key == "tool_call_id" {
		fields = fields[:n-1] // appended by the adapter
	}
	var rest *model.Object
	if k := len(fields); k > 0 && fields[k-1].Key == "extra" && isObject(fields[k-1].Val) {
		rest, fields = fields[k-1].Val.(*model.Object), fields[:k-1]
	}
	if len(fields) > 0 && fields[0].Key == "called_by" {
		if c, ok := fields[0].Val.(string); ok && c != "" {
			op.Caller, fields = c, fields[1:]
		}
	}
	call, _ := r.Meta.Val("tool_call_id").(string)
	if call != r.ID {
		use.Set("tool_call_id", call)
	}
	for _, f := range fields {
		keys.Set(f.Key, f.Val)
	}
	extra := &model.Object{}
	if len(use.Fields) > 0 {
		extra.Set("tool_use", use)
	}
	if rest != nil {
		extra.Fields = append(extra.Fields, rest.Fields...)
	}
	if len(extra.Fields) > 0 {
		keys.Set("extra", extra)
	}
	return true
}
