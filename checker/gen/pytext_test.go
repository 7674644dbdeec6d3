package gen

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// Python's sets, as its documentation lists them (not as pytext.go
// computes them): str.isspace and so str.strip (Unicode 15), the line
// boundaries of str.splitlines, the short escapes of json.dumps.
var (
	pyWhitespaceDoc = []rune("\t\n\v\f\r\x1c\x1d\x1e\x1f \u0085\u00a0\u1680" +
		"\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a" +
		"\u2028\u2029\u202f\u205f\u3000")
	pyLineBoundaryDoc = []string{"\n", "\r", "\r\n", "\v", "\f", "\x1c", "\x1d", "\x1e", "\u0085", "\u2028", "\u2029"}
	jsonShortDoc      = []rune("\b\t\n\f\r\"\\")
)

func docSpace(r rune) bool { return slices.Contains(pyWhitespaceDoc, r) }

// TestTextsHoldPythonsSpecialCharacters: the generator's texts hold every
// character Python's str.strip, str.splitlines and json.dumps treat
// specially where the rule can be seen to act, and the characters next to
// them where a rule that takes them in would act; every text survives the
// strip of a web message; and each text shape the tally requires is some
// text's.
func TestTextsHoldPythonsSpecialCharacters(t *testing.T) {
	for r := rune(0); r < 0x3100; r++ {
		if pySpace(r) != docSpace(r) {
			t.Errorf("pySpace(%U) = %v; Python's str.isspace says %v", r, pySpace(r), docSpace(r))
		}
	}
	trimmed := map[rune]bool{} // a character of an edge run str.strip removes
	kept := map[rune]bool{}    // the first character an edge keeps
	for _, text := range texts {
		rs := []rune(text)
		i, j := 0, len(rs)
		for i < j && docSpace(rs[i]) {
			trimmed[rs[i]] = true
			i++
		}
		for j > i && docSpace(rs[j-1]) {
			trimmed[rs[j-1]] = true
			j--
		}
		if i == j {
			t.Errorf("%+q is empty once stripped: a web turn refuses it", text)
			continue
		}
		kept[rs[i]], kept[rs[j-1]] = true, true
	}
	for _, r := range pyWhitespaceDoc {
		if !trimmed[r] {
			t.Errorf("no text has %U in a run str.strip removes", r)
		}
	}
	for _, r := range append(neighboursDoc(), 0x180e, 0xfeff) {
		if !kept[r] {
			t.Errorf("no text keeps %U, next to Python's whitespace, at an edge", r)
		}
	}
	inside := func(s string) bool {
		return slices.ContainsFunc(texts, func(text string) bool {
			return strings.Contains(strings.TrimFunc(text, docSpace), s)
		})
	}
	for _, b := range pyLineBoundaryDoc {
		if !inside(b) {
			t.Errorf("no text has the line boundary %+q inside it", b)
		}
	}
	for _, r := range append(jsonShortDoc, 0x01, 0x7f) {
		if !inside(string(r)) {
			t.Errorf("no text has %+q, which json.dumps writes as %s, inside it", r, jsonDumped(r))
		}
	}
	shapes := map[string]bool{}
	for _, text := range texts {
		for _, s := range textShapes(text) {
			shapes[s] = true
		}
	}
	for _, s := range Required {
		if strings.HasPrefix(s, "text ") && !shapes[s] {
			t.Errorf("no text is of the required shape %q", s)
		}
	}
}

// neighboursDoc are the code points next to a run of Python's whitespace
// that are not whitespace themselves.
func neighboursDoc() []rune {
	var out []rune
	for _, r := range pyWhitespaceDoc {
		for _, n := range []rune{r - 1, r + 1} {
			if !docSpace(n) && !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	return out
}

func jsonDumped(r rune) string {
	switch {
	case slices.Contains(jsonShortDoc, r):
		return "a short escape"
	case r < 0x20:
		return fmt.Sprintf(`\u%04x`, r)
	}
	return "itself"
}
