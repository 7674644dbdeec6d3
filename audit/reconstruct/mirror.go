package reconstruct

import "sessiondag/ops"

// track follows what op left in progress for the writer performing the
// ops (the README's writer state: pending turn, open reply, frame stack),
// which the writer keeps to itself. wrote says whether the op appended a
// row.
func (b *builder) track(op ops.Op, wrote bool) {
	switch op := op.(type) {
	case ops.UserWeb:
		b.pending, b.pendingSrc = op.ID, "web"
	case ops.UserDispatch:
		b.pending, b.pendingSrc = op.ID, op.Source
		if op.Source == "" {
			b.pendingSrc = "cli"
		}
	case ops.ForkRoot:
		b.pending, b.pendingSrc = op.ID, "cli"
	case ops.Merge:
		b.pending, b.pendingSrc = op.ID, "merge_turn"
	case ops.Retry:
		b.pending, b.pendingSrc = op.Of, "web" // Of is the turn itself: the rerun climbs no further
		if wrote {
			b.pending = op.ID
		}
	case ops.Edit:
		b.pending, b.pendingSrc = op.ID, "web"
	case ops.Reply:
		b.reply = &openReply{id: b.pending + "_reply"}
		if r := b.byID[b.reply.id]; r != nil {
			b.reply.blocks = blocksOf(r)
		}
	case ops.Spawn:
		if op.Turn {
			b.pending, b.pendingSrc, b.spawn, b.followup = op.ID, "agent_spawn", op.ID, op.Followup
		}
	case ops.Task:
		if op.Turn {
			b.outer = &outerTurn{pending: b.pending, pendingSrc: b.pendingSrc, reply: b.reply}
			b.pending, b.pendingSrc, b.reply, b.spawn = op.ID, "agent_spawn", nil, op.ID
		}
	case ops.Done, ops.Cancel, ops.ErrorFolded, ops.ErrorStandalone:
		b.pending, b.reply, b.spawn = "", nil, ""
		if o := b.outer; o != nil { // a task turn's done: its reply open again
			b.pending, b.pendingSrc, b.reply, b.outer = o.pending, o.pendingSrc, o.reply, nil
		}
		if b.followup != "" { // an async spawn turn's done: its follow-up pending
			b.pending, b.pendingSrc, b.followup = b.followup, "task_followup", ""
		}
	case ops.Crash:
		b.pending, b.reply, b.frames, b.spawn, b.outer, b.followup = "", nil, nil, "", nil, ""
	case ops.Fn:
		b.frames = append(b.frames, frame{id: op.ID})
	case ops.Manual:
		b.frames = append(b.frames, frame{id: op.ID})
	case ops.Run:
		b.frames = append(b.frames, frame{id: op.ID})
	case ops.Exec:
		b.frames[len(b.frames)-1].lastExec = op.ID
	case ops.End:
		b.frames = b.frames[:len(b.frames)-1]
	}
}
