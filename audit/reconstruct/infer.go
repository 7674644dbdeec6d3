package reconstruct

import (
	"fmt"
	"math"
	"strings"

	"sessiondag/model"
	"sessiondag/ops"
)

// infer names the op that writes the row at index k (and the rows it
// writes with it) from the row's shape. It sets b.first when no op of the
// vocabulary writes a row of that shape.
func (b *builder) infer(r *Row) step {
	if r.ID == "ROOT" {
		return b.inferRoot(r)
	}
	switch r.Role {
	case "user":
		return b.inferUserAt(b.i, r)
	case "llm":
		return b.inferLLM(r)
	case "code":
		return b.inferCode(r)
	}
	b.unexplained(r, "", "role", fmt.Sprintf("role %q: the writers write user, llm and code rows", r.Role))
	return step{}
}

// inferRoot: ROOT is written by the op of the row after it, which creates
// it first (ensureRoot) and whose first append is ROOT: a turn, a run, a
// /spawn, a /merge, or the reply of a turn whose user row was written
// without it.
func (b *builder) inferRoot(r *Row) step {
	if b.i+1 < len(b.d.Rows) && b.d.Rows[b.i+1].Err != nil {
		b.unexplained(b.d.Rows[b.i+1], "", "", b.d.Rows[b.i+1].Err.Error())
		return step{}
	}
	next := b.row(b.i + 1)
	if next == nil {
		b.unexplained(r, "", "", "ROOT is written only with the turn, run, /spawn or /merge it is created for; no row follows it")
		return step{}
	}
	var s step
	switch next.Role {
	case "user":
		s = b.inferUserAt(b.i+1, next)
	case "llm":
		s = b.inferLLM(next)
	default:
		s = b.inferCode(next)
	}
	if b.first != nil {
		return s
	}
	switch s.op.(type) {
	// a reply creates it when a retry or an edit of an older writer's row
	// started its turn (R's process_user_turn ensures ROOT first)
	case ops.UserWeb, ops.UserDispatch, ops.ForkRoot, ops.Manual, ops.Spawn, ops.Merge, ops.Reply:
		s.rows++
		s.clock = r
		return s
	}
	b.unexplained(r, ops.Format(s.op), "", fmt.Sprintf("ROOT is created by a web or dispatcher turn (its user row or its reply), a manual run, /spawn or /merge; the row after it (%s) is written by %s, which does not create it", next.ID, s.op.Kind()))
	return step{}
}

// row is the stored row at index k, nil past the end or for a file that is
// no node.
func (b *builder) row(k int) *Row {
	if k < 0 || k >= len(b.d.Rows) || b.d.Rows[k].Err != nil {
		return nil
	}
	return b.d.Rows[k]
}

// inferUserAt: a user row at index k.
func (b *builder) inferUserAt(k int, r *Row) step {
	m, out := r.Meta, outputText(r)
	src := str(m, "source")
	switch {
	case r.CalledBy == "ROOT" && src == "web" && str(m, "function") == "task" &&
		(strings.HasPrefix(out, "/spawn ") || strings.HasPrefix(out, "/task ")):
		return b.inferSpawn(k, r, "sync")
	case r.CalledBy == "ROOT" && src == "web" && strings.HasPrefix(out, "/task --async "):
		return b.inferSpawn(k, r, "async")
	case r.CalledBy == "ROOT" && src == "web" && strings.HasPrefix(out, "/merge "):
		return b.inferMerge(k, r)
	case r.CalledBy == "ROOT" && (src == "web" || has(m, "original_content")):
		return b.inferWeb(r)
	case src == "agent_spawn":
		return b.inferTask(k, r)
	case src == "task_followup" && r.CalledBy == "" && b.followup == r.ID:
		return b.inferSpawnEnd(r) // an async spawn turn's done writes it
	case r.CalledBy == "ROOT":
		return b.inferDispatch(r, true)
	case r.CalledBy == "" && has(m, "forked_from"):
		return b.inferRerun(r)
	case r.CalledBy == "" && str(m, "function") == "attach":
		return b.llmMessage(r) // an attach pointer handed to the adapter with a user's role
	case r.CalledBy == "" && question(r) != "":
		return step{op: ops.Script{What: "ask", ID: r.ID}, rows: 1, need: needIdle, clock: r}
	case r.CalledBy == "" && has(m, "source") && !has(m, "parent_id") && !has(m, "agent_id") && !has(m, "peer_id"):
		// no dispatcher's (which records its parent, agent and peer): a
		// channel's or an importer's message with a source of its own
		if s, ok := b.messageRow(r); ok {
			return s
		}
		return b.inferDispatch(r, false)
	case r.CalledBy == "" && (has(m, "source") || has(m, "agent_id") || has(m, "peer_id")):
		if k == b.i && b.leg.Node("ROOT") == nil {
			// a dispatcher writes ROOT before its first turn: a row with
			// none before it (not the row after a ROOT) was handed to the
			// adapter (a test's, an importer's)
			if s, ok := b.messageRow(r); ok {
				return s
			}
		}
		return b.inferDispatch(r, false)
	case r.CalledBy == "":
		return b.inferLegacyUser(r)
	case question(r) != "" || has(r.Obj, "input") && isObject(r.Obj.Val("input")):
		declined := r.Obj.Val("output") == nil // a rejected question stores None
		return step{op: ops.Ask{ID: r.ID, Question: question(r), Answer: out, Declined: declined}, rows: 1, need: needFrame, caller: r.CalledBy, clock: r}
	}
	b.unexplained(r, "", "called_by", fmt.Sprintf("a user row called by %q that is no ask_user question: no op writes one", r.CalledBy))
	return step{}
}

// inferWeb: a web turn typed in the browser (its form from its metadata).
func (b *builder) inferWeb(r *Row) step {
	form := ""
	switch {
	case has(r.Meta, "original_content"):
		form = "function"
	case has(r.Meta, "extra"):
		form = "image"
	}
	return step{op: ops.UserWeb{ID: r.ID, Text: outputText(r), Form: form}, rows: 1, need: needIdle, web: r, clock: r}
}

// inferDispatch: a dispatcher turn, as R writes it (caller-less) or as the
// older direct write stored it (called by ROOT). Its parent is decided in
// prepare, once the turns before it ended.
func (b *builder) inferDispatch(r *Row, rooted bool) step {
	src := str(r.Meta, "source")
	if src != "task_followup" && src != "merge_turn" {
		src = "" // cli, or a channel's name the op language does not carry (gaps.go)
	}
	p := &parentRec{}
	if v, ok := r.Meta.Get("parent_id"); ok {
		p.present = true
		switch v := v.(type) {
		case nil:
			p.null = true
		case string:
			p.id = v
		default:
			b.unexplained(r, "", "metadata.parent_id", "a dispatcher turn's parent_id is an id or null")
			return step{}
		}
	}
	op := ops.UserDispatch{ID: r.ID, Text: outputText(r), Source: src, Rooted: rooted}
	return step{op: op, rows: 1, need: needIdle, clock: r, parent: p}
}

// inferRerun: a retry (the turn's text copied) or an edit (edit_of); with
// the web source, the older writers' rerun.
func (b *builder) inferRerun(r *Row) step {
	u, web := str(r.Meta, "forked_from"), has(r.Meta, "source")
	if has(r.Meta, "edit_of") {
		return step{op: ops.Edit{Of: u, ID: r.ID, Text: outputText(r), Web: web}, rows: 1, need: needIdle, clock: r}
	}
	return step{op: ops.Retry{Of: u, ID: r.ID, Web: web}, rows: 1, need: needIdle, clock: r}
}

// inferLegacyUser: a user row written through append_message: by a
// legacy-user op when it records no key but its parent_id, else by a
// message op.
func (b *builder) inferLegacyUser(r *Row) step {
	if !keysAre(r, nil, []string{"parent_id"}) {
		if s, ok := b.messageRow(r); ok {
			return s
		}
	}
	parent := ""
	if v, ok := r.Meta.Get("parent_id"); ok {
		switch v := v.(type) {
		case nil:
			parent = "null"
		case string:
			parent = v
		}
	}
	return step{op: ops.LegacyUser{ID: r.ID, Text: outputText(r), Parent: parent}, rows: 1, need: needIdle, clock: r}
}

// inferLLM: an llm row.
func (b *builder) inferLLM(r *Row) step {
	m := r.Meta
	switch {
	case r.CalledBy != "" && r.ID == r.CalledBy+"_reply" && !has(m, "prompt_text"):
		return step{op: ops.Reply{}, rows: 1, need: needTurn, caller: r.CalledBy, clock: r}
	case str(m, "type") == "compactionSummary":
		return b.inferCompact(r)
	case r.CalledBy == "" && str(m, "role") == "system" && !keysAre(r, []string{"role", "parent_id", "trace"}, []string{"role", "parent_id"}):
		return b.llmMessage(r) // a system message handed to the adapter
	case r.CalledBy == "" && str(m, "role") == "system":
		typ, msg := errorParts(outputText(r))
		return step{op: ops.ErrorStandalone{ID: r.ID, Type: typ, Msg: msg}, rows: 1, need: needTurn,
			caller: str(m, "parent_id"), clock: r}
	case r.CalledBy != "" && has(m, "prompt_text"):
		op := ops.Exec{ID: r.ID, Prompt: str(m, "prompt_text"), Reply: outputText(r)}
		return step{op: op, rows: 1, need: needFrame, caller: r.CalledBy, clock: r}
	case has(m, "attach") && b.spawn != "" && b.attachOf[b.spawn+"_reply"] == b.i+1:
		return b.inferSpawnEnd(r)
	case has(m, "attach"):
		if s, ok := b.messageRow(r); ok {
			return s // an attach pointer handed to the adapter as a dict (a test's, a merge's)
		}
		b.unexplained(r, "", "", "an attach pointer is written by /spawn or a reply's task call, after its sub-agent's reply, or handed to the message adapter; none precedes it here, and no dict becomes it")
		return step{}
	case r.CalledBy == "" && has(m, "parent_id") && !keysAre(r, []string{"parent_id"}, []string{"parent_id", "tool_calls", "blocks"}):
		return b.llmMessage(r)
	case r.CalledBy == "" && has(m, "parent_id"):
		op := ops.LegacyReply{ID: r.ID, Text: outputText(r), Parent: str(m, "parent_id"),
			Blocks: has(m, "blocks") || has(m, "tool_calls")}
		return step{op: op, rows: 1, need: needIdle, clock: r}
	case r.CalledBy == "" && keysAre(r, []string{"status"}, []string{"status", "prompt_text"}):
		return step{op: ops.Script{What: "exec", ID: r.ID, Prompt: str(m, "prompt_text")}, rows: 1, need: needIdle, clock: r}
	case r.CalledBy == "":
		return b.llmMessage(r)
	}
	if s, ok := b.messageRow(r); ok {
		return s // a reply with a caller handed to the adapter (a side row)
	}
	b.unexplained(r, "", "called_by", fmt.Sprintf("an llm row called by %q that is neither a reply (its id %s_reply), a function's model call (prompt_text) nor a message the adapter makes", r.CalledBy, r.CalledBy))
	return step{}
}

// llmMessage: a caller-less llm row of no shape a specialized op writes,
// which a message op explains or no op does.
func (b *builder) llmMessage(r *Row) step {
	if s, ok := b.messageRow(r); ok {
		return s
	}
	b.unexplained(r, "", "metadata", "a caller-less llm row whose metadata is neither a legacy reply's, a standalone error's nor a script's model call's, and which no message dict becomes")
	return step{}
}

// inferCompact: the summary and the copies of the kept rows, chained from
// it by parent_id, each stored at the created_at of a row before the summary
// (the row it copies keeps its own); their ids as stored (the original draws
// "k_" and ten hex digits), or S_k1, … as the op language derives them.
func (b *builder) inferCompact(r *Row) step {
	var copies []string
	derived := true
	prev := r.ID
	for next := b.row(b.i + 1); next != nil; next = b.row(b.i + 1 + len(copies)) {
		at := b.byTime[jsonText(next.Obj.Val("created_at"))] - 1
		if str(next.Meta, "parent_id") != prev || at < 0 || at >= b.i || next.Role != "user" && next.Role != "llm" {
			break
		}
		copies = append(copies, next.ID)
		derived = derived && next.ID == fmt.Sprintf("%s_k%d", r.ID, len(copies))
		prev = next.ID
	}
	op := ops.Compact{ID: r.ID, Keep: fmt.Sprint(len(copies))}
	if !derived {
		op.Copies = strings.Join(copies, ",")
	}
	s := step{op: op, rows: 1 + len(copies), need: needIdle}
	// The branch compacted ends at the head: the row the last copy copies,
	// whose created_at the copy keeps.
	if last := b.row(b.i + len(copies)); len(copies) > 0 && last != nil {
		if at := b.byTime[jsonText(last.Obj.Val("created_at"))] - 1; at >= 0 && at < b.i {
			s.head = b.d.Rows[at].ID
		}
	}
	return s
}

// inferCode: a code row: a tool row, a function run, a script's function or
// an orphan.
func (b *builder) inferCode(r *Row) step {
	m := r.Meta
	in, _ := r.Obj.Val("input").(*model.Object)
	caller := r.CalledBy
	if caller == "" {
		caller = str(m, "called_by") // a legacy tool edge
	}
	call := str(m, "tool_call_id")
	switch {
	case in != nil && in.Has("runtime"):
		return b.inferFunction(r, in)
	case call != "" && caller != "" && r.ID == caller+"_t_"+call:
		return b.inferTool(r, caller, call)
	case r.CalledBy == "" && has(m, "expose") && str(m, "status") == "running" && in != nil:
		return b.inferFunction(r, in) // a run the session stopped in: a script's function completes
	case r.CalledBy == "" && has(m, "expose"):
		return step{op: ops.Script{What: "fn", ID: r.ID, Name: r.Name}, rows: 1, need: needIdle, clock: r}
	case has(m, "tool_call_id") && keysAre(r, []string{"tool_call_id", "is_error"}) && call == r.ID && isEmptyObject(in):
		return step{op: ops.Orphan{ID: r.ID, Name: r.Name, Caller: r.CalledBy}, rows: 1, need: needIdle, clock: r}
	}
	if s, ok := b.messageRow(r); ok {
		return s // a tool message of its own shape handed to the adapter
	}
	b.unexplained(r, "", "", "a code row that is no tool row (id R_t_C of its reply), function run (input with runtime), script function, orphan tool row or message the adapter makes")
	return step{}
}

func isEmptyObject(o *model.Object) bool { return o != nil && len(o.Fields) == 0 }

// inferFunction: a function run, by its caller: the Run button (ROOT), a
// script in a session context (none), else the model or a function.
func (b *builder) inferFunction(r *Row, in *model.Object) step {
	args := in.Copy()
	args.Fields = args.Fields[:0]
	for _, f := range in.Fields {
		if f.Key != "runtime" {
			args.Fields = append(args.Fields, f)
		}
	}
	text := jsonText(args)
	expose := str(r.Meta, "expose")
	if expose == "io" {
		expose = ""
	}
	switch r.CalledBy {
	case "ROOT":
		return step{op: ops.Manual{ID: r.ID, Name: r.Name, Args: text, Expose: expose}, rows: 1, need: needIdle, clock: r}
	case "":
		return step{op: ops.Run{ID: r.ID, Name: r.Name, Args: text, Expose: expose}, rows: 1, need: needIdle, clock: r}
	}
	s := step{op: ops.Fn{ID: r.ID, Name: r.Name, Args: text, Expose: expose}, rows: 1, need: needFrame, caller: r.CalledBy, clock: r}
	if b.reply != nil && r.CalledBy == b.reply.id {
		s.call = fnCall(r.ID) // the reply's blocks record it when it ends: those before it come first
	}
	return s
}

// fnCallPrefix makes a function's row id the tool call id of the block a
// reply records for a function its model called (R's dispatcher names the
// call after the function's row).
const fnCallPrefix = "call_"

func fnCall(id string) string { return fnCallPrefix + id }

// inferTool: a tool row of the reply caller.
func (b *builder) inferTool(r *Row, reply, call string) step {
	if r.Name == "task" && b.reply != nil && b.reply.id == reply {
		if strings.HasPrefix(outputText(r), taskSpawned) && b.row(b.i) == r {
			return b.inferTaskRunner(r, call)
		}
		b.unexplained(r, "", "", "a task tool row is written by the reply's task call after its sub-agent's rows; none precede it")
		return step{}
	}
	op := ops.Tool{CallID: call, Name: r.Name, Result: outputText(r), Error: model.Truthy(r.Meta.Val("is_error")),
		Legacy: r.CalledBy == ""}
	switch in := r.Obj.Val("input").(type) {
	case string:
		op.Args = in
	case *model.Object:
		op.Args, op.Object = jsonText(in), true
	default:
		b.unexplained(r, "", "input", "a tool row's input is the arguments' JSON text or object")
		return step{}
	}
	return step{op: op, rows: 1, need: needReply, caller: reply, clock: r, call: call}
}

// outputText is the row's output when it is a string ("" otherwise: the
// comparison then names the field).
func outputText(r *Row) string { s, _ := r.Obj.Val("output").(string); return s }

// question is an ask row's question ("" if the input holds none).
func question(r *Row) string {
	in, _ := r.Obj.Val("input").(*model.Object)
	return str(in, "question")
}

func isObject(v any) bool { o, ok := v.(*model.Object); return ok && o != nil }

// errorParts splits "[error] T: M" into T and M.
func errorParts(out string) (string, string) {
	out = strings.TrimPrefix(out, "[error] ")
	typ, msg, _ := strings.Cut(out, ": ")
	return typ, msg
}

// jsonText is v as JSON text (keys in order, numbers as Python writes them,
// NaN and the infinities too: json.dumps writes them, and an op's value
// that holds one is written so).
func jsonText(v any) string {
	b, err := appendText(nil, v)
	if err != nil {
		return ""
	}
	return string(b)
}

func appendText(b []byte, v any) ([]byte, error) {
	var err error
	switch x := v.(type) {
	case model.Float:
		switch f := float64(x); {
		case math.IsNaN(f):
			return append(b, "NaN"...), nil
		case math.IsInf(f, 1):
			return append(b, "Infinity"...), nil
		case math.IsInf(f, -1):
			return append(b, "-Infinity"...), nil
		}
	case []any:
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(b, ',')
			}
			if b, err = appendText(b, e); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	case *model.Object:
		if x == nil {
			break
		}
		b = append(b, '{')
		for i, f := range x.Fields {
			if i > 0 {
				b = append(b, ',')
			}
			if b, err = model.AppendJSON(b, f.Key); err != nil {
				return nil, err
			}
			b = append(b, ':')
			if b, err = appendText(b, f.Val); err != nil {
				return nil, err
			}
		}
		return append(b, '}'), nil
	}
	return model.AppendJSON(b, v)
}
