package node_test

import (
	"bytes"
	"encoding/json"
	"math"
	"math/big"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"sessiondag/impl/node"
)

// FuzzParse: node.Parse accepts exactly what encoding/json's Valid accepts,
// except for the two documented differences — it also accepts Python's NaN,
// Infinity and -Infinity literals, and it refuses invalid UTF-8 (Python
// cannot decode such a file). What it accepts, Dumps writes back as text
// that parses to an equal value, and writing is idempotent.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`{"id": "a", "seq": 3, "metadata": {"parent_id": null}}`,
		`[1, 2.5, -0, 1e400, 1E-7, 0.000001, 12345678901234567890123]`,
		`{"a": NaN, "b": Infinity, "c": -Infinity}`,
		`[{"nested": [NaN, 1e999, -1e999]}]`,
		`"\ud83d\ude00 \ud800 \u0000 é ☕"`,
		`{"dup": 1, "x": 2, "dup": 3}`,
		"\"\xff\"",
		` [ ] `,
		`01`, `-`, `1.`, `.5`, `[1,]`, `{"a" 1}`, `tru`, `"\x"`,
		strings.Repeat("[", 10000) + strings.Repeat("]", 10000),
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := node.Parse(data)
		if err == nil {
			if !json.Valid(withoutNonFinite(data)) {
				t.Fatalf("Parse accepts %q, which is not JSON even with NaN/Infinity allowed", data)
			}
			if !utf8.Valid(data) {
				t.Fatalf("Parse accepts invalid UTF-8: %q", data)
			}
		} else {
			var se *node.SyntaxError
			if !asSyntax(err, &se) {
				t.Fatalf("Parse error %v is not a *SyntaxError", err)
			}
			if se.Offset < 0 || se.Offset > len(data) {
				t.Fatalf("error offset %d outside the input of %d bytes", se.Offset, len(data))
			}
			if json.Valid(data) && utf8.Valid(data) {
				t.Fatalf("Parse refuses valid JSON %q: %v", data, err)
			}
			return
		}
		// A node file (AppendIndent) reads back as the same value, lone
		// surrogates included; Dumps is the same text without the
		// indentation wherever the value holds none (Python's json.dumps
		// leaves a lone surrogate unescaped: not UTF-8, not parseable).
		// (Indentation makes a file quadratic in the nesting depth, as
		// Python's: the deepest seeds are left to Dumps.)
		var file []byte
		if depth(v) <= 100 {
			file = node.AppendIndent(nil, v, "")
			if w, err := node.Parse(file); err != nil || !equal(v, w) {
				t.Fatalf("the file text %q of Parse(%q) does not read back as the same value (%v)", file, data, err)
			}
		}
		text := node.Dumps(v)
		if !utf8.ValidString(text) {
			if file != nil && !strings.Contains(string(file), `\ud`) {
				t.Fatalf("Dumps(Parse(%q)) = %q is not UTF-8, and the value has no lone surrogate", data, text)
			}
			return
		}
		w, err := node.Parse([]byte(text))
		if err != nil {
			t.Fatalf("Dumps(Parse(%q)) = %q does not parse: %v", data, text, err)
		}
		if !equal(v, w) {
			t.Fatalf("Dumps(Parse(%q)) = %q parses to another value", data, text)
		}
		if again := node.Dumps(w); again != text {
			t.Fatalf("Dumps is not idempotent: %q then %q", text, again)
		}
		if !hasNonFinite(v) && !json.Valid([]byte(text)) {
			t.Fatalf("Dumps wrote %q, which encoding/json refuses", text)
		}
		// Views embed values through MarshalJSON: always standard JSON,
		// NaN and infinities as null, and encoding/json takes it.
		b, err := v.MarshalJSON()
		if err != nil || !json.Valid(b) || !utf8.Valid(b) {
			t.Fatalf("MarshalJSON wrote %q (%v)", b, err)
		}
		var streamed bytes.Buffer
		if err := node.WriteView(&streamed, v); err != nil || !bytes.Equal(streamed.Bytes(), b) {
			t.Fatalf("WriteView wrote %q, MarshalJSON %q (%v)", streamed.Bytes(), b, err)
		}
		if _, err := json.Marshal(map[string]any{"v": v}); err != nil && !strings.Contains(err.Error(), "exceeded max depth") {
			t.Fatalf("encoding/json cannot embed %q: %v", data, err)
		}
	})
}

// depth is the nesting depth of v: 0 for a scalar.
func depth(v node.Value) int {
	d := 0
	for _, x := range v.A {
		d = max(d, depth(x))
	}
	if v.O != nil {
		for _, m := range v.O.M {
			d = max(d, depth(m.Val))
		}
	}
	if v.K == node.Array || v.K == node.Object {
		d++
	}
	return d
}

func asSyntax(err error, target **node.SyntaxError) bool {
	se, ok := err.(*node.SyntaxError)
	*target = se
	return ok
}

// withoutNonFinite replaces NaN, Infinity and -Infinity outside strings by
// a number of the same length.
func withoutNonFinite(data []byte) []byte {
	out := bytes.Clone(data)
	inString := false
	for i := 0; i < len(out); i++ {
		c := out[i]
		switch {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case !inString:
			for _, lit := range []string{"-Infinity", "Infinity", "NaN"} {
				if bytes.HasPrefix(out[i:], []byte(lit)) {
					copy(out[i:], "0"+strings.Repeat(" ", len(lit)-1))
					i += len(lit) - 1
					break
				}
			}
		}
	}
	return out
}

func hasNonFinite(v node.Value) bool {
	switch v.K {
	case node.Number:
		if node.IsIntLiteral(v.S) {
			return false
		}
		f, _ := strconv.ParseFloat(v.S, 64) // Python reads 1e400 as inf
		return math.IsNaN(f) || math.IsInf(f, 0)
	case node.Array:
		for _, x := range v.A {
			if hasNonFinite(x) {
				return true
			}
		}
	case node.Object:
		for _, m := range v.O.M {
			if hasNonFinite(m.Val) {
				return true
			}
		}
	}
	return false
}

// equal compares two values as JSON: numbers by value (ints exactly,
// floats as float64, NaN equal to itself), objects in order.
func equal(a, b node.Value) bool {
	if a.K != b.K {
		return false
	}
	switch a.K {
	case node.Bool:
		return a.B == b.B
	case node.String:
		return a.S == b.S
	case node.Number:
		return sameNumber(a.S, b.S)
	case node.Array:
		if len(a.A) != len(b.A) {
			return false
		}
		for i := range a.A {
			if !equal(a.A[i], b.A[i]) {
				return false
			}
		}
	case node.Object:
		if a.O.Len() != b.O.Len() {
			return false
		}
		for i := range a.O.M {
			if a.O.M[i].Key != b.O.M[i].Key || !equal(a.O.M[i].Val, b.O.M[i].Val) {
				return false
			}
		}
	}
	return true
}

func sameNumber(x, y string) bool {
	if node.IsIntLiteral(x) && node.IsIntLiteral(y) {
		p, ok1 := new(big.Int).SetString(x, 10)
		q, ok2 := new(big.Int).SetString(y, 10)
		return ok1 && ok2 && p.Cmp(q) == 0
	}
	p, _ := strconv.ParseFloat(x, 64) // ±Inf on overflow, as Python
	q, _ := strconv.ParseFloat(y, 64)
	if math.IsNaN(p) || math.IsNaN(q) {
		return math.IsNaN(p) && math.IsNaN(q)
	}
	return p == q
}

// TestParseDepth: the nesting bound is encoding/json's, 10000 arrays or
// objects.
func TestParseDepth(t *testing.T) {
	for _, depth := range []int{9999, 10000, 10001} {
		for _, inner := range []string{"", "1", `{"a": 1}`} {
			open, close := strings.Repeat("[", depth), strings.Repeat("]", depth)
			if inner == `{"a": 1}` {
				open, close = strings.Repeat(`{"k": `, depth-1)+"[", "]"+strings.Repeat("}", depth-1)
				inner = ""
			}
			data := []byte(open + inner + close)
			_, err := node.Parse(data)
			if (err == nil) != json.Valid(data) {
				t.Errorf("depth %d, inner %q: Parse error %v, encoding/json valid %v", depth, inner, err, json.Valid(data))
			}
			if (err == nil) != (depth <= 10000) {
				t.Errorf("depth %d: Parse error %v", depth, err)
			}
		}
	}
}

// TestMarshalNonFinite: a view holding NaN or an infinity, at any depth,
// still marshals; those numbers read as null.
func TestMarshalNonFinite(t *testing.T) {
	for in, want := range map[string]string{
		`NaN`:                          `null`,
		`[1e400, -Infinity, 2.50]`:     `[null,null,2.5]`,
		`{"a": {"b": [NaN]}, "c": -0}`: `{"a":{"b":[null]},"c":0}`,
	} {
		v, err := node.Parse([]byte(in))
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(map[string]any{"v": v})
		if err != nil || string(b) != `{"v":`+want+`}` {
			t.Errorf("%s: marshalled %s, %v; want %s", in, b, err, want)
		}
	}
}
