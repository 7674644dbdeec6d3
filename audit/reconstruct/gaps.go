package reconstruct

import (
	"maps"
	"strings"

	"sessiondag/model"
)

// The values the op language does not carry. An op says what a user or the
// system did; the original also stores what it takes from the world and
// from code the op language does not model: when (timing), how much (token
// usage), which process, model and runtime (process), which chat channel
// (channel), which files a revert restored (revert), the JSON text of a
// value the writers encode otherwise (encoding), a reply's blocks for calls
// no op records and texts the ops derive otherwise (content), the session's
// own settings in meta.json (meta), the context commit an attach row names
// (context: namesCommit). No op writes them, and no reader places
// a row by them: a reconstruction that differs only in them is one up to
// gaps, and the implementation must then load the stored and the replayed
// data to the same chains under every config (loads.go), which holds the
// claim that no reader follows them.

// Gap classes.
const (
	gapTiming   = "timing"
	gapUsage    = "usage"
	gapProcess  = "process"
	gapChannel  = "channel"
	gapRevert   = "revert"
	gapEncoding = "encoding"
	gapContent  = "content"
	gapMeta     = "meta"
	gapContext  = "context"
)

// byKey are the metadata keys (and node fields) of each class that holds
// whatever value it holds.
var byKey = map[string]string{
	"created_at": gapTiming, "started_at": gapTiming, "completed_at": gapTiming, "rewound_at": gapTiming,
	"reverted_at": gapTiming, "duration_seconds": gapTiming,
	"input_tokens": gapUsage, "output_tokens": gapUsage, "cache_read_tokens": gapUsage,
	"cache_write_tokens": gapUsage, "token_source": gapUsage,
	"worker_id": gapProcess, "agent_id": gapProcess, "model": gapProcess, "provider": gapProcess,
	"token_model": gapProcess, "trace": gapProcess, "doc": gapProcess, "input.runtime": gapProcess,
	"peer_display": gapChannel, "peer_id": gapChannel,
	"reverted": gapRevert, "reverted_paths": gapRevert,
}

// gapClass is the class of a field no op carries, "" for a field an op
// writes (a difference there leaves the row unexplained).
func gapClass(r *Row, field, stored, written string) string {
	key := strings.TrimPrefix(field, "metadata.")
	if c := byKey[key]; c != "" {
		return c
	}
	switch {
	case key == "source":
		if sourceClass(value(stored)) == sourceClass(value(written)) || r.Role != "user" {
			return gapChannel // a channel's name, a row's that is no user's
		}
	case r.Role == "llm" && (field == "name" || field == "input" && has(r.Meta, "prompt_text")):
		return gapProcess // a model's name; a function's model call's system prompt
	case isScriptRow(r) && (field == "output" || strings.HasPrefix(field, "input")):
		return gapContent // a script row's question, arguments, answer or result: the script op writes fixed ones
	case field == "input" || key == "extra":
		if sameJSONText(stored, written) {
			return gapEncoding
		}
		if key == "extra" && sameCalls(stored, written) {
			return gapContent // the blocks: their texts (what a function the model called returned, an error)
		}
	case key == "blocks" && r.Role == "llm" && sameBlockKinds(stored, written):
		// a compaction's copy of a reply holds its extra's blocks as its
		// own metadata: their texts and order, as for extra above
		return gapContent
	case field == "output" && (r.Role == "llm" && has(r.Meta, "status") && !has(r.Meta, "prompt_text") || isCommand(r) ||
		str(r.Meta, "role") == "system"):
		return gapContent // a reply's text other than its streamed blocks joined; a command's text; an error's message
	}
	return ""
}

// value parses a field's JSON (nil for "(absent)").
func value(text string) any {
	v, err := model.ParseJSON([]byte(text))
	if err != nil {
		return nil
	}
	return v
}

// sameJSONText reports whether two string fields hold JSON texts of one
// value (the original escapes what the writers write as it is).
func sameJSONText(stored, written string) bool {
	s, ok1 := value(stored).(string)
	w, ok2 := value(written).(string)
	if !ok1 || !ok2 || s == w {
		return false
	}
	sv, err1 := model.ParseJSON([]byte(s))
	wv, err2 := model.ParseJSON([]byte(w))
	return err1 == nil && err2 == nil && jsonText(sv) == jsonText(wv)
}

// sameCalls reports whether two extras record the same tool calls, by id
// (what the load folds into a reply), whatever their blocks and texts.
func sameCalls(stored, written string) bool {
	calls := func(text string) (string, bool) {
		s, ok := value(text).(string)
		if !ok {
			return "", false
		}
		v, err := model.ParseJSON([]byte(s))
		o, _ := v.(*model.Object)
		if err != nil || o == nil {
			return "", false
		}
		list, _ := o.Val("tool_calls").([]any)
		ids := make([]any, 0, len(list))
		for _, c := range list {
			cm, _ := c.(*model.Object)
			ids = append(ids, cm.Val("tool_call_id"))
		}
		return jsonText(ids), true
	}
	s, ok1 := calls(stored)
	w, ok2 := calls(written)
	return ok1 && ok2 && s == w
}

// namesCommit reports whether an attach row's attach differs from the
// written one only in its source_commit_id, which names a context commit the
// folder holds where the writers write null: the context renderer, switched
// on, records the commit its sub-agent's branch ended on (a value from code
// the op language does not model, as the cold check's folder edit commits
// writes it).
func namesCommit(dir *Dir, field, stored, written string) bool {
	if field != "metadata.attach" {
		return false
	}
	s, _ := value(stored).(*model.Object)
	w, _ := value(written).(*model.Object)
	if s == nil || w == nil || !dir.Commits[s.Str("source_commit_id")] || w.Val("source_commit_id") != nil {
		return false
	}
	s, w = s.Copy(), w.Copy()
	s.Set("source_commit_id", nil)
	return jsonText(s) == jsonText(w)
}

// sameBlockKinds reports whether two block lists hold as many blocks of
// each type.
func sameBlockKinds(stored, written string) bool {
	kinds := func(text string) (map[string]int, bool) {
		list, ok := value(text).([]any)
		if !ok {
			return nil, false
		}
		n := map[string]int{}
		for _, b := range list {
			o, _ := b.(*model.Object)
			if o == nil {
				return nil, false
			}
			n[o.Str("type")]++
		}
		return n, true
	}
	s, ok1 := kinds(stored)
	w, ok2 := kinds(written)
	return ok1 && ok2 && maps.Equal(s, w)
}

// isCommand: a /spawn, /task or /merge command row (its text is the
// command as typed, which the op language writes from the sub-agent's or the
// merge's text), or a compaction's copy of one (its message's caller ROOT).
func isCommand(r *Row) bool {
	out := str(r.Obj, "output")
	return (r.CalledBy == "ROOT" || str(r.Meta, "caller") == "ROOT") && str(r.Meta, "source") == "web" &&
		(strings.HasPrefix(out, "/merge ") || strings.HasPrefix(out, "/task ") || strings.HasPrefix(out, "/spawn "))
}

// isScriptRow: a caller-less row of a script session (no parent, a status):
// a function, a model call or an ask_user answer.
func isScriptRow(r *Row) bool {
	return r.CalledBy == "" && has(r.Meta, "status") && !has(r.Meta, "parent_id") && !has(r.Meta, "role")
}
