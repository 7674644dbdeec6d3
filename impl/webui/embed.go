package webui

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode"

	"sessiondag/impl/adapter"
	"sessiondag/impl/node"
	"sessiondag/impl/store"
)

// withEmbedStats is the last part of step 10 (legacy §3.5): a chain row
// whose function is "attach" and whose attach names a source commit gets
// its attach object rebuilt — a copy, source_commit_id set if absent, and
// embed_count and embed_tokens when the commit is stored in the session's
// folder and reads as the original reads it. The original raises on an
// attach that is a string naming a commit (its dict() of a str); such a
// row is left as it is.
func withEmbedStats(s *store.Store, c *adapter.Message) {
	if c.Function != "attach" {
		return
	}
	src, ok := sourceCommit(c)
	if !ok {
		return
	}
	a := c.Get("attach")
	var out *node.Obj
	switch {
	case !a.Truthy():
		out = node.NewObj(3)
	case a.K == node.Object:
		out = a.O.CloneCap(3)
	default:
		return
	}
	out.SetDefault("source_commit_id", node.Str(src))
	if n, tokens, ok := embedStats(s, src); ok {
		out.Set("embed_count", node.Num(strconv.Itoa(n)))
		out.Set("embed_tokens", node.Num(tokens.String()))
	}
	c.Set("attach", node.ObjV(out))
}

// sourceCommit is the original's _attach_info source commit: the row's
// attach, else its extra (a string parsed as JSON), unwrapped from an inner
// "attach" object, whose source_commit_id stripped of whitespace is not
// empty.
func sourceCommit(m *adapter.Message) (string, bool) {
	raw := m.Get("attach")
	if !raw.Truthy() {
		raw = m.Get("extra")
	}
	if raw.K == node.String {
		v, err := node.ParseString(raw.S)
		if err != nil {
			return "", false
		}
		raw = v
	}
	if raw.K != node.Object {
		return "", false
	}
	if inner := raw.O.Get("attach"); inner.K == node.Object {
		raw = inner
	}
	id := raw.O.Get("source_commit_id")
	if id.K != node.String {
		return "", false
	}
	src := pyStrip(id.S)
	return src, src != ""
}

// embedStats is the original's _attach_embed_stats over the session's own
// commit file: how many items are not summarized and the sum of their
// tokens. ok is false wherever the original gets no commit — no file, or a
// payload its ContextCommit and ContextItem constructors refuse.
func embedStats(s *store.Store, id string) (int, *big.Int, bool) {
	v, ok := s.ContextCommit(id)
	if !ok || v.K != node.Object || !validCommit(v.O) {
		return 0, nil, false
	}
	items := v.O.Get("items")
	if !items.Truthy() {
		return 0, new(big.Int), true
	}
	if items.K != node.Array {
		return 0, nil, false // a str or dict iterates to non-dicts; anything else is not iterable
	}
	n, sum := 0, new(big.Int)
	for _, it := range items.A {
		if it.K != node.Object || !it.O.Has("source_node_id") || !it.O.Has("role") {
			return 0, nil, false
		}
		tokens := big.NewInt(0)
		if t := it.O.Get("tokens"); t.IsSet() {
			if tokens, ok = pyInt(t); !ok {
				return 0, nil, false
			}
		}
		if st := it.O.Get("state"); st.K == node.String && st.S == "summarized" {
			continue
		}
		n++
		sum.Add(sum, tokens)
	}
	return n, sum, true
}

// validCommit: the fields ContextCommit's reader converts are convertible —
// id and session_id present, parent_ids iterable when truthy, created_at a
// float and total_tokens an int when truthy.
func validCommit(o *node.Obj) bool {
	if !o.Has("id") || !o.Has("session_id") {
		return false
	}
	if p := o.Get("parent_ids"); p.Truthy() && p.K != node.String && p.K != node.Array && p.K != node.Object {
		return false
	}
	if c := o.Get("created_at"); c.Truthy() && !pyFloatOK(c) {
		return false
	}
	if t := o.Get("total_tokens"); t.Truthy() {
		if _, ok := pyInt(t); !ok {
			return false
		}
	}
	return true
}

// pyInt is Python's int() of a value json.loads gave: an int exactly, a
// finite float truncated towards zero, a bool as 0 or 1, a string of
// decimal digits (surrounding whitespace, a sign and single underscores
// between digits allowed; ASCII digits only). Anything else raises.
func pyInt(v node.Value) (*big.Int, bool) {
	switch v.K {
	case node.Bool:
		if v.B {
			return big.NewInt(1), true
		}
		return big.NewInt(0), true
	case node.Number:
		if node.IsIntLiteral(v.S) {
			return new(big.Int).SetString(v.S, 10)
		}
		f, err := strconv.ParseFloat(v.S, 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, false
		}
		i, _ := big.NewFloat(math.Trunc(f)).Int(nil)
		return i, true
	case node.String:
		t := pyStrip(v.S)
		if !pyDigits(trimSign(t), false) {
			return nil, false
		}
		return new(big.Int).SetString(strings.ReplaceAll(t, "_", ""), 10)
	}
	return nil, false
}

// pyFloatOK reports whether Python's float() accepts a value json.loads
// gave: any number but an int too large for a double, a bool, or a string
// in float()'s syntax.
func pyFloatOK(v node.Value) bool {
	switch v.K {
	case node.Bool:
		return true
	case node.Number:
		if node.IsIntLiteral(v.S) {
			_, err := strconv.ParseFloat(v.S, 64)
			return err == nil
		}
		return true // a float literal parsed already; too large is inf
	case node.String:
		return pyFloatSyntax(pyStrip(v.S))
	}
	return false
}

// pyFloatSyntax is float()'s grammar for a stripped string: a sign, then
// inf, infinity or nan in any case, or digits with an optional fraction and
// exponent, single underscores between digits (ASCII digits only).
func pyFloatSyntax(s string) bool {
	s = strings.ToLower(trimSign(s))
	switch s {
	case "inf", "infinity", "nan":
		return true
	}
	mant, exp, hasExp := strings.Cut(s, "e")
	if hasExp {
		if !pyDigits(trimSign(exp), false) {
			return false
		}
	}
	whole, frac, hasDot := strings.Cut(mant, ".")
	if !hasDot {
		return pyDigits(whole, false)
	}
	return (pyDigits(whole, true) && pyDigits(frac, true)) && (whole != "" || frac != "")
}

// trimSign removes one leading + or -.
func trimSign(s string) string {
	if s != "" && (s[0] == '+' || s[0] == '-') {
		return s[1:]
	}
	return s
}

// pyDigits reports whether s is ASCII digits with single underscores
// between them (empty only when allowed).
func pyDigits(s string, emptyOK bool) bool {
	if s == "" {
		return emptyOK
	}
	prevDigit := false
	for _, c := range []byte(s) {
		switch {
		case c >= '0' && c <= '9':
			prevDigit = true
		case c == '_' && prevDigit:
			prevDigit = false
		default:
			return false
		}
	}
	return prevDigit
}

// pyStrip is Python's str.strip(): Unicode whitespace and U+001C..U+001F.
func pyStrip(s string) string {
	return strings.TrimFunc(s, func(c rune) bool { return unicode.IsSpace(c) || c >= 0x1c && c <= 0x1f })
}
