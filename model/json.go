package model

// A tiny ordered JSON representation, written for this package only.
//
// A JSON value is one of these Go values:
//
//	nil        JSON null
//	bool       true / false
//	string     a string
//	Int        an integer, kept as its decimal text (Python int: any size)
//	Float      a float (Python float), printed as Python's repr
//	[]any      an array
//	*Object    an object whose key order is kept
//
// The int/float split mirrors Python's json module: `2` reads as int, `2.0`
// and `1e5` read as float, so `2.0` is written back as `2.0` (legacy §2.6).

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Int is a JSON integer kept as canonical decimal text ("-0" becomes "0").
type Int string

// Float is a JSON float (Python float).
type Float float64

// Field is one key/value pair of an Object.
type Field struct {
	Key string
	Val any
}

// Object is a JSON object that keeps its key order, like a Python dict.
type Object struct {
	Fields []Field
}

// newObject builds an object from alternating key, value arguments.
func newObject(kv ...any) *Object {
	o := &Object{Fields: make([]Field, 0, len(kv)/2)}
	for i := 0; i+1 < len(kv); i += 2 {
		o.Set(kv[i].(string), kv[i+1])
	}
	return o
}

// Get returns the value under key k and whether it is present.
func (o *Object) Get(k string) (any, bool) {
	if o == nil {
		return nil, false
	}
	for _, f := range o.Fields {
		if f.Key == k {
			return f.Val, true
		}
	}
	return nil, false
}

// Val returns the value under k, nil when absent (Python dict.get).
func (o *Object) Val(k string) any {
	v, _ := o.Get(k)
	return v
}

// Str returns the value under k when it is a string, else "".
func (o *Object) Str(k string) string {
	s, _ := o.Val(k).(string)
	return s
}

// Has reports whether key k is present.
func (o *Object) Has(k string) bool {
	_, ok := o.Get(k)
	return ok
}

// Set sets k to v; an existing key keeps its position (Python dict).
func (o *Object) Set(k string, v any) {
	for i := range o.Fields {
		if o.Fields[i].Key == k {
			o.Fields[i].Val = v
			return
		}
	}
	o.Fields = append(o.Fields, Field{k, v})
}

// del removes key k (Python dict.pop) and returns its value.
func (o *Object) del(k string) (any, bool) {
	for i, f := range o.Fields {
		if f.Key == k {
			o.Fields = append(o.Fields[:i:i], o.Fields[i+1:]...)
			return f.Val, true
		}
	}
	return nil, false
}

// Copy is a shallow copy (Python dict(d)).
func (o *Object) Copy() *Object {
	if o == nil {
		return &Object{}
	}
	return &Object{Fields: append([]Field(nil), o.Fields...)}
}

// deepCopy copies any JSON value recursively.
func deepCopy(v any) any {
	switch x := v.(type) {
	case *Object:
		if x == nil {
			return x
		}
		c := &Object{Fields: make([]Field, len(x.Fields))}
		for i, f := range x.Fields {
			c.Fields[i] = Field{f.Key, deepCopy(f.Val)}
		}
		return c
	case []any:
		if x == nil {
			return x
		}
		c := make([]any, len(x))
		for i, e := range x {
			c[i] = deepCopy(e)
		}
		return c
	}
	return v
}

// ---------------------------------------------------------------- parsing

// ParseJSON parses text like Python's json.loads: NaN/Infinity/-Infinity are
// accepted, control characters inside strings are not, a repeated key keeps
// its first position and takes the last value.
func ParseJSON(data []byte) (any, error) {
	if !utf8.Valid(data) {
		return nil, errors.New("json: invalid UTF-8")
	}
	p := &parser{s: string(data)}
	p.ws()
	v, err := p.value()
	if err != nil {
		return nil, err
	}
	p.ws()
	if p.i != len(p.s) {
		return nil, p.errf("extra data")
	}
	return v, nil
}

type parser struct {
	s     string
	i     int
	depth int
}

func (p *parser) errf(msg string) error { return fmt.Errorf("json: %s at offset %d", msg, p.i) }

func (p *parser) ws() {
	for p.i < len(p.s) && strings.IndexByte(" \t\n\r", p.s[p.i]) >= 0 {
		p.i++
	}
}

func (p *parser) lit(word string) bool {
	if strings.HasPrefix(p.s[p.i:], word) {
		p.i += len(word)
		return true
	}
	return false
}

func (p *parser) value() (any, error) {
	if p.i >= len(p.s) {
		return nil, p.errf("unexpected end")
	}
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > 10000 {
		return nil, p.errf("too deep")
	}
	switch c := p.s[p.i]; {
	case c == '{':
		return p.object()
	case c == '[':
		return p.array()
	case c == '"':
		return p.str()
	case p.lit("null"):
		return nil, nil
	case p.lit("true"):
		return true, nil
	case p.lit("false"):
		return false, nil
	case p.lit("NaN"):
		return Float(math.NaN()), nil
	case p.lit("Infinity"):
		return Float(math.Inf(1)), nil
	case p.lit("-Infinity"):
		return Float(math.Inf(-1)), nil
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	}
	return nil, p.errf("unexpected character")
}

func (p *parser) object() (any, error) {
	p.i++ // {
	o := &Object{}
	p.ws()
	if p.i < len(p.s) && p.s[p.i] == '}' {
		p.i++
		return o, nil
	}
	for {
		p.ws()
		if p.i >= len(p.s) || p.s[p.i] != '"' {
			return nil, p.errf("expected key")
		}
		k, err := p.str()
		if err != nil {
			return nil, err
		}
		p.ws()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return nil, p.errf("expected ':'")
		}
		p.i++
		p.ws()
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		o.Set(k.(string), v)
		p.ws()
		if p.i < len(p.s) && p.s[p.i] == ',' {
			p.i++
			continue
		}
		if p.i < len(p.s) && p.s[p.i] == '}' {
			p.i++
			return o, nil
		}
		return nil, p.errf("expected ',' or '}'")
	}
}

func (p *parser) array() (any, error) {
	p.i++ // [
	a := []any{}
	p.ws()
	if p.i < len(p.s) && p.s[p.i] == ']' {
		p.i++
		return a, nil
	}
	for {
		p.ws()
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		a = append(a, v)
		p.ws()
		if p.i < len(p.s) && p.s[p.i] == ',' {
			p.i++
			continue
		}
		if p.i < len(p.s) && p.s[p.i] == ']' {
			p.i++
			return a, nil
		}
		return nil, p.errf("expected ',' or ']'")
	}
}

func (p *parser) hex4() (rune, bool) {
	if p.i+4 > len(p.s) {
		return 0, false
	}
	n, err := strconv.ParseUint(p.s[p.i:p.i+4], 16, 32)
	if err != nil {
		return 0, false
	}
	p.i += 4
	return rune(n), true
}

func (p *parser) str() (any, error) {
	p.i++ // opening quote
	var b strings.Builder
	for {
		if p.i >= len(p.s) {
			return nil, p.errf("unterminated string")
		}
		c := p.s[p.i]
		switch {
		case c == '"':
			p.i++
			return b.String(), nil
		case c < 0x20:
			return nil, p.errf("control character in string")
		case c != '\\':
			b.WriteByte(c)
			p.i++
			continue
		}
		p.i++ // backslash
		if p.i >= len(p.s) {
			return nil, p.errf("unterminated escape")
		}
		e := p.s[p.i]
		p.i++
		switch e {
		case '"', '\\', '/':
			b.WriteByte(e)
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'u':
			r, ok := p.hex4()
			if !ok {
				return nil, p.errf("bad \\u escape")
			}
			if r >= 0xD800 && r < 0xDC00 && strings.HasPrefix(p.s[p.i:], `\u`) {
				save := p.i
				p.i += 2
				if r2, ok := p.hex4(); ok && r2 >= 0xDC00 && r2 < 0xE000 {
					r = 0x10000 + (r-0xD800)<<10 + (r2 - 0xDC00)
				} else {
					p.i = save
				}
			}
			// A lone surrogate cannot live in a Go string: it becomes U+FFFD.
			b.WriteRune(r)
		default:
			return nil, p.errf("bad escape")
		}
	}
}

func (p *parser) number() (any, error) {
	start := p.i
	if p.s[p.i] == '-' {
		p.i++
	}
	digits := func() int {
		n := 0
		for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
			p.i++
			n++
		}
		return n
	}
	if p.i < len(p.s) && p.s[p.i] == '0' {
		p.i++
	} else if digits() == 0 {
		return nil, p.errf("bad number")
	}
	isFloat := false
	if p.i+1 < len(p.s) && p.s[p.i] == '.' && p.s[p.i+1] >= '0' && p.s[p.i+1] <= '9' {
		p.i++
		digits()
		isFloat = true
	}
	if p.i < len(p.s) && (p.s[p.i] == 'e' || p.s[p.i] == 'E') {
		save := p.i
		p.i++
		if p.i < len(p.s) && (p.s[p.i] == '+' || p.s[p.i] == '-') {
			p.i++
		}
		if digits() == 0 {
			p.i = save
		} else {
			isFloat = true
		}
	}
	text := p.s[start:p.i]
	if !isFloat {
		if strings.Trim(text, "-0") == "" {
			return Int("0"), nil // Python: int("-0") == 0
		}
		return Int(text), nil
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return nil, p.errf("bad number")
	}
	return Float(f), nil // out of range gives ±inf or 0, as in Python
}

// ------------------------------------------------------- Python semantics

// Truthy is Python's bool(v).
func Truthy(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case bool:
		return x
	case string:
		return x != ""
	case Int:
		return x != "0"
	case Float:
		return x != 0
	case []any:
		return len(x) > 0
	case *Object:
		return x != nil && len(x.Fields) > 0
	}
	return true
}

// or is Python's `a or b`.
func or(a, b any) any {
	if Truthy(a) {
		return a
	}
	return b
}

// asFloat converts a JSON number (or bool, which Python treats as int) to
// float64; ok is false for every other value.
func asFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case Float:
		return float64(x), true
	case Int:
		f, _ := new(big.Float).SetPrec(200).SetString(string(x))
		if f == nil {
			return 0, false
		}
		r, _ := f.Float64()
		return r, true
	case bool:
		if x {
			return 1, true
		}
		return 0, true
	}
	return 0, false
}

// pyEqual is Python's == on JSON values (1 == 1.0 == True, dicts ignore order).
func pyEqual(a, b any) bool {
	if fa, ok := asFloat(a); ok {
		fb, ok := asFloat(b)
		if !ok {
			return false
		}
		ia, aInt := a.(Int)
		ib, bInt := b.(Int)
		if aInt && bInt {
			return ia == ib
		}
		return fa == fb
	}
	switch x := a.(type) {
	case nil:
		return b == nil
	case string:
		y, ok := b.(string)
		return ok && x == y
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !pyEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	case *Object:
		y, ok := b.(*Object)
		if !ok || len(x.Fields) != len(y.Fields) {
			return false
		}
		for _, f := range x.Fields {
			w, ok := y.Get(f.Key)
			if !ok || !pyEqual(f.Val, w) {
				return false
			}
		}
		return true
	}
	return false
}

// ---------------------------------------------------- Python json.dumps

// pyDumps is Python's json.dumps(v, ensure_ascii=False) with the default
// separators ", " and ": " (legacy §2.6).
func pyDumps(v any) string {
	var b strings.Builder
	dumpsStyle.write(&b, v)
	return b.String()
}

// pyDumpsASCII is Python's json.dumps(v) with its defaults, ensure_ascii
// included: what R's dispatcher stores as a tool call's input and a reply's
// extra, and its task runner as an attach's. Every character outside
// ' '..'~' that pyDumps keeps (those are only inside strings) is written as
// \uXXXX, one outside the BMP as its surrogate pair.
func pyDumpsASCII(v any) string {
	s := pyDumps(v)
	if isPrintableASCII(s) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if r < 0x7f {
			b.WriteRune(r)
			continue
		}
		if r > 0xffff {
			r -= 0x10000
			fmt.Fprintf(&b, `\u%04x\u%04x`, 0xd800+(r>>10), 0xdc00+(r&0x3ff))
			continue
		}
		fmt.Fprintf(&b, `\u%04x`, r)
	}
	return b.String()
}

func isPrintableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x7f {
			return false
		}
	}
	return true
}

// pyJSONString quotes s as json.dumps does with ensure_ascii=False: only '"',
// '\\' and the control characters U+0000..U+001F are escaped. A byte that is
// not UTF-8 becomes U+FFFD (Go reads such a string rune by rune that way).
func pyJSONString(s string) string {
	if plainString(s) {
		return `"` + s + `"`
	}
	return string(appendPyString(nil, s))
}

// plainString: valid UTF-8 with nothing to escape, so quoting is all
// pyJSONString does to it.
func plainString(s string) bool {
	ascii := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c == '"' || c == '\\' {
			return false
		}
		ascii = ascii && c < 0x80
	}
	return ascii || utf8.ValidString(s)
}

// appendPyString appends pyJSONString(s).
func appendPyString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x80 {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 { // not UTF-8
				b = append(b, s[start:i]...)
				b = utf8.AppendRune(b, utf8.RuneError)
				start = i + 1
			}
			i += size
			continue
		}
		if c >= 0x20 && c != '"' && c != '\\' {
			i++
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"':
			b = append(b, `\"`...)
		case '\\':
			b = append(b, `\\`...)
		case '\n':
			b = append(b, `\n`...)
		case '\r':
			b = append(b, `\r`...)
		case '\t':
			b = append(b, `\t`...)
		case '\b':
			b = append(b, `\b`...)
		case '\f':
			b = append(b, `\f`...)
		default:
			const hex = "0123456789abcdef"
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		}
		i++
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// pyFloatRepr is Python's repr(float) for finite values: shortest round-trip
// digits; positional when -4 <= exponent < 16 (with ".0" if integral), else
// scientific with a signed, at least two-digit exponent ("1e+16", "1e-05").
func pyFloatRepr(f float64) string { return string(appendPyFloat(nil, f)) }

// appendPyFloat appends PyFloatRepr(f).
func appendPyFloat(b []byte, f float64) []byte {
	if f == 0 {
		if math.Signbit(f) {
			return append(b, "-0.0"...)
		}
		return append(b, "0.0"...)
	}
	var buf [32]byte
	e := strconv.AppendFloat(buf[:0], f, 'e', -1, 64) // e.g. "-1.2345e+06"
	if e[0] == '-' {
		b = append(b, '-')
		e = e[1:]
	}
	at := bytes.IndexByte(e, 'e')
	exp, _ := strconv.Atoi(string(e[at+1:]))
	var digits [24]byte // the mantissa without its point
	d := append(digits[:0], e[0])
	if at > 1 {
		d = append(d, e[2:at]...)
	}
	switch {
	case exp < -4 || exp >= 16:
		b = append(b, d[0])
		if len(d) > 1 {
			b = append(b, '.')
			b = append(b, d[1:]...)
		}
		b = append(b, 'e')
		if exp < 0 {
			b, exp = append(b, '-'), -exp
		} else {
			b = append(b, '+')
		}
		if exp < 10 {
			b = append(b, '0')
		}
		return strconv.AppendInt(b, int64(exp), 10)
	case exp >= 0 && len(d) <= exp+1:
		b = append(b, d...)
		for range exp + 1 - len(d) {
			b = append(b, '0')
		}
		return append(b, ".0"...)
	case exp >= 0:
		b = append(b, d[:exp+1]...)
		b = append(b, '.')
		return append(b, d[exp+1:]...)
	}
	b = append(b, "0."...)
	for range -exp - 1 {
		b = append(b, '0')
	}
	return append(b, d...)
}

// ---------------------------------------------------------- Python str()

// PyStr is Python's str(v) for a JSON value: strings as they are, everything
// else in repr style (single quotes, True/False/None) — legacy §2.5 `error`.
func PyStr(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	var b strings.Builder
	reprStyle.write(&b, v)
	return b.String()
}

// pyStyle is what json.dumps and str() spell differently; the structure they
// write is the same: ", " between items and ": " after a key.
type pyStyle struct {
	null, yes, no, nan, inf, negInf string
	quote                           func(string) string
}

var (
	dumpsStyle = pyStyle{"null", "true", "false", "NaN", "Infinity", "-Infinity", pyJSONString}
	reprStyle  = pyStyle{"None", "True", "False", "nan", "inf", "-inf", pyReprString}
)

func (p *pyStyle) write(b *strings.Builder, v any) {
	switch x := v.(type) {
	case nil:
		b.WriteString(p.null)
	case bool:
		if x {
			b.WriteString(p.yes)
		} else {
			b.WriteString(p.no)
		}
	case string:
		b.WriteString(p.quote(x))
	case Int:
		b.WriteString(string(x))
	case Float:
		f := float64(x)
		switch {
		case math.IsNaN(f):
			b.WriteString(p.nan)
		case math.IsInf(f, 1):
			b.WriteString(p.inf)
		case math.IsInf(f, -1):
			b.WriteString(p.negInf)
		default:
			b.WriteString(pyFloatRepr(f))
		}
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			p.write(b, e)
		}
		b.WriteByte(']')
	case *Object:
		b.WriteByte('{')
		if x != nil {
			for i, f := range x.Fields {
				if i > 0 {
					b.WriteString(", ")
				}
				b.WriteString(p.quote(f.Key))
				b.WriteString(": ")
				p.write(b, f.Val)
			}
		}
		b.WriteByte('}')
	default:
		panic(fmt.Sprintf("model: not a JSON value: %T", v))
	}
}

// pyReprString is Python's repr(str).
func pyReprString(s string) string {
	quote := '\''
	if strings.ContainsRune(s, '\'') && !strings.ContainsRune(s, '"') {
		quote = '"'
	}
	var b strings.Builder
	b.WriteRune(quote)
	for _, r := range s {
		switch {
		case r == quote || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r < 0x7f || unicode.IsPrint(r):
			b.WriteRune(r)
		case r <= 0xff:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r <= 0xffff:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			fmt.Fprintf(&b, `\U%08x`, r)
		}
	}
	b.WriteRune(quote)
	return b.String()
}

// ------------------------------------------------ encoding/json support

// MarshalJSON writes the object with its key order kept.
func (o *Object) MarshalJSON() ([]byte, error) { return AppendJSON(nil, o) }

// MarshalJSON writes the integer as it was read.
func (i Int) MarshalJSON() ([]byte, error) { return []byte(i), nil }

// MarshalJSON writes the float in Python's repr (so 2.0 stays 2.0);
// NaN and infinities, which JSON cannot hold, become null.
func (f Float) MarshalJSON() ([]byte, error) { return AppendJSON(nil, f) }

// AppendJSON appends a JSON value as standard JSON (valid for encoding/json,
// compact, keys in order): the bytes MarshalJSON writes.
func AppendJSON(b []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case Float:
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return append(b, "null"...), nil
		}
		return appendPyFloat(b, float64(x)), nil
	case []any:
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = AppendJSON(b, e); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	case *Object:
		if x == nil {
			return append(b, "null"...), nil
		}
		b = append(b, '{')
		for i, f := range x.Fields {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendPyString(b, f.Key)
			b = append(b, ':')
			var err error
			if b, err = AppendJSON(b, f.Val); err != nil {
				return nil, err
			}
		}
		return append(b, '}'), nil
	case string:
		return appendPyString(b, x), nil
	case Int:
		return append(b, x...), nil
	case bool:
		return strconv.AppendBool(b, x), nil
	case nil:
		return append(b, "null"...), nil
	}
	return nil, fmt.Errorf("model: not a JSON value: %T", v)
}
