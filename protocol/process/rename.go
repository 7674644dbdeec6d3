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
		// A task turn's tool row names the branch its sub-agent answered on
		// after the answer (ops/README.md: task … turn).
		if head, id, ok := branchMention(v.S); ok {
			if to, ok := r[id]; ok {
				return node.Str(head + to + "]"), true
			}
		}
		if len(v.S) > 1 && (v.S[0] == '{' || v.S[0] == '[') && r.mentioned(v.S) {
			if inner, err := node.ParseString(v.S); err == nil {
				if renamed, changed := r.value(inner); changed {
					return node.Str(node.Dumps(renamed)), true
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

// branchMark starts the branch a task's tool result names last:
// "[spawned agent branch=<session>:<reply id>]".
const branchMark = "[spawned agent branch="

// branchMention splits text that ends naming a branch into what comes
// before the reply id and the id.
func branchMention(text string) (head, id string, ok bool) {
	i := strings.LastIndex(text, branchMark)
	if i < 0 || !strings.HasSuffix(text, "]") {
		return "", "", false
	}
	j := strings.LastIndex(text[:len(text)-1], ":")
	if j < i+len(branchMark) {
		return "", "", false
	}
	return text[:j+1], text[j+1 : len(text)-1], true
}
