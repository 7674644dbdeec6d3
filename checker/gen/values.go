package gen

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// The values the generator writes. Each list starts with its simplest
// value (rapid shrinks a choice towards the first) and ends with the
// numbers the original stores as Python gives them: json.dumps of a float
// is its repr (1e+16, 1e-05, -0.0, 5e-324), ints have any size, and a
// literal beyond a double (1e400) is read as inf and written as Infinity.
var (
	texts = []string{"hello", "list files", "thanks", "café ☕", "why?", "line one\nline two", `say "hi"`,
		pythonTexts[0], pythonTexts[1], pythonTexts[2], pythonTexts[3], pythonTexts[4], pythonTexts[5]}
	// pythonTexts hold the characters Python's text rules treat specially,
	// and their neighbours: str.strip trims U+001C–U+001F and every Unicode
	// space (U+0085, U+00A0, U+2029, U+3000), not U+200B or U+180E;
	// str.splitlines splits at U+001C–U+001E, U+0085 and U+2028 too;
	// json.dumps escapes the control characters below U+0020 (U+0001 as
	// \u0001) and keeps U+007F and U+2028 as they are.
	pythonTexts = []string{"\x1fpadded\u3000", "\u0085nel and nbsp\u00a0", "kept\u200b",
		"\u180emongolian vowel separator", "ctl \x01 del \x7f", "groups\x1c\x1d\x1e\u2028sep\u2029"}
	toolNames = []string{"bash", "read_file", "web_search", "grep"}
	toolArgs  = []string{`{"cmd": "ls"}`, `{"q": "café"}`, `{"path": "/tmp/a", "n": 2}`, `{}`, `{"x": [1, 2.5, null, true]}`,
		`{"id": 9007199254740993, "n": 12345678901234567890}`,
		`{"a": 1e16, "b": 1e+16, "c": -0.0, "d": 0.1}`,
		`{"one": 1.0, "i": 1, "tiny": 5e-324, "huge": 1.5e300, "e": 2.5E-7, "max": 1.7976931348623157e308}`,
		boundaryFloats}
	results = []string{"ok", "error: not found", "2 files", "résultat"}
	fnNames = []string{"word_count", "plan_next", "gui_step", "summarize"}
	fnArgs  = []string{`{"text": "hi"}`, `{}`, `{"n": 3}`,
		`{"seed": 9007199254740993, "t": 1782000123.456789}`,
		`{"limit": 1e16, "step": 1E-5, "neg": -0.0}`}
	outputs = []string{`2`, `"two words"`, `{"k": "v"}`, `null`, `2.0`, `[1, "a"]`,
		`12345678901234567890`, `1e16`, `-0.0`,
		`[1.0, 1, 5e-324, 1e308, 1e400]`,
		`{"ms": 2034.0000000000002, "id": -9007199254740993, "sum": 0.30000000000000004}`,
		boundaryFloats}
	exposes = []string{"", "io", "llm", "full"}
	// durations of a function run in seconds ("" is the default 0.5): a
	// measured time, a float sum, a tiny one, one whose ×1000 falls just
	// below an integer (1.005 → 1004.9999999999999), a run timed from an
	// unset start (the clock itself), and one past int64 milliseconds.
	durations = []string{"", "2.034", "0.30000000000000004", "1e-05", "1.005", "59.999", "0.1", "1782000123.456789", "1e+16"}
)

// boundaryFloats sits on every edge of Python's float repr: the sixteenth
// digit before the point (1e15 and 9999999999999998.0 are written fixed,
// 1e16 and 1.0000000000000002e16 with an exponent), the fourth zero after it
// (0.0001 fixed, 0.00009999999999999999 and 1e-05 not), seventeen
// significant digits, the smallest normal and a subnormal.
const boundaryFloats = `{"e15": 1e15, "below": 9999999999999998.0, "e16": 1e16, "past": 1.0000000000000002e16, ` +
	`"fixed": 0.0001, "under": 0.00009999999999999999, "e-5": 1e-05, "digits": 123456789012345.67, ` +
	`"normal": 2.2250738585072014e-308, "sub": 4e-320}`

func pickStr(src Source, label string, from []string) string { return from[src.IntN(len(from), label)] }

// pickWeighted picks one of from, each as often as its weight.
func pickWeighted(src Source, label string, from []string, weights []int) string {
	total := 0
	for _, w := range weights {
		total += w
	}
	n := src.IntN(total, label)
	for i, w := range weights {
		if n < w {
			return from[i]
		}
		n -= w
	}
	return from[len(from)-1]
}

// oneIn is true one time in n (rapid shrinks it towards false).
func oneIn(src Source, n int, label string) bool { return src.IntN(n, label) == n-1 }

// drawClock draws a wall-clock time with microseconds, as time.time()
// gives it: the server's clock jumps between turns.
func drawClock(src Source) string {
	return fmt.Sprintf("%d.%06d", 1782000000+src.IntN(1000000, "clock seconds"), src.IntN(1000000, "clock micros"))
}

// twoTo53 is the first integer a double cannot tell from its neighbour.
var twoTo53 = new(big.Int).Lsh(big.NewInt(1), 53)

// numberShapes names the shapes of the numbers in a JSON text: an integer
// past 2^53 (exact in Python, not in a double) and a float written with
// an exponent (which Python writes back in its own form).
func numberShapes(text string) []string {
	var out []string
	past, expo, edge := false, false, false
	for _, lit := range numberLiterals(text) {
		if f, err := strconv.ParseFloat(lit, 64); err == nil && strings.ContainsAny(lit, ".eE") {
			edge = edge || onReprEdge(f)
		}
		if strings.ContainsAny(lit, "eE") {
			expo = true
		} else if !strings.Contains(lit, ".") {
			v, ok := new(big.Int).SetString(lit, 10)
			past = past || ok && v.CmpAbs(twoTo53) > 0
		}
	}
	if past {
		out = append(out, ShapeBigInt)
	}
	if expo {
		out = append(out, ShapeExpFloat)
	}
	if edge {
		out = append(out, ShapeFloatEdge)
	}
	return out
}

// numberLiterals lists the number literals of a JSON text, outside strings.
func numberLiterals(text string) []string {
	var out []string
	inStr := false
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case inStr && c == '\\':
			i++
		case c == '"':
			inStr = !inStr
		case !inStr && (c == '-' || c >= '0' && c <= '9'):
			j := i + 1
			for j < len(text) && strings.IndexByte("0123456789.eE+-", text[j]) >= 0 {
				j++
			}
			out = append(out, text[i:j])
			i = j - 1
		}
	}
	return out
}

// onReprEdge reports whether Python's repr of f sits next to a switch of
// its layout: the decimal point 16 or 17 digits in (fixed up to 16), or
// just before or after the fourth zero past it (fixed down to 0.0001).
func onReprEdge(f float64) bool {
	if f == 0 || math.IsInf(f, 0) || math.IsNaN(f) {
		return false
	}
	e := strconv.FormatFloat(f, 'e', -1, 64)
	_, exp, _ := strings.Cut(e, "e")
	x, _ := strconv.Atoi(exp)
	decpt := x + 1
	return decpt == 16 || decpt == 17 || decpt == -3 || decpt == -4
}
