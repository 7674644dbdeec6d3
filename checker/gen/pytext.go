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
	if strings.ContainsFunc(t, func(r rune) bool { return r < 0x20 && r != '\n' && r != '\t' }) {
		out = append(out, ShapeTextControl)
	}
	if strings.ContainsFunc(t, func(r rune) bool { return r >= 0x1c && r <= 0x1e || r == 0x85 || r == 0x2028 || r == 0x2029 }) {
		out = append(out, ShapeTextLineSep)
	}
	return out
}

// pySpace is what Python's str.strip trims: Unicode whitespace and
// U+001C..U+001F.
func pySpace(r rune) bool { return unicode.IsSpace(r) || r >= 0x1c && r <= 0x1f }

func asciiSpace(r rune) bool { return r == ' ' || r >= '\t' && r <= '\r' }

// nearSpace are characters Python does not count as whitespace although
// they look like it or once were: zero-width space, the Mongolian vowel
// separator (whitespace before Unicode 6.3), the byte order mark.
func nearSpace(r rune) bool { return r == 0x200b || r == 0x180e || r == 0xfeff }

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
