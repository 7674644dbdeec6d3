// Package termtext makes stored text safe to print on a terminal. Session
// files are data: a message or an id may hold escape sequences that move
// the cursor, rewrite the title or write the clipboard, bidirectional
// overrides that reorder what is shown, or bytes that are not UTF-8. Every
// command that prints stored text passes it through Text or Line.
package termtext

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Text is s with every control character but newline and tab, every
// bidirectional control and every byte that is not UTF-8 written as a Go
// escape (\x1b, \u202e, \xff). Text that needs none is returned as is.
func Text(s string) string { return escape(s, false) }

// Line is Text for a one-line field (an id, a file name, a cut first line):
// newline and tab are escaped too.
func Line(s string) string { return escape(s, true) }

func escape(s string, line bool) string {
	i := 0
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if unsafe(r, size, line) {
			break
		}
		i += size
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case unsafe(r, size, line) && r < 0x80:
			fmt.Fprintf(&b, `\x%02x`, r)
		case unsafe(r, size, line):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// unsafe reports whether a rune must be escaped.
func unsafe(r rune, size int, line bool) bool {
	switch {
	case r == utf8.RuneError && size == 1:
		return true
	case r == '\n' || r == '\t':
		return line
	case r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c:
		return true // bidirectional controls
	}
	return false
}
