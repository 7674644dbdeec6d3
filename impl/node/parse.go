package node

import (
	"fmt"
	"slices"
	"strconv"
	"sync"
	"unicode/utf16"
	"unicode/utf8"
)

// SyntaxError locates malformed JSON by byte offset.
type SyntaxError struct {
	Offset int
	Msg    string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("invalid JSON at byte %d: %s", e.Offset, e.Msg)
}

// maxDepth bounds nesting so hostile input cannot exhaust the stack: at
// most this many arrays and objects inside each other, as encoding/json.
const maxDepth = 10000

// Parse decodes one JSON document, keeping object key order and number
// literals. Like Python's json module it accepts NaN, Infinity and -Infinity,
// and rejects invalid UTF-8 (Python cannot decode such a file at all).
func Parse(data []byte) (Value, error) { return ParseString(string(data)) }

// ParseString is Parse of a document held in a string. Strings, keys and
// number literals of the result are substrings of it wherever no escape
// had to be decoded: one copy of the document instead of one allocation
// per string. A first pass (shape) counts each array's elements and each
// object's members, so that each is allocated once, at its size: a
// document costs its values, and no scratch that grows while it is parsed.
func ParseString(data string) (Value, error) { return parse(data, -1) }

// ParseStringLimit is ParseString of a document that may cost at most
// limit bytes of memory (Cost): one that would cost more is refused with a
// *CostError by the first pass, before any of its values is built.
func ParseStringLimit(data string, limit int64) (Value, error) { return parse(data, limit) }

func parse(data string, limit int64) (Value, error) {
	p := parsers.Get().(*parser)
	defer p.release()
	sizes := p.sizes[:0]
	// One size per bracket at most: room made once, none grown.
	n := brackets(data)
	if n > int64(cap(sizes)) {
		sizes = make([]uint32, 0, n)
	}
	stack := p.stack
	cost := shape(data, &sizes, &stack, limit >= 0) + alloc(n*sizeBytes)
	if limit >= 0 && cost > limit {
		return Value{}, &CostError{Size: int64(len(data)), Cost: cost, Limit: limit}
	}
	*p = parser{b: data, sizes: sizes, stack: stack}
	p.ws()
	v, err := p.value(0)
	if err != nil {
		return Value{}, err
	}
	p.ws()
	if p.i != len(p.b) {
		return Value{}, p.errf("trailing data")
	}
	return v, nil
}

// parsers keeps the sizes and stacks of finished parses for the next one:
// a cold load parses thousands of small files in a row.
var parsers = sync.Pool{New: func() any { return new(parser) }}

// release puts the parser back, with its sizes and stack unless a large
// document grew them (a pooled parser would keep them for nothing).
func (p *parser) release() {
	sizes, stack := p.sizes, p.stack
	if cap(sizes) > pooledSizes {
		sizes = nil
	}
	if cap(stack) > pooledSizes {
		stack = nil
	}
	*p = parser{sizes: sizes[:0], stack: stack}
	parsers.Put(p)
}

// pooledSizes is the most sizes a pooled parser keeps.
const pooledSizes = 1 << 12

type parser struct {
	b string
	i int
	// sizes are the elements of each array and the members of each object
	// in the order they open (shape); next is the next one's.
	sizes []uint32
	next  int
	// stack is the first pass's room for its open containers.
	stack []opening
}

// size is the count of the container opening now: its elements or
// members (0 when the first pass could not tell: the document is
// malformed, and the parse says where). It only sizes an allocation: a
// wrong count costs a reallocation, never a wrong value.
func (p *parser) size() int {
	if p.next >= len(p.sizes) {
		return 0
	}
	n := p.sizes[p.next]
	p.next++
	return int(n)
}

func (p *parser) errf(format string, args ...any) error {
	return &SyntaxError{Offset: p.i, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) ws() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// value parses the value at p.i; depth is the number of arrays and objects
// around it.
func (p *parser) value(depth int) (Value, error) {
	if p.i >= len(p.b) {
		return Value{}, p.errf("unexpected end of input")
	}
	switch c := p.b[p.i]; {
	case (c == '{' || c == '[') && depth >= maxDepth:
		return Value{}, p.errf("nesting deeper than %d", maxDepth)
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		s, err := p.str()
		return Str(s), err
	case c == 't':
		return BoolV(true), p.lit("true")
	case c == 'f':
		return BoolV(false), p.lit("false")
	case c == 'n':
		return NullV(), p.lit("null")
	case c == 'N':
		return Num("NaN"), p.lit("NaN")
	case c == 'I':
		return Num("Infinity"), p.lit("Infinity")
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	default:
		return Value{}, p.errf("unexpected character %q", c)
	}
}

func (p *parser) lit(word string) error {
	if len(p.b)-p.i < len(word) || p.b[p.i:p.i+len(word)] != word {
		return p.errf("invalid literal")
	}
	p.i += len(word)
	return nil
}

func (p *parser) number() (Value, error) {
	start := p.i
	if p.b[p.i] == '-' {
		p.i++
		if p.i < len(p.b) && p.b[p.i] == 'I' {
			if err := p.lit("Infinity"); err != nil {
				return Value{}, err
			}
			return Num("-Infinity"), nil
		}
	}
	digits := func() int {
		n := 0
		for p.i < len(p.b) && p.b[p.i] >= '0' && p.b[p.i] <= '9' {
			p.i++
			n++
		}
		return n
	}
	if p.i < len(p.b) && p.b[p.i] == '0' {
		p.i++
	} else if digits() == 0 {
		return Value{}, p.errf("invalid number")
	}
	if p.i < len(p.b) && p.b[p.i] == '.' {
		p.i++
		if digits() == 0 {
			return Value{}, p.errf("invalid number")
		}
	}
	if p.i < len(p.b) && (p.b[p.i] == 'e' || p.b[p.i] == 'E') {
		p.i++
		if p.i < len(p.b) && (p.b[p.i] == '+' || p.b[p.i] == '-') {
			p.i++
		}
		if digits() == 0 {
			return Value{}, p.errf("invalid number")
		}
	}
	return Num(p.b[start:p.i]), nil
}

func (p *parser) str() (string, error) {
	p.i++ // opening quote
	start := p.i
	// Fast path: no escapes, valid UTF-8, no control characters.
	for p.i < len(p.b) {
		c := p.b[p.i]
		if c == '"' {
			s := p.b[start:p.i]
			p.i++
			if !utf8.ValidString(s) {
				return "", &SyntaxError{Offset: start, Msg: "invalid UTF-8 in string"}
			}
			return s, nil
		}
		if c == '\\' || c < 0x20 {
			break
		}
		p.i++
	}
	// The decoded text is never longer than the raw one: room for it made
	// once (Cost counts this buffer and the string copied out of it).
	room := p.i - start + 16 // unterminated: the parse fails below
	if end := stringEnd(p.b, start); end >= 0 {
		room = end - start
	}
	buf := make([]byte, 0, room)
	buf = append(buf, p.b[start:p.i]...)
	for p.i < len(p.b) {
		c := p.b[p.i]
		switch {
		case c == '"':
			// Escapes are ASCII: the raw text is UTF-8 exactly when the
			// bytes copied from it are (the decoded text may hold lone
			// surrogates, which are not).
			if !utf8.ValidString(p.b[start:p.i]) {
				return "", &SyntaxError{Offset: start, Msg: "invalid UTF-8 in string"}
			}
			p.i++
			return string(buf), nil
		case c < 0x20:
			return "", p.errf("control character in string")
		case c == '\\':
			p.i++
			if p.i >= len(p.b) {
				return "", p.errf("unterminated escape")
			}
			e := p.b[p.i]
			p.i++
			switch e {
			case '"', '\\', '/':
				buf = append(buf, e)
			case 'b':
				buf = append(buf, '\b')
			case 'f':
				buf = append(buf, '\f')
			case 'n':
				buf = append(buf, '\n')
			case 'r':
				buf = append(buf, '\r')
			case 't':
				buf = append(buf, '\t')
			case 'u':
				r, err := p.hex4()
				if err != nil {
					return "", err
				}
				if utf16.IsSurrogate(r) && p.i+6 <= len(p.b) && p.b[p.i] == '\\' && p.b[p.i+1] == 'u' {
					save := p.i
					p.i += 2
					r2, err := p.hex4()
					if err == nil {
						if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
							buf = utf8.AppendRune(buf, d)
							continue
						}
					}
					p.i = save
				}
				if utf16.IsSurrogate(r) {
					// Python's json.loads keeps a lone surrogate as a
					// character of its own; WTF-8 keeps it apart from
					// every other one (and from U+FFFD).
					buf = appendWTF8(buf, r)
					continue
				}
				buf = utf8.AppendRune(buf, r)
			default:
				return "", p.errf("invalid escape \\%c", e)
			}
		default:
			buf = append(buf, c)
			p.i++
		}
	}
	return "", p.errf("unterminated string")
}

func (p *parser) hex4() (rune, error) {
	if p.i+4 > len(p.b) {
		return 0, p.errf("short \\u escape")
	}
	n, err := strconv.ParseUint(p.b[p.i:p.i+4], 16, 32)
	if err != nil {
		return 0, p.errf("invalid \\u escape")
	}
	p.i += 4
	return rune(n), nil
}

func (p *parser) array(depth int) (Value, error) {
	p.i++
	elems := make([]Value, 0, p.size())
	p.ws()
	if p.i < len(p.b) && p.b[p.i] == ']' {
		p.i++
		return Arr([]Value{}), nil
	}
	for {
		p.ws()
		v, err := p.value(depth + 1)
		if err != nil {
			return Value{}, err
		}
		elems = append(elems, v)
		p.ws()
		if p.i >= len(p.b) {
			return Value{}, p.errf("unterminated array")
		}
		switch p.b[p.i] {
		case ',':
			p.i++
		case ']':
			p.i++
			// Exactly sized: values are shared once built, and an append
			// by a reader (aggregation adding a tool call, say) must copy
			// rather than write into the node's storage.
			return Arr(slices.Clip(elems)), nil
		default:
			return Value{}, p.errf("expected , or ] in array")
		}
	}
}

func (p *parser) object(depth int) (Value, error) {
	p.i++
	members := make([]Member, 0, p.size())
	p.ws()
	if p.i < len(p.b) && p.b[p.i] == '}' {
		p.i++
		return ObjV(&Obj{}), nil
	}
	var keys map[string]int // key → position in members, once the object is large
	for {
		p.ws()
		if p.i >= len(p.b) || p.b[p.i] != '"' {
			return Value{}, p.errf("expected object key")
		}
		k, err := p.str()
		if err != nil {
			return Value{}, err
		}
		p.ws()
		if p.i >= len(p.b) || p.b[p.i] != ':' {
			return Value{}, p.errf("expected : after key")
		}
		p.i++
		p.ws()
		v, err := p.value(depth + 1)
		if err != nil {
			return Value{}, err
		}
		members, keys = set(members, keys, k, v)
		p.ws()
		if p.i >= len(p.b) {
			return Value{}, p.errf("unterminated object")
		}
		switch p.b[p.i] {
		case ',':
			p.i++
		case '}':
			p.i++
			return ObjV(&Obj{M: slices.Clip(members)}), nil
		default:
			return Value{}, p.errf("expected , or } in object")
		}
	}
}

// set adds a member to an object's members. Python's json keeps the last
// of duplicate keys, at the first key's position. Small objects are
// scanned; past smallObject members the keys go into a map, so that an
// object of n keys costs n, not n²/2.
func set(members []Member, keys map[string]int, k string, v Value) ([]Member, map[string]int) {
	if keys == nil {
		for i := range members {
			if members[i].Key == k {
				members[i].Val = v
				return members, nil
			}
		}
		members = append(members, Member{k, v})
		if len(members) > smallObject {
			keys = make(map[string]int, 2*smallObject)
			for i := range members {
				keys[members[i].Key] = i
			}
		}
		return members, keys
	}
	if i, ok := keys[k]; ok {
		members[i].Val = v
		return members, keys
	}
	keys[k] = len(members)
	return append(members, Member{k, v}), keys
}

// smallObject is the number of members up to which a key is looked up by
// scanning.
const smallObject = 32
