package reconstruct

import (
	"fmt"
	"strings"

	"sessiondag/model"
	"sessiondag/ops"
)

// Ending what is in progress as the stored rows show it ended: a function's
// row holds its end (status, output, duration), a reply's row its finish
// (status, the blocks it streamed, its error). A row still "running" in the
// data never ended: the process died (crash).

// closeAll ends every function, the reply and the pending turn before a
// turn op.
func (b *builder) closeAll() {
	for len(b.frames) > 0 && b.first == nil {
		if b.status(b.frames[len(b.frames)-1].id) == "running" {
			b.apply(ops.Crash{})
			return
		}
		b.endFrame()
	}
	if b.first != nil {
		return
	}
	if b.reply != nil && b.followup != "" && b.reply.id == b.spawn+"_reply" && b.status(b.reply.id) != "running" {
		// the done of an async spawn's sub-agent turn writes the follow-up
		// next; a row before it is no row the op language puts there
		b.unexplained(b.current(), "", "", fmt.Sprintf("the async task's follow-up turn (%s) is not the next row: R's task runner writes it in a thread of its own, here beside the turns after it (or never), and the op language's async spawn turn writes it as the sub-agent's turn ends", b.followup))
		return
	}
	if b.reply != nil {
		b.finishReply(true)
		return
	}
	if b.pending != "" {
		b.apply(ops.Crash{}) // a turn that never got its reply
	}
}

// closeFrames ends the open functions above the first n, inside a turn
// or run that goes on: none of them may be left running.
func (b *builder) closeFrames(n int) {
	for len(b.frames) > n && b.first == nil {
		f := b.frames[len(b.frames)-1]
		if b.status(f.id) == "running" {
			b.unexplained(b.current(), "", "", fmt.Sprintf("function %s is still running in the data, but this row belongs to its caller: only a crash leaves a function running, and it ends its caller too", f.id))
			return
		}
		b.endFrame()
	}
}

// status is the stored final status of the row with this id.
func (b *builder) status(id string) string {
	if r := b.byID[id]; r != nil {
		return str(r.Meta, "status")
	}
	return ""
}

// endFrame ends the innermost function as its row shows.
func (b *builder) endFrame() {
	f := b.frames[len(b.frames)-1]
	r := b.byID[f.id]
	op := ops.End{}
	switch d := r.Meta.Val("duration_seconds").(type) {
	case model.Float, model.Int:
		op.Duration = jsonText(d)
	}
	out := r.Obj.Val("output")
	if o, ok := out.(*model.Object); ok && str(r.Meta, "status") == "error" && len(o.Fields) == 1 && str(o, "error") != "" {
		op.Error = str(o, "error")
	} else if out != nil {
		op.Output = jsonText(out)
	}
	b.apply(op)
}

// finishReply ends the open reply as its row shows; a reply still running
// is ended by a crash only when crash is set (a turn op comes next).
func (b *builder) finishReply(crash bool) {
	r := b.byID[b.reply.id]
	switch st := str(r.Meta, "status"); st {
	case "completed", "cancelled":
		b.flushBlocks()
		if st == "completed" {
			b.apply(ops.Done{})
		} else {
			b.apply(ops.Cancel{})
		}
	case "error":
		b.apply(ops.ErrorFolded{Type: str(r.Meta, "error_type"), Msg: str(r.Meta, "error")})
	case "running":
		if crash {
			b.apply(ops.Crash{})
		}
	default:
		b.unexplained(r, "", "metadata.status", fmt.Sprintf("a reply ends completed, cancelled, error or (its process dead) running; it is %q", st))
	}
}

// blocksOf are the blocks a reply's row recorded in its extra.
func blocksOf(r *Row) []*model.Object {
	v, err := model.ParseJSON([]byte(str(r.Meta, "extra")))
	if err != nil {
		return nil
	}
	o, _ := v.(*model.Object)
	list, _ := o.Val("blocks").([]any)
	var out []*model.Object
	for _, x := range list {
		if bo, ok := x.(*model.Object); ok {
			out = append(out, bo)
		}
	}
	return out
}

// blocksUntil streams the reply's blocks before the tool block of call,
// which the op then writes.
func (b *builder) blocksUntil(call string) {
	if b.reply == nil {
		return
	}
	for len(b.reply.blocks) > 0 && b.first == nil {
		bl := b.reply.blocks[0]
		if str(bl, "type") == "tool" {
			c := str(bl, "tool_call_id")
			if c != call && b.ownsBlock(c) && b.leg.Node(b.reply.id+"_t_"+c) == nil {
				return // its own op writes it later
			}
			b.reply.blocks = b.reply.blocks[1:] // this call's, or one no op records
			if c == call {
				return
			}
			continue
		}
		b.reply.blocks = b.reply.blocks[1:]
		b.streamBlock(bl)
	}
}

// ownsBlock reports whether an op of a row below the open reply writes the
// tool block of call: its tool row's, or a function's its model called.
func (b *builder) ownsBlock(call string) bool {
	if b.byID[b.reply.id+"_t_"+call] != nil {
		return true
	}
	id, ok := strings.CutPrefix(call, fnCallPrefix)
	r := b.byID[id]
	return ok && r != nil && r.Role == "code" && r.CalledBy == b.reply.id
}

// flushBlocks streams the blocks left before the reply ends (a tool block
// with no tool row left is for the comparison to name).
func (b *builder) flushBlocks() {
	for _, bl := range b.reply.blocks {
		if str(bl, "type") != "tool" && b.first == nil {
			b.streamBlock(bl)
		}
	}
	b.reply.blocks = nil
}

func (b *builder) streamBlock(bl *model.Object) {
	switch str(bl, "type") {
	case "thinking":
		b.apply(ops.Think{Text: str(bl, "text")})
	case "text":
		b.apply(ops.Say{Text: str(bl, "text")})
	}
}
