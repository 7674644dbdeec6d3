package reconstruct

import (
	"strings"

	"sessiondag/model"
	"sessiondag/ops"
)

// taskSpawned begins the answer R's task tool gives an async call (wait=False).
const taskSpawned = "[task spawned async] task_id="

// inferTaskRunner: the task tool's row answering an async call at index
// b.i, as R's task runner writes it when nothing runs beside it: the
// sub-agent's user (under the reply) and reply, then the follow-up turn and
// its reply (ops/README.md: task … async), ROOT before the follow-up when
// there was none. Where R's threads wrote other
// rows between them the session is no op script's.
func (b *builder) inferTaskRunner(tool *Row, call string) step {
	reply := b.reply.id
	sub, subReply, fu, fuReply := b.row(b.i+1), b.row(b.i+2), b.row(b.i+3), b.row(b.i+4)
	rows := 5
	if fu != nil && fu.ID == "ROOT" {
		// The follow-up is the dispatcher's write, which creates ROOT
		// first in a session that has none yet (a web turn that wrote
		// no row: a rerun of a caller-less user).
		fu, fuReply, rows = fuReply, b.row(b.i+5), 6
	}
	switch {
	case sub == nil || sub.Role != "user" || str(sub.Meta, "source") != "agent_spawn" || str(sub.Meta, "parent_id") != reply:
		b.unexplained(tool, "", "", "an async task call's row is followed by its task runner's sub-agent user (source agent_spawn, under the reply); the next row is not one: R's runner wrote it beside other rows, which no op script writes")
		return step{}
	case subReply == nil || subReply.ID != sub.ID+"_reply":
		b.unexplained(tool, "", "", "an async task call's sub-agent user is followed by its reply; the next row is not it: R's runner wrote it beside other rows, which no op script writes")
		return step{}
	case fu == nil || fu.Role != "user" || str(fu.Meta, "source") != "task_followup":
		b.unexplained(tool, "", "", "an async task's sub-agent turn is followed by the runner's follow-up turn (source task_followup); the next row is not one: R's runner wrote it beside other rows, which no op script writes")
		return step{}
	case fuReply == nil || fuReply.ID != fu.ID+"_reply":
		b.unexplained(tool, "", "", "an async task's follow-up user is followed by its reply, answered at once; the next row is not it: R's runner wrote it beside other rows, which no op script writes")
		return step{}
	}
	id, _, _ := strings.Cut(strings.TrimPrefix(outputText(tool), taskSpawned), "\n")
	op := ops.Task{CallID: call, ID: sub.ID, Text: outputText(sub), Async: true, Followup: fu.ID, TaskID: id}
	if args := taskArgs(tool); args != nil {
		op.Text, op.Label = str(args, "prompt"), str(args, "description")
	}
	return step{op: op, rows: rows, need: needReply, caller: reply, clock: tool, call: call}
}

// taskArgs is the arguments the model passed R's task tool, as its row's
// input holds them (JSON text), or nil.
func taskArgs(tool *Row) *model.Object {
	in, ok := tool.Obj.Val("input").(string)
	if !ok {
		return nil
	}
	v, err := model.ParseJSON([]byte(in))
	if err != nil {
		return nil
	}
	args, _ := v.(*model.Object)
	return args
}
