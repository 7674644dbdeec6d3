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
	r := bufio.NewReaderSize(in, 1<<20)
	err = check(r, &depth)
	return depth, err
}

func check(r *bufio.Reader, deepest *int) error {
	var stack []byte // '[' or '{'
	var off int64
	next := func() (byte, error) {
		c, err := r.ReadByte()
		off++
		return c, err
	}
	skipWS := func() (byte, error) {
		for {
			c, err := next()
			if err != nil || (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
				return c, err
			}
		}
	}
	bad := func(what string) error { return fmt.Errorf("%s at byte %d", what, off) }
	str := func() error {
		var buf []byte
		for {
			c, err := next()
			if err != nil {
				return bad("unterminated string")
			}
			switch {
			case c == '"':
				if !utf8.Valid(buf) {
					return bad("a string that is not UTF-8")
				}
				return nil
			case c < 0x20:
				return bad("a control character in a string")
			case c == '\\':
				e, err := next()
				if err != nil {
					return bad("unterminated escape")
				}
				if e == 'u' {
					for k := 0; k < 4; k++ {
						h, err := next()
						if err != nil || !strings.ContainsRune("0123456789abcdefABCDEF", rune(h)) {
							return bad("a bad \\u escape")
						}
					}
				} else if !strings.ContainsRune(`"\\/bfnrt`, rune(e)) {
					return bad("a bad escape")
				}
			default:
				buf = append(buf, c)
			}
		}
	}
	// scalar reads a number or literal starting with c; it returns the byte
	// after it.
	scalar := func(c byte) (byte, error) {
		var lit []byte
		for {
			lit = append(lit, c)
			var err error
			if c, err = next(); err != nil || strings.IndexByte(" \t\n\r,]}", c) >= 0 {
				if !numberOrLiteral.Match(lit) {
					return 0, bad(fmt.Sprintf("a bad value %q", lit))
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
	key := func(c byte) (byte, error) {
		if c != '"' {
			return 0, bad("a key that is not a string")
		}
		if err := str(); err != nil {
			return 0, err
		}
		if c, err := skipWS(); err != nil || c != ':' {
			return 0, bad("no : after a key")
		}
		c, err := skipWS()
		if err != nil {
			return 0, bad("unexpected end")
		}
		return c, nil
	}
	c, err := skipWS()
	for {
		if err != nil {
			return bad("unexpected end")
		}
		// A value starts with c.
		var after byte
		switch c {
		case '[', '{':
			stack = append(stack, c)
			*deepest = max(*deepest, len(stack))
			if c, err = skipWS(); err != nil {
				return bad("unexpected end")
			}
			if c == ']' && stack[len(stack)-1] == '[' || c == '}' && stack[len(stack)-1] == '{' {
				stack = stack[:len(stack)-1]
				after = 0
				break
			}
			if stack[len(stack)-1] == '{' {
				if c, err = key(c); err != nil {
					return err
				}
			}
			continue
		case '"':
			if err := str(); err != nil {
				return err
			}
		default:
			if after, err = scalar(c); err != nil && err != io.EOF {
				return err
			}
			if err == io.EOF && len(stack) == 0 {
				return nil
			}
		}
		// Then a separator, a closing bracket, or the end.
		for {
			if after == 0 || after == ' ' || after == '\t' || after == '\n' || after == '\r' {
				if after, err = skipWS(); err != nil {
					if len(stack) == 0 && err == io.EOF {
						return nil
					}
					return bad("unexpected end")
				}
			}
			if len(stack) == 0 {
				return bad("data after the document")
			}
			top := stack[len(stack)-1]
			switch {
			case after == ',':
				if c, err = skipWS(); err != nil {
					return bad("unexpected end")
				}
				if top == '{' {
					if c, err = key(c); err != nil {
						return err
					}
				}
			case after == ']' && top == '[', after == '}' && top == '{':
				stack = stack[:len(stack)-1]
				after = 0
				continue
			default:
				return bad(fmt.Sprintf("unexpected %q", after))
			}
			break
		}
	}
}

var numberOrLiteral = regexp.MustCompile(`^(-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?|true|false|null)$`)
