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
	if mode == "sync" && sub != nil && b.subTurn(sub) {
		// R's /task: the sub-agent's reply is a dispatcher turn's (or
		// none: the turn died), written by the ops that follow; its done
		// writes the attach pointer.
		op := ops.Spawn{Mode: "inherit", Cmd: c.ID, ID: sub.ID, Attach: sub.ID + "_attach", Text: outputText(sub), Turn: true}
		if p, ok := sub.Meta.Get("parent_id"); !ok || p == nil {
			op.Mode = "clean"
		}
		if a, _ := b.attachFor(sub.ID + "_reply"); a != nil { // none: the turn never ended (a crash)
			at, _ := a.Meta.Val("attach").(*model.Object)
			op.Attach, op.Label = a.ID, str(at, "label")
		}
		op.Label, op.Text = typedSpawn(outputText(c), op.Label, op.Text)
		return step{op: op, rows: 2, need: needIdle, web: c, clock: c}
	}
	if mode == "async" && sub != nil && attach != nil && has(attach.Meta, "attach") && b.subTurn(sub) && !asyncAtOnce(attach, sub, b.byID[sub.ID+"_reply"]) {
		// R's task runner: the sub-agent's turn is the ops that follow, its
		// done finishes the card and writes the follow-up turn
		at, _ := attach.Meta.Val("attach").(*model.Object)
		op := ops.Spawn{Mode: mode, Cmd: c.ID, ID: sub.ID, Attach: attach.ID, Text: outputText(sub), Label: str(at, "label"),
			Turn: true, Followup: b.followupOf[c.ID]}
		if op.Followup == "" { // the turn never ended: no follow-up was written
			op.Followup = sub.ID + "_followup"
		}
		if t := str(at, "task_id"); t != "" && t != "t_"+attach.ID {
			op.Task = t
		}
		op.Label, op.Text = typedSpawn(outputText(c), op.Label, op.Text)
		return step{op: op, rows: 3, need: needIdle, web: c, clock: c}
	}
	if sub == nil || attach == nil || b.row(k+2) == nil {
		b.unexplained(c, "", "", "a /spawn or /task --async command row is followed by its sub-agent's user and reply and its attach pointer; the rows end before them")
		return step{}
	}
	if mode == "sync" {
		mode = "inherit"
		if p, ok := sub.Meta.Get("parent_id"); !ok || p == nil {
			mode = "clean"
		}
	}
	if !has(attach.Meta, "attach") {
		b.unexplained(c, "", "", fmt.Sprintf("the sub-agent's turn writes rows of its own (%s) before the attach pointer, and its reply is no dispatcher turn's (no source) that `spawn … turn` writes", attach.ID))
		return step{}
	}
	at, _ := attach.Meta.Val("attach").(*model.Object)
	op := ops.Spawn{Mode: mode, Cmd: c.ID, ID: sub.ID, Attach: attach.ID, Text: outputText(sub),
		Label: str(at, "label"), Rooted: sub.CalledBy == "ROOT"}
	if !op.Rooted {
		// R stores the command as typed: its label and text as the user
		// gave them (the sub-agent and the pointer hold them stripped).
		op.Label, op.Text = typedSpawn(outputText(c), op.Label, op.Text)
	}
	rows := 4
	if mode == "async" && !op.Rooted {
		// R's task runner: the follow-up turn it wrote once the task
		// completed, answered at once as the sub-agent was
		f := b.row(k + 4)
		if f == nil || f.ID != b.followupOf[c.ID] || b.row(k+5) == nil || b.row(k+5).ID != f.ID+"_reply" {
			b.unexplained(c, "", "", "an async /task whose sub-agent answered at once is followed by the follow-up turn R's task runner writes (source task_followup, under its command row) and its reply; the rows after it are not those")
			return step{}
		}
		op.Followup, rows = f.ID, 6
		if t := str(at, "task_id"); t != "t_"+attach.ID {
			op.Task = t
		}
	}
	return step{op: op, rows: rows, need: needIdle, web: c, clock: c}
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
	if b.subTurn(s) {
		return b.inferTaskTurn(s)
	}
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
	if args := taskArgs(tool); args != nil { // R's task tool: the arguments the model passed
		op.Text, op.Label = str(args, "prompt"), str(args, "description")
	}
	return step{op: op, rows: 4, need: needReply, caller: reply, clock: s, call: call}
}

// inferTaskTurn: a sub-agent's user whose reply is a dispatcher turn's,
// outside /spawn: R's task tool, called by the reply its attach pointer
// (or its parent_id) names, the call the task's tool row after the attach
// pointer names. With neither (the turn never ended) any new ids do.
func (b *builder) inferTaskTurn(s *Row) step {
	op := ops.Task{ID: s.ID, Text: outputText(s), Attach: s.ID + "_attach", CallID: s.ID + "_call", Turn: true}
	reply := str(s.Meta, "parent_id")
	if p, ok := s.Meta.Get("parent_id"); ok && p == nil {
		op.Clean = true
	}
	if a, k := b.attachFor(s.ID + "_reply"); a != nil {
		at, _ := a.Meta.Val("attach").(*model.Object)
		op.Attach, op.Label, reply = a.ID, str(at, "label"), str(a.Meta, "parent_id")
		if t := b.row(k + 1); t != nil && t.Name == "task" && strings.HasPrefix(t.ID, reply+"_t_") {
			op.CallID = strings.TrimPrefix(t.ID, reply+"_t_")
		}
	}
	if reply == "" && b.reply != nil {
		reply = b.reply.id
	}
	return step{op: op, rows: 1, need: needReply, caller: reply, clock: s, call: op.CallID}
}

// inferSpawnEnd: the attach pointer of the spawn or task turn in progress,
// which its reply's done writes (a task's with its tool row).
func (b *builder) inferSpawnEnd(r *Row) step {
	rows := 1
	if b.outer != nil {
		rows = 2
	}
	return step{op: ops.Done{}, rows: rows, need: needSpawnEnd, caller: b.spawn + "_reply", clock: r}
}

// subTurn reports whether the sub-agent's user s was written as R writes
// it, its turn by the ops that follow (a spawn or task turn): caller-less,
// and its reply a dispatcher turn's (it records its source), or none (the
// turn died before it).
func (b *builder) subTurn(s *Row) bool {
	r := b.byID[s.ID+"_reply"]
	return s.CalledBy == "" && (r == nil || has(r.Meta, "source")) && !b.answeredAtOnce(s, r)
}

// asyncAtOnce reports whether the rows of a /task --async are the op's own
// form, whose sub-agent answered at once ("sub done", its reply right
// after its user, the card showing it), which the turn form would write
// the same only with that answer.
func asyncAtOnce(attach, s, r *Row) bool {
	return r != nil && outputText(r) == "sub done" && r.Seq == s.Seq+1 && outputText(attach) == "sub done"
}

// answeredAtOnce reports whether the sub-agent's user s and its reply r
// are the rows of a spawn or task whose sub-agent answered at once (the
// op's "sub done", the reply right after its user and the attach pointer
// right after the reply): the op's own form, which the turn form would
// write the same only with that answer.
func (b *builder) answeredAtOnce(s, r *Row) bool {
	if r == nil || outputText(r) != "sub done" || r.Seq != s.Seq+1 {
		return false
	}
	a, _ := b.attachFor(r.ID)
	return a != nil && a.Seq == r.Seq+1
}
