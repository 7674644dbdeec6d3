package model

import (
	"math"
	"math/big"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// embedStats is the end of step 10 (legacy §3.5) for one chain row, done on
// the row's copy: when the row's function is "attach" and its attach (else
// its extra, a JSON string parsed) — or the attach object inside it — names
// a source_commit_id, the row's attach becomes a copy of itself with
// source_commit_id set if absent and, when the commit reads as the
// original's ContextCommit, embed_count (its items not summarized) and
// embed_tokens (their tokens). A row whose attach is a string naming a
// commit stays as it is (the original's dict() of a string raises).
func (rd *reading) embedStats(row *Object) {
	if row.Val("function") != "attach" {
		return
	}
	raw := or(row.Val("attach"), row.Val("extra"))
	if text, ok := raw.(string); ok {
		v, err := ParseJSON([]byte(text))
		if err != nil {
			return
		}
		raw = v
	}
	info, ok := raw.(*Object)
	if !ok {
		return
	}
	if inner, ok := info.Val("attach").(*Object); ok {
		info = inner
	}
	id, _ := info.Val("source_commit_id").(string)
	id = pyStrip(id)
	if id == "" {
		return
	}
	var attach *Object
	switch a := row.Val("attach"); {
	case !Truthy(a):
		attach = &Object{}
	default:
		o, ok := a.(*Object)
		if !ok {
			return
		}
		attach = o.Copy()
	}
	if !attach.Has("source_commit_id") {
		attach.Set("source_commit_id", id)
	}
	if count, tokens, ok := commitStats(rd.s.Dir, id); ok {
		attach.Set("embed_count", Int(itoa(count)))
		attach.Set("embed_tokens", Int(tokens.String()))
	}
	row.Set("attach", attach)
}

// commitStats reads context/commits/<id>.json of the session's folder as
// the original's load_commit does and counts its items whose state is not
// "summarized", with the sum of their tokens. ok is false where the
// original gets no commit: no folder, an id that is not a plain file name
// (this reader looks nowhere else), no such file, text that is not UTF-8 or
// not JSON, or a payload its constructors refuse.
func commitStats(dir, id string) (int, *big.Int, bool) {
	if dir == "" || id == "." || id == ".." || strings.ContainsAny(id, "/\\\x00") {
		return 0, nil, false
	}
	data, err := os.ReadFile(filepath.Join(dir, "context", "commits", id+".json"))
	if err != nil {
		return 0, nil, false
	}
	v, err := ParseJSON(data)
	if err != nil {
		return 0, nil, false
	}
	c, ok := v.(*Object)
	if !ok || !c.Has("id") || !c.Has("session_id") {
		return 0, nil, false
	}
	// list(parent_ids) when truthy; float(created_at or 0); int(total_tokens or 0).
	switch p := c.Val("parent_ids"); p.(type) {
	case Int, Float, bool:
		if Truthy(p) {
			return 0, nil, false
		}
	}
	if at := c.Val("created_at"); Truthy(at) && !floatable(at) {
		return 0, nil, false
	}
	if t := c.Val("total_tokens"); Truthy(t) {
		if _, ok := intOf(t); !ok {
			return 0, nil, false
		}
	}
	items := c.Val("items")
	if !Truthy(items) {
		return 0, new(big.Int), true
	}
	list, ok := items.([]any)
	if !ok {
		return 0, nil, false
	}
	count, sum := 0, new(big.Int)
	for _, e := range list {
		it, ok := e.(*Object)
		if !ok || !it.Has("source_node_id") || !it.Has("role") {
			return 0, nil, false
		}
		tokens := new(big.Int)
		if t, has := it.Get("tokens"); has {
			if tokens, ok = intOf(t); !ok {
				return 0, nil, false
			}
		}
		if it.Val("state") == "summarized" {
			continue
		}
		count++
		sum.Add(sum, tokens)
	}
	return count, sum, true
}

// intOf is Python's int(v): ints exactly, finite floats truncated, bools,
// decimal strings (ASCII digits; whitespace, one sign, underscores between
// digits). Anything else raises: ok false.
func intOf(v any) (*big.Int, bool) {
	switch x := v.(type) {
	case Int:
		return new(big.Int).SetString(string(x), 10)
	case Float:
		f := float64(x)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, false
		}
		i, _ := big.NewFloat(math.Trunc(f)).Int(nil)
		return i, true
	case bool:
		if x {
			return big.NewInt(1), true
		}
		return new(big.Int), true
	case string:
		s := pyStrip(x)
		if !pyIntText.MatchString(s) {
			return nil, false
		}
		return new(big.Int).SetString(strings.ReplaceAll(s, "_", ""), 10)
	}
	return nil, false
}

// floatable reports whether Python's float(v) succeeds: every float and
// bool, an int a double can hold, a string in float()'s syntax.
func floatable(v any) bool {
	switch x := v.(type) {
	case Float, bool:
		return true
	case Int:
		f, ok := new(big.Float).SetPrec(256).SetString(string(x))
		if !ok {
			return false
		}
		r, _ := f.Float64()
		return !math.IsInf(r, 0)
	case string:
		return pyFloatText.MatchString(pyStrip(x))
	}
	return false
}

// Python's int() and float() syntax for a stripped string, ASCII digits only.
var (
	pyIntText   = regexp.MustCompile(`^[+-]?[0-9](_?[0-9])*$`)
	pyFloatText = regexp.MustCompile(`(?i)^[+-]?(inf|infinity|nan|(([0-9](_?[0-9])*)?\.[0-9](_?[0-9])*|[0-9](_?[0-9])*\.?)(e[+-]?[0-9](_?[0-9])*)?)$`)
)
