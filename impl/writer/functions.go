package writer

import (
	"fmt"
	"math"

	"sessiondag/impl/node"
)

// Fn enters an @agentic_function called by the model: from the open reply,
// or nested in the innermost running function (from its exec call's tool
// loop when viaExec).
func (w *Writer) Fn(id, name, args, expose string, viaExec bool) error {
	if err := w.recursionGuard(name); err != nil {
		return err
	}
	caller := ""
	switch {
	case len(w.frames) > 0:
		f := w.frames[len(w.frames)-1]
		caller = f.id
		if viaExec {
			if f.lastExec == "" {
				return fmt.Errorf("%w: fn via-exec needs an exec call in the running function", ErrState)
			}
			caller = f.lastExec
		}
	case w.reply != nil:
		if viaExec {
			return fmt.Errorf("%w: fn via-exec needs a running function", ErrState)
		}
		if err := w.needLiveStream("fn"); err != nil {
			return err
		}
		if err := w.enter(id, name, args, expose, w.reply.id, false); err != nil {
			return err
		}
		in, _ := parseArgs("function args", args) // enter parsed it
		f := w.frames[len(w.frames)-1]
		f.call, f.input = name, node.DumpsASCII(node.ObjV(in))
		return nil
	default:
		return fmt.Errorf("%w: fn needs an open reply or a running function", ErrState)
	}
	return w.enter(id, name, args, expose, caller, false)
}

// maxNesting is R's recursion guard: a function called while as many runs
// of its name are open raises RecursionError in its caller's body, after
// its row is appended and before its body runs.
const maxNesting = 5

// recursionGuard refuses a run R's recursion guard stops: what is written
// then depends on whether the caller's code catches the error.
func (w *Writer) recursionGuard(name string) error {
	n := 0
	for _, f := range w.frames {
		if f.name == name {
			n++
		}
	}
	if n >= maxNesting {
		return fmt.Errorf("%w: %s runs %d times already (R's recursion guard allows %d nested runs of one name)", ErrState, name, n, maxNesting)
	}
	return nil
}

// Manual runs a function from the UI's Run button: called by ROOT.
func (w *Writer) Manual(id, name, args, expose string) error {
	if err := w.needIdle("manual"); err != nil {
		return err
	}
	w.conversation() // the fn-form route gets the conversation first
	if err := w.ensureRoot(); err != nil {
		return err
	}
	// R's fn-form route updates the session's title before the run: that
	// meta write persists the in-memory head (ROOT on a fresh session).
	if err := w.S.WriteMeta(); err != nil {
		return err
	}
	return w.enter(id, name, args, expose, node.RootID, true)
}

// Run is a function run of a script in a session context (legacy §6 #34):
// caller-less, so its append moves the head; nothing writes meta.
func (w *Writer) Run(id, name, args, expose string) error {
	if err := w.needIdle("run"); err != nil {
		return err
	}
	return w.enter(id, name, args, expose, "", false)
}

func (w *Writer) enter(id, name, args, expose, caller string, manual bool) error {
	in, err := parseArgs("function args", args)
	if err != nil {
		return err
	}
	in = in.CloneCap(1)
	in.Set("runtime", node.Str("<Runtime>"))
	if expose == "" {
		expose = "io"
	}
	md := meta("expose", node.Str(expose), "status", node.Str("running"))
	if caller == "" || caller == node.RootID { // a top-level run is a conversation row
		w.predecessor(md, w.storeAnchor())
	}
	if err := w.add(&node.Node{ID: id, Role: node.RoleCode, Name: name, Input: node.ObjV(in), Output: node.NullV(), CalledBy: caller, Metadata: md}); err != nil {
		return err
	}
	w.frames = append(w.frames, &frame{id: id, name: name, manual: manual})
	return nil
}

// Exec is one internal model call of the innermost running function.
func (w *Writer) Exec(id, prompt, reply string) error {
	f, err := w.needFrame("exec")
	if err != nil {
		return err
	}
	md := meta("status", node.Str("completed"), "prompt_text", node.Str(prompt))
	in := node.NullV() // R's runtime.exec stores no input: the prompt is in prompt_text
	if err := w.add(&node.Node{ID: id, Role: node.RoleLLM, Name: "model-x", Input: in, Output: node.Str(reply), CalledBy: f.id, Metadata: md}); err != nil {
		return err
	}
	f.lastExec = id
	return nil
}

// Ask records an ask_user question of the innermost running function.
// A declined question (the user rejected it) stores a null output.
func (w *Writer) Ask(id, question, answer string, declined bool) error {
	f, err := w.needFrame("ask")
	if err != nil {
		return err
	}
	if declined && answer != "" {
		return fmt.Errorf("%w: ask %s declined with an answer", ErrState, id)
	}
	status := "answered"
	if answer == "" {
		status = "unanswered"
	}
	out := node.Str(answer)
	if declined {
		out = node.NullV()
	}
	in := node.ObjV(meta("question", node.Str(question)))
	return w.add(&node.Node{ID: id, Role: node.RoleUser, Input: in, Output: out, CalledBy: f.id, Metadata: meta("status", node.Str(status))})
}

// End leaves the innermost running function with a JSON output, or with an
// error when errMsg is set, after half a second. A manual run then becomes
// the head.
func (w *Writer) End(output, errMsg string) error { return w.EndAfter(output, errMsg, 0.5) }

// EndAfter is End for a run that took seconds (duration_seconds, a float).
func (w *Writer) EndAfter(output, errMsg string, seconds float64) error {
	if math.IsNaN(seconds) || math.IsInf(seconds, 0) {
		return fmt.Errorf("%w: duration %v is not a number of seconds", ErrState, seconds)
	}
	f, err := w.needFrame("end")
	if err != nil {
		return err
	}
	out := node.NullV()
	status := "completed"
	if errMsg != "" {
		out = node.ObjV(meta("error", node.Str(errMsg)))
		status = "error"
	} else if output != "" {
		v, err := node.ParseString(output)
		if err != nil {
			return fmt.Errorf("end output: %w", err)
		}
		out = v
	}
	err = w.S.Update(f.id, func(n *node.Node) {
		n.Output = out
		n.Metadata.Update(meta("status", node.Str(status), "duration_seconds", node.Num(pyFloat(seconds))))
	})
	if err != nil {
		return err
	}
	w.frames = w.frames[:len(w.frames)-1]
	if f.manual {
		// the forced-tool path clears the cancel flag as the run ends; the
		// fn-form route that ran it saves no model (webui/routes/chat.py)
		*w.stop = false
	}
	if f.call != "" {
		// R keeps a function the model called among the reply's blocks,
		// not its slim tool_calls: call id "call_" + its id, its result the
		// text of what it returned, an error as "Type: message".
		w.reply.blocks = append(w.reply.blocks, node.ObjV(meta("type", node.Str("tool"), "tool", node.Str(f.call),
			"tool_call_id", node.Str("call_"+f.id), "input", node.Str(f.input), "result", node.Str(fnResult(out, errMsg)),
			"is_error", node.BoolV(false))))
	}
	// R moves the head to a manual run only when it returned: its
	// subprocess reports no row for a run that raised.
	if f.manual && errMsg == "" {
		return w.S.SetHead(f.id)
	}
	return nil
}

// fnResult is the text of what a function the model called returned, as R
// records it in the reply's tool block (agentic_programming/function.py,
// _normalize_result): a string as it is, nothing as an empty tool result,
// anything else as its JSON text; an error as the adapter's function
// raised it, RuntimeError(message).
func fnResult(out node.Value, errMsg string) string {
	switch {
	case errMsg != "":
		return "RuntimeError: " + errMsg
	case out.K == node.Null:
		return resultText("", false)
	case out.K == node.String:
		return resultText(out.S, false)
	}
	return node.Dumps(out)
}
