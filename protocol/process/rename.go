package process

import (
	"strings"

	"sessiondag/impl/node"
)

// fnCallPrefix makes a function's row id the call id of the block a reply
// records for it.
const fnCallPrefix = "call_"

// renamer maps the implementation's ids back to the script's.
type renamer map[string]string

// value is v with every string that is one of the implementation's ids
// renamed, inside the JSON text a string holds too (a tool row's extra is
// JSON text, written again as Python's json.dumps writes it when an id in
// it was renamed). Object keys are left alone: no view keys an object by
// id. It reports whether anything changed.
func (r renamer) value(v node.Value) (node.Value, bool) {
	switch v.K {
	case node.String:
		if to, ok := r[v.S]; ok {
			return node.Str(to), true
		}
		// A reply's block for a function its model called names the call
		// after the function's row (docs/protocol.md, "Ids").
		if id, ok := strings.CutPrefix(v.S, fnCallPrefix); ok {
			if to, ok := r[id]; ok {
				return node.Str(fnCallPrefix + to), true
			}
		}
		if to, ok := r.branchTail(v.S); ok {
			return node.Str(to), true
		}
		if to, ok := r.spawnedTask(v.S); ok {
			return node.Str(to), true
		}
		if len(v.S) > 1 && (v.S[0] == '{' || v.S[0] == '[') && r.mentioned(v.S) {
			if inner, err := node.ParseString(v.S); err == nil {
				if renamed, changed := r.value(inner); changed {
					return node.Str(dumpsLike(v.S, renamed)), true
				}
			}
		}
	case node.Array:
		var out []node.Value
		for i, e := range v.A {
			if e2, changed := r.value(e); changed {
				if out == nil {
					out = append([]node.Value(nil), v.A...)
				}
				out[i] = e2
			}
		}
		if out != nil {
			return node.Arr(out), true
		}
	case node.Object:
		if v.O == nil {
			return v, false
		}
		var out *node.Obj
		for i, m := range v.O.M {
			if e2, changed := r.value(m.Val); changed {
				if out == nil {
					out = v.O.Clone()
				}
				out.M[i].Val = e2
			}
		}
		if out != nil {
			return node.ObjV(out), true
		}
	}
	return v, false
}

// branchTail renames the sub-agent's reply a task tool's result names at
// its end, "[spawned agent branch=SESSION:ID]" (docs/protocol.md, "Ids").
func (r renamer) branchTail(text string) (string, bool) {
	const open = "[spawned agent branch="
	i := strings.LastIndex(text, open)
	if i < 0 || !strings.HasSuffix(text, "]") {
		return "", false
	}
	tail := text[i+len(open) : len(text)-1]
	j := strings.LastIndexByte(tail, ':')
	if j < 0 {
		return "", false
	}
	to, ok := r[tail[j+1:]]
	if !ok {
		return "", false
	}
	return text[:i+len(open)] + tail[:j+1] + to + "]", true
}

// spawnedTask renames the task id of the answer R's task tool gives an
// async call (docs/protocol.md, "Ids"): the text exactly, the id three times.
func (r renamer) spawnedTask(text string) (string, bool) {
	const open = "[task spawned async] task_id="
	rest, ok := strings.CutPrefix(text, open)
	if !ok {
		return "", false
	}
	id, _, _ := strings.Cut(rest, "\n")
	to, ok := r[id]
	if !ok || text != spawnedText(id) {
		return "", false
	}
	return spawnedText(to), true
}

func spawnedText(id string) string {
	return "[task spawned async] task_id=" + id + "\nCall await_task(task_id='" + id +
		"') to retrieve result, or cancel_task(task_id='" + id + "') to stop it."
}

// dumpsLike writes v again as the JSON text it was read from was written:
// with its defaults (ensure_ascii) when that text is all ASCII, as the
// original stores a reply's extra, else with non-ASCII kept.
func dumpsLike(text string, v node.Value) string {
	for i := 0; i < len(text); i++ {
		if text[i] >= 0x7f {
			return node.Dumps(v)
		}
	}
	return node.DumpsASCII(v)
}

// mentioned reports whether text holds one of the ids at all, which is
// cheaper to ask than to parse the text.
func (r renamer) mentioned(text string) bool {
	for from := range r {
		if strings.Contains(text, from) {
			return true
		}
	}
	return false
}
