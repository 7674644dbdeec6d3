package reconstruct

import (
	"fmt"
	"strings"

	"sessiondag/model"
	"sessiondag/ops"
)

// The ops that write several rows at once, each recognised by its first
// row and checked against the rows after it.

// inferSpawn: /spawn (mode sync: inherit or clean, by the sub-agent's
// parent) or /task --async, from the command row at index k: the command
// row, the sub-agent's user and reply and the attach pointer (first, for
// async).
func (b *builder) inferSpawn(k int, c *Row, mode string) step {
	sub, attach := b.row(k+1), b.row(k+3)
	if mode == "async" {
		attach, sub = b.row(k+1), b.row(k+2)
	}
	if sub == nil || attach == nil || b.row(k+2) == nil {
		b.unexplained(c, "", "", "a /spawn or /task --async command row is followed by its sub-agent's user and reply and its attach pointer; the rows end before them")
		return step{}
	}
	if !has(attach.Meta, "attach") {
		b.unexplained(c, "", "", fmt.Sprintf("the sub-agent's turn writes rows of its own (%s) before the attach pointer: the op language's sub-agent answers at once, and no op writes them", attach.ID))
		return step{}
	}
	if mode == "sync" {
		mode = "inherit"
		if p, ok := sub.Meta.Get("parent_id"); !ok || p == nil {
			mode = "clean"
		}
	}
	at, _ := attach.Meta.Val("attach").(*model.Object)
	op := ops.Spawn{Mode: mode, Cmd: c.ID, ID: sub.ID, Attach: attach.ID, Text: outputText(sub),
		Label: str(at, "label"), Rooted: sub.CalledBy == "ROOT"}
	if !op.Rooted {
		// R stores the command as typed: its label and text as the user
		// gave them (the sub-agent and the pointer hold them stripped).
		op.Label, op.Text = typedSpawn(outputText(c), op.Label, op.Text)
	}
	return step{op: op, rows: 4, need: needIdle, web: c, clock: c}
}

// typedSpawn reads the label and text of a command row typed as
// "/spawn L: T", "/spawn --clean L: T" or "/task --async L: T" (the label
// holds no colon); a row of another form gives label and text back.
func typedSpawn(cmd, label, text string) (string, string) {
	for _, p := range []string{"/spawn --clean ", "/task --async ", "/spawn "} {
		if rest, ok := strings.CutPrefix(cmd, p); ok {
			if l, t, ok := strings.Cut(rest, ": "); ok && !strings.Contains(l, ":") {
				return l, t
			}
			return label, text
		}
	}
	return label, text
}

// inferMerge: /merge: its command row and, a seq later, the merge turn.
func (b *builder) inferMerge(k int, c *Row) step {
	m := b.row(k + 1)
	if m == nil || str(m.Meta, "source") != "merge_turn" {
		b.unexplained(c, "", "", "a /merge command row is followed by its merge turn (source merge_turn); the next row is not one")
		return step{}
	}
	op := ops.Merge{Cmd: c.ID, ID: m.ID, Text: outputText(m)}
	return step{op: op, rows: 2, need: needIdle, web: c, clock: c}
}

// inferTask: a sub-agent's user written by the open reply's task call: the
// user, its reply, the attach pointer and the task's tool row R_t_C.
func (b *builder) inferTask(k int, s *Row) step {
	reply := str(s.Meta, "parent_id")
	attach, tool := b.row(k+2), b.row(k+3)
	if reply == "" || b.row(k+1) == nil || attach == nil || tool == nil || !strings.HasPrefix(tool.ID, reply+"_t_") {
		b.unexplained(s, "", "", fmt.Sprintf("a sub-agent's user outside /spawn is written by a reply's task call: its reply, attach pointer and the task's tool row (%s_t_…) follow it; they do not here", reply))
		return step{}
	}
	at, _ := attach.Meta.Val("attach").(*model.Object)
	call := strings.TrimPrefix(tool.ID, reply+"_t_")
	op := ops.Task{CallID: call, ID: s.ID, Attach: attach.ID, Text: outputText(s), Label: str(at, "label"),
		Async: outputText(tool) == "(running)", Rooted: s.CalledBy == "ROOT"}
	if in, ok := tool.Obj.Val("input").(string); ok { // R's task tool: the arguments the model passed
		if v, err := model.ParseJSON([]byte(in)); err == nil {
			if args, ok := v.(*model.Object); ok {
				op.Text, op.Label = str(args, "prompt"), str(args, "description")
			}
		}
	}
	return step{op: op, rows: 4, need: needReply, caller: reply, clock: s, call: call}
}
