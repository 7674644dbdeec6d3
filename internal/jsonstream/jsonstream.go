// Package jsonstream checks that a stream is one valid JSON document
// (RFC 8259, UTF-8) at any nesting depth: views nest deeper than
// encoding/json's decoders take, and may be larger than memory.
package jsonstream

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"strings"
	"unicode/utf8"
)

// Check reads one JSON document from r to its end without recursion — a
// stack of the open containers, strings with their escapes and UTF-8,
// numbers and literals by their grammar — and returns the deepest nesting
// it saw, or what is wrong and where.
func Check(in io.Reader) (depth int, err error) {
	sc := &scanner{r: bufio.NewReaderSize(in, 1<<20)}
	err = sc.document()
	return sc.deepest, err
}

// scanner is the state of one Check: the input, the bytes read, the open
// containers ('[' or '{') and the deepest nesting seen.
type scanner struct {
	r       *bufio.Reader
	off     int64
	stack   []byte
	deepest int
}

func (s *scanner) next() (byte, error) {
	c, err := s.r.ReadByte()
	s.off++
	return c, err
}

// skipWS returns the next byte that is not white space.
func (s *scanner) skipWS() (byte, error) {
	for {
		c, err := s.next()
		if err != nil || (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
			return c, err
		}
	}
}

func (s *scanner) bad(what string) error { return fmt.Errorf("%s at byte %d", what, s.off) }

// str reads a string after its opening quote.
func (s *scanner) str() error {
	var buf []byte
	for {
		c, err := s.next()
		if err != nil {
			return s.bad("unterminated string")
		}
		switch {
		case c == '"':
			if !utf8.Valid(buf) {
				return s.bad("a string that is not UTF-8")
			}
			return nil
		case c < 0x20:
			return s.bad("a control character in a string")
		case c == '\\':
			if err := s.escape(); err != nil {
				return err
			}
		default:
			buf = append(buf, c)
		}
	}
}

// escape reads a string's escape after its backslash.
func (s *scanner) escape() error {
	e, err := s.next()
	if err != nil {
		return s.bad("unterminated escape")
	}
	if e != 'u' {
		if !strings.ContainsRune(`"\\/bfnrt`, rune(e)) {
			return s.bad("a bad escape")
		}
		return nil
	}
	for k := 0; k < 4; k++ {
		h, err := s.next()
		if err != nil || !strings.ContainsRune("0123456789abcdefABCDEF", rune(h)) {
			return s.bad("a bad \\u escape")
		}
	}
	return nil
}

// scalar reads a number or literal starting with c; it returns the byte
// after it (io.EOF at the end of the input).
func (s *scanner) scalar(c byte) (byte, error) {
	var lit []byte
	for {
		lit = append(lit, c)
		var err error
		if c, err = s.next(); err != nil || strings.IndexByte(" \t\n\r,]}", c) >= 0 {
			if !numberOrLiteral.Match(lit) {
				return 0, s.bad(fmt.Sprintf("a bad value %q", lit))
			}
			if err != nil {
				return 0, io.EOF
			}
			return c, nil
		}
	}
}

// key reads an object's key starting with c and the colon after it; it
// returns the first byte of the value.
func (s *scanner) key(c byte) (byte, error) {
	if c != '"' {
		return 0, s.bad("a key that is not a string")
	}
	if err := s.str(); err != nil {
		return 0, err
	}
	if c, err := s.skipWS(); err != nil || c != ':' {
		return 0, s.bad("no : after a key")
	}
	c, err := s.skipWS()
	if err != nil {
		return 0, s.bad("unexpected end")
	}
	return c, nil
}

// document reads the whole input as one value, without recursion.
func (s *scanner) document() error {
	c, err := s.skipWS()
	for {
		if err != nil {
			return s.bad("unexpected end")
		}
		// A value starts with c.
		var after byte
		switch c {
		case '[', '{':
			var opened bool
			if c, opened, err = s.open(c); err != nil {
				return err
			}
			if opened {
				continue
			}
		case '"':
			if err := s.str(); err != nil {
				return err
			}
		default:
			if after, err = s.scalar(c); err != nil && err != io.EOF {
				return err
			}
			if err == io.EOF && len(s.stack) == 0 {
				return nil
			}
		}
		var done bool
		if c, done, err = s.afterValue(after); done || err != nil {
			return err
		}
	}
}

// open reads a container's opening bracket c: opened, the first byte of
// its first value; else it was empty and closed at once.
func (s *scanner) open(c byte) (next byte, opened bool, err error) {
	s.stack = append(s.stack, c)
	s.deepest = max(s.deepest, len(s.stack))
	if c, err = s.skipWS(); err != nil {
		return 0, false, s.bad("unexpected end")
	}
	top := s.stack[len(s.stack)-1]
	if c == ']' && top == '[' || c == '}' && top == '{' {
		s.stack = s.stack[:len(s.stack)-1]
		return 0, false, nil
	}
	if top == '{' {
		if c, err = s.key(c); err != nil {
			return 0, false, err
		}
	}
	return c, true, nil
}

// afterValue reads what follows a value (after is the byte already read
// after it, 0 for none): closing brackets, then a separator and the first
// byte of the next value — or the end of the document (done).
func (s *scanner) afterValue(after byte) (next byte, done bool, err error) {
	for {
		if after == 0 || after == ' ' || after == '\t' || after == '\n' || after == '\r' {
			if after, err = s.skipWS(); err != nil {
				if len(s.stack) == 0 && err == io.EOF {
					return 0, true, nil
				}
				return 0, true, s.bad("unexpected end")
			}
		}
		if len(s.stack) == 0 {
			return 0, true, s.bad("data after the document")
		}
		top := s.stack[len(s.stack)-1]
		switch {
		case after == ',':
			c, err := s.skipWS()
			if err != nil {
				return 0, true, s.bad("unexpected end")
			}
			if top == '{' {
				if c, err = s.key(c); err != nil {
					return 0, true, err
				}
			}
			return c, false, nil
		case after == ']' && top == '[', after == '}' && top == '{':
			s.stack = s.stack[:len(s.stack)-1]
			after = 0
		default:
			return 0, true, s.bad(fmt.Sprintf("unexpected %q", after))
		}
	}
}

var numberOrLiteral = regexp.MustCompile(`^(-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?|true|false|null)$`)
