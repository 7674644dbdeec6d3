package writer

import (
	"fmt"

	"sessiondag/impl/node"
)

// TaskRunner is the model's task tool with wait=False as R runs it
// (functions/tools/task/task.py, _task_impl; agent/task/runner.py, _run_one
// and _dispatch_followup): the tool answers at once with the task id (task,
// default t_<sub>), its row written as the turn goes on; the runner runs the
// sub-agent, its user under the reply, writes no attach pointer, sets the
// head back on the reply and dispatches the follow-up turn of R's
// instruction, answered at once as the sub-agent was. The reply stays open.
func (w *Writer) TaskRunner(callID, sub, text, label, followup, task string) error {
	if err := w.needTaskCall(); err != nil {
		return err
	}
	if err := w.needTaskRunner(callID, sub, text, label, followup); err != nil {
		return err
	}
	if task == "" {
		task = TaskID(sub)
	}
	*w.stop = false // the runner clears the cancel flag as the task starts
	r := w.reply.id
	in := node.DumpsASCII(node.ObjV(meta("prompt", node.Str(text), "description", node.Str(label),
		"context", node.Str("inherit"), "wait", node.BoolV(false))))
	result := "[task spawned async] task_id=" + task + "\nCall await_task(task_id='" + task +
		"') to retrieve result, or cancel_task(task_id='" + task + "') to stop it."
	md := meta("tool_call_id", node.Str(callID), "is_error", node.BoolV(false))
	if err := w.add(&node.Node{ID: r + "_t_" + callID, Role: node.RoleCode, Name: "task", Input: node.Str(in),
		Output: node.Str(result), CalledBy: r, Metadata: md}); err != nil {
		return err
	}
	w.recordCall(callID, "task", in, result, false)
	smd := w.subMeta(node.Str(r), false)
	w.predecessor(smd, r)
	if err := w.subTurn(sub, text, smd, false); err != nil {
		return err
	}
	prompt := text // the task's prompt, else its description
	if prompt == "" {
		prompt = label
	}
	pending, open := w.pending, w.reply
	w.pending, w.reply = nil, nil
	err := w.followupAtOnce(r, followup, runnerLabel(label, text), pyStrip(prompt))
	w.pending, w.reply = pending, open
	open.unheard = true // the runner removed the turn's cancel event as the task ended
	return err
}

// needTaskRunner refuses what R's runner does not write as the op says: a
// task of a sub-agent's or a dispatcher's turn, neither a prompt nor a label
// (R's follow-up then names the task by its id), no follow-up, ids taken.
func (w *Writer) needTaskRunner(callID, sub, text, label, followup string) error {
	switch {
	case w.pending == nil || w.pending.source != "web":
		return fmt.Errorf("%w: task async outside a web turn: what R's runner writes there is not known", ErrState)
	case followup == "":
		return fmt.Errorf("%w: task async needs a follow-up id: R's task runner writes a follow-up turn", ErrState)
	case text == "" && label == "":
		return fmt.Errorf("%w: task async needs a text or a label: R's follow-up names the task by its id otherwise", ErrState)
	}
	for _, id := range []string{w.reply.id + "_t_" + callID, sub, sub + "_reply", followup, followup + "_reply"} {
		if _, dup := w.S.Get(id); dup {
			return fmt.Errorf("%w: node id %q is already stored", ErrState, id)
		}
	}
	return nil
}

// runnerLabel is how R's follow-up names a task the task tool submitted:
// the branch label made of the description, else the description as given,
// else the prompt's first 60 characters.
func runnerLabel(description, prompt string) string {
	if l := taskLabel(description); l != "" {
		return l
	}
	if description != "" {
		return description
	}
	return prefix(prompt, 60)
}
