package node

import (
	"bytes"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Style selects how a Value is written.
type Style uint8

const (
	// Python is json.dumps with its defaults and ensure_ascii=False: ", " and
	// ": " separators, non-ASCII kept. The original builds every JSON string
	// it stores or shows this way.
	Python Style = iota
	// Compact is standard JSON without spaces, for tool output.
	Compact
	// view is Compact with the numbers standard JSON cannot hold (NaN,
	// ±Infinity, a float literal beyond float64) written as null: what
	// views marshal to, at any depth.
	view
	// repr is Python's str() of a container (PyStr): json.dumps's layout
	// with Python's spellings of None, True, False, the float specials and
	// strings. One walk (appendValue) serves every style.
	repr
)

// Dumps renders v the way Python's json.dumps(v, ensure_ascii=False) does.
// Its buffer is made at about the text's length: grown by append, a large
// document's would be allocated some five times over.
func Dumps(v Value) string {
	return string(AppendJSON(make([]byte, 0, textHint(v)), v, Python))
}

// DumpsASCII renders v as Python's json.dumps(v) does with its defaults,
// ensure_ascii included: every character outside ' '..'~' as \uXXXX (one
// outside the BMP as its surrogate pair, a lone surrogate as itself). The
// original stores so what its dispatcher serializes: a tool call's input, a
// reply's extra, an attach's extra.
func DumpsASCII(v Value) string {
	s := Dumps(v)
	i := 0
	for i < len(s) && s[i] < 0x7f {
		i++
	}
	if i == len(s) {
		return s
	}
	b := append(make([]byte, 0, len(s)+len(s)/2), s[:i]...)
	for i < len(s) {
		c := s[i]
		if c < 0x7f {
			b = append(b, c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			var n int
			b, n = appendUndecodable(b, s[i:])
			size = n
		case r > 0xffff:
			r -= 0x10000
			b = appendU(appendU(b, 0xd800+r>>10), 0xdc00+r&0x3ff)
		default:
			b = appendU(b, r)
		}
		i += size
	}
	return string(b)
}

// textHint is about the length of v's text as Dumps writes it: the
// literals and strings as they are, a float's ".0", the separators.
func textHint(v Value) int {
	switch v.K {
	case Number:
		return len(v.S) + 2
	case String:
		return len(v.S) + 2
	case Array:
		n := 2
		for i := range v.A {
			n += textHint(v.A[i]) + 2
		}
		return n
	case Object:
		n := 2
		for _, m := range v.O.members() {
			n += len(m.Key) + 4 + textHint(m.Val) + 2
		}
		return n
	}
	return 5
}

// AppendJSON appends the JSON text of v in the given style.
func AppendJSON(b []byte, v Value, style Style) []byte {
	return appendValue(b, v, style)
}

func appendValue(b []byte, v Value, style Style) []byte {
	switch v.K {
	case Missing, Null:
		if style == repr {
			return append(b, "None"...)
		}
		return append(b, "null"...)
	case Bool:
		switch {
		case style == repr && v.B:
			return append(b, "True"...)
		case style == repr:
			return append(b, "False"...)
		case v.B:
			return append(b, "true"...)
		}
		return append(b, "false"...)
	case Number:
		return appendNumber(b, v.S, style)
	case String:
		return appendString(b, v.S, style)
	case Array:
		b = append(b, '[')
		for i := range v.A {
			if i > 0 {
				b = appendSep(b, ',', style)
			}
			b = appendValue(b, v.A[i], style)
		}
		return append(b, ']')
	case Object:
		b = append(b, '{')
		if v.O != nil {
			for i, m := range v.O.M {
				if i > 0 {
					b = appendSep(b, ',', style)
				}
				b = appendString(b, m.Key, style)
				b = appendSep(b, ':', style)
				b = appendValue(b, m.Val, style)
			}
		}
		return append(b, '}')
	}
	return b
}

func appendNumber(b []byte, lit string, style Style) []byte {
	switch {
	case style == view && !finite(lit):
		return append(b, "null"...)
	case style == repr && lit == "NaN":
		return append(b, "nan"...)
	case style == repr && lit == "Infinity":
		return append(b, "inf"...)
	case style == repr && lit == "-Infinity":
		return append(b, "-inf"...)
	}
	return AppendPyNumber(b, lit)
}

func appendString(b []byte, s string, style Style) []byte {
	switch style {
	case view:
		return appendSafeString(b, s)
	case repr:
		return appendPyStrRepr(b, s)
	}
	return AppendPyString(b, s)
}

func appendSep(b []byte, c byte, style Style) []byte {
	b = append(b, c)
	if style == Python || style == repr {
		b = append(b, ' ')
	}
	return b
}

// AppendPyString writes s as Python's json.dumps(ensure_ascii=False) does:
// only '"', '\\' and control characters are escaped. A lone surrogate (held
// as its three WTF-8 bytes, see Parse) stays as it is, as in the Python
// string json.dumps returns: such text is not UTF-8 until a view or a file
// escapes it (appendSafeString).
func AppendPyString(b []byte, s string) []byte {
	b = append(b, '"')
	b = appendPyStringBody(b, s)
	return append(b, '"')
}

func appendPyStringBody(b []byte, s string) []byte {
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"':
			b = append(b, '\\', '"')
		case '\\':
			b = append(b, '\\', '\\')
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		case '\b':
			b = append(b, '\\', 'b')
		case '\f':
			b = append(b, '\\', 'f')
		default:
			b = appendU(b, rune(c))
		}
		start = i + 1
	}
	return append(b, s[start:]...)
}

func appendU(b []byte, r rune) []byte {
	const hex = "0123456789abcdef"
	return append(b, '\\', 'u', hex[r>>12&0xf], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
}

// appendSafeString is AppendPyString for text that leaves the process as
// UTF-8 (a view, a node file): a lone surrogate is written as its \udXXX
// escape, which is what Python's json writes for one with ensure_ascii
// (and what its json.loads reads back as the same string), and a byte that
// is not UTF-8 (a file name's, say) as \udcXX, the code Python's file
// system decoding gives it (surrogateescape). The result is always valid
// UTF-8.
func appendSafeString(b []byte, s string) []byte {
	if utf8.ValidString(s) {
		return AppendPyString(b, s)
	}
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r != utf8.RuneError || size != 1 {
			i += size
			continue
		}
		b = appendPyStringBody(b, s[start:i])
		var n int
		b, n = appendUndecodable(b, s[i:])
		i += n
		start = i
	}
	b = appendPyStringBody(b, s[start:])
	return append(b, '"')
}

// appendUndecodable writes the bytes at the start of s that are not UTF-8
// as the \udXXX escape of the code point Python holds for them, as both
// its json (ensure_ascii) and its repr write it: a lone surrogate (three
// WTF-8 bytes, see Parse) as itself, any other byte (a file name's) as
// U+DC00 plus the byte, the code surrogateescape decoding gives it. It
// returns how many bytes of s it used.
func appendUndecodable(b []byte, s string) ([]byte, int) {
	if sur, ok := wtf8Surrogate(s); ok {
		return appendU(b, sur), 3
	}
	return appendU(b, 0xdc00|rune(s[0])), 1
}

// wtf8Surrogate decodes a surrogate code point held as three WTF-8 bytes
// (ED A0–BF 80–BF) at the start of s.
func wtf8Surrogate(s string) (rune, bool) {
	if len(s) < 3 || s[0] != 0xed || s[1] < 0xa0 || s[1] > 0xbf || s[2] < 0x80 || s[2] > 0xbf {
		return 0, false
	}
	return 0xd000 | rune(s[1]&0x3f)<<6 | rune(s[2]&0x3f), true
}

// appendWTF8 appends a surrogate code point as three WTF-8 bytes: the form
// Parse keeps a lone \udXXX escape in, so that two different ones stay
// two different strings (utf8.AppendRune would make both U+FFFD).
func appendWTF8(b []byte, r rune) []byte {
	return append(b, 0xed, 0xa0|byte(r>>6&0x1f), 0x80|byte(r&0x3f))
}

// IsIntLiteral reports whether a number literal parses as a Python int.
func IsIntLiteral(lit string) bool {
	return !strings.ContainsAny(lit, ".eEIN")
}

// AppendPyNumber writes a number literal as Python would print the parsed
// value: ints unchanged, floats in repr form (1.0, 1e+16, 1e-05).
func AppendPyNumber(b []byte, lit string) []byte {
	if IsIntLiteral(lit) {
		if lit == "-0" {
			return append(b, '0')
		}
		return append(b, lit...)
	}
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil && !math.IsInf(f, 0) {
		return append(b, lit...)
	}
	return AppendPyFloat(b, f)
}

// exponent reads the exponent AppendFloat writes: a sign and digits.
func exponent(e []byte) int {
	x := 0
	for _, c := range e[1:] {
		x = 10*x + int(c-'0')
	}
	if e[0] == '-' {
		return -x
	}
	return x
}

// AppendPyFloat writes f as Python's float repr (which json.dumps uses).
func AppendPyFloat(b []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(b, "NaN"...)
	case math.IsInf(f, 1):
		return append(b, "Infinity"...)
	case math.IsInf(f, -1):
		return append(b, "-Infinity"...)
	}
	// Shortest round-trip digits, then Python's layout rule: exponent form
	// when the decimal point falls outside -4 < decpt <= 16.
	// Worked in buffers of its own: a view of many numbers writes each
	// without allocating.
	var ebuf, dbuf [32]byte
	e := strconv.AppendFloat(ebuf[:0], f, 'e', -1, 64)
	neg := e[0] == '-'
	if neg {
		e = e[1:]
	}
	mant, exp, _ := bytes.Cut(e, []byte{'e'})
	digits := append(dbuf[:0], mant...)
	if i := bytes.IndexByte(digits, '.'); i >= 0 {
		digits = append(digits[:i], digits[i+1:]...)
	}
	x := exponent(exp)
	decpt := x + 1
	if neg {
		b = append(b, '-')
	}
	if decpt > -4 && decpt <= 16 {
		switch {
		case decpt <= 0:
			b = append(b, "0."...)
			b = append(b, strings.Repeat("0", -decpt)...)
			b = append(b, digits...)
		case decpt >= len(digits):
			b = append(b, digits...)
			b = append(b, strings.Repeat("0", decpt-len(digits))...)
			b = append(b, ".0"...)
		default:
			b = append(b, digits[:decpt]...)
			b = append(b, '.')
			b = append(b, digits[decpt:]...)
		}
		return b
	}
	b = append(b, digits[0])
	if len(digits) > 1 {
		b = append(b, '.')
		b = append(b, digits[1:]...)
	}
	b = append(b, 'e')
	if x < 0 {
		b = append(b, '-')
		x = -x
	} else {
		b = append(b, '+')
	}
	if x < 10 {
		b = append(b, '0')
	}
	return strconv.AppendInt(b, int64(x), 10)
}

// PyStr renders v as Python's str() of the decoded value: strings as they
// are, containers in repr style ({'error': 'boom'}, True, None).
func PyStr(v Value) string {
	if v.K == String {
		return v.S
	}
	return string(appendValue(nil, v, repr))
}

// appendPyStrRepr is Python's repr of a str: single quotes unless the text
// holds a single quote and no double quote.
func appendPyStrRepr(b []byte, s string) []byte {
	q := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		q = '"'
	}
	b = append(b, q)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			var n int
			b, n = appendUndecodable(b, s[i:])
			i += n
			continue
		}
		i += size
		switch {
		case r == rune(q) || r == '\\':
			b = append(b, '\\', byte(r))
		case r == '\n':
			b = append(b, '\\', 'n')
		case r == '\r':
			b = append(b, '\\', 'r')
		case r == '\t':
			b = append(b, '\\', 't')
		case r < 0x20 || r == 0x7f:
			const hex = "0123456789abcdef"
			b = append(b, '\\', 'x', hex[r>>4], hex[r&0xf])
		default:
			b = append(b, string(r)...)
		}
	}
	return append(b, q)
}

// MarshalJSON lets views embed values in encoding/json documents. Standard
// JSON has no NaN or infinity: such numbers, wherever they stand, become
// null.
func (v Value) MarshalJSON() ([]byte, error) {
	return AppendJSON(nil, v, view), nil
}

// finite reports whether a number literal is a finite float64 value (int
// literals always are: they are written as they stand).
func finite(lit string) bool {
	if IsIntLiteral(lit) {
		return true
	}
	f, _ := strconv.ParseFloat(lit, 64) // NaN, ±Inf on overflow
	return !math.IsNaN(f) && !math.IsInf(f, 0)
}

// MarshalJSON writes the object with its keys in order.
func (o *Obj) MarshalJSON() ([]byte, error) { return ObjV(o).MarshalJSON() }
