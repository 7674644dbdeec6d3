package gen

import (
	"strings"
	"unicode"
)

// textShapes are the shapes of a written text under Python's rules, which
// the models and the implementation each carry: what str.strip trims,
// where str.splitlines splits and what json.dumps escapes.
func textShapes(t string) []string {
	var out []string
	trimmed := strings.TrimFunc(t, pySpace)
	if strings.TrimFunc(t, asciiSpace) != trimmed {
		out = append(out, ShapeTextStripped)
	}
	if trimmed != "" && (nearSpace(first(trimmed)) || nearSpace(last(trimmed))) {
		out = append(out, ShapeTextKept)
	}
	if strings.ContainsFunc(t, func(r rune) bool { return r < 0x20 && !shortEscape(r) }) {
		out = append(out, ShapeTextControl)
	}
	if strings.ContainsFunc(t, func(r rune) bool { return shortEscape(r) && r != '\n' && r != '"' }) {
		out = append(out, ShapeTextShortEscape)
	}
	if strings.ContainsFunc(t, func(r rune) bool {
		return r == '\v' || r == '\f' || r >= 0x1c && r <= 0x1e || r == 0x85 || r == 0x2028 || r == 0x2029
	}) {
		out = append(out, ShapeTextLineSep)
	}
	return out
}

// shortEscape are the characters json.dumps writes as a backslash and a
// letter (or the character itself): \b \t \n \f \r \" \\.
func shortEscape(r rune) bool { return strings.ContainsRune("\b\t\n\f\r\"\\", r) }

// pySpace is what Python's str.strip trims: Unicode whitespace and
// U+001C..U+001F.
func pySpace(r rune) bool { return unicode.IsSpace(r) || r >= 0x1c && r <= 0x1f }

func asciiSpace(r rune) bool { return r == ' ' || r >= '\t' && r <= '\r' }

// nearSpace are the characters Python does not count as whitespace next
// to those it does: the code points on either side of each run of
// pySpace (U+001B and "!" beside U+001C–U+0020, U+200B beside
// U+2000–U+200A, …), the Mongolian vowel separator (whitespace before
// Unicode 6.3) and the byte order mark (once a zero-width no-break space).
func nearSpace(r rune) bool {
	return !pySpace(r) && (pySpace(r-1) || pySpace(r+1) || r == 0x180e || r == 0xfeff)
}

func first(s string) rune {
	for _, r := range s {
		return r
	}
	return 0
}

func last(s string) rune {
	r := []rune(s)
	return r[len(r)-1]
}

// text counts the shapes of a text an op writes.
func (s *shadow) text(t string) {
	for _, shape := range textShapes(t) {
		s.tally.Shape(shape)
	}
}
