package props

import (
	"regexp"
	"strings"
)

// selected reports whether a test of the given full name runs under the
// patterns of -test.run and -test.skip, as package testing matches them:
// each pattern is alternatives split on a top-level |, each alternative
// regexps split on a top-level / that match the name's levels in turn,
// a level beyond the pattern matching anything; a name is skipped when it
// or a test above it matches every level of a skip alternative.
func selected(name, run, skip string) bool {
	elems := strings.Split(name, "/")
	if run != "" && !matchAny(run, elems, true) {
		return false
	}
	if skip == "" {
		return true
	}
	for i := range elems {
		if matchAny(skip, elems[:i+1], false) {
			return false
		}
	}
	return true
}

// matchAny reports whether the levels elems match one alternative of
// pattern; a pattern with more levels than elems matches only when
// partial is allowed.
func matchAny(pattern string, elems []string, partial bool) bool {
	for _, alt := range split(pattern, '|') {
		levels := split(alt, '/')
		if len(levels) > len(elems) && !partial {
			continue
		}
		ok := true
		for i, e := range elems {
			if i >= len(levels) {
				break
			}
			re, err := regexp.Compile(rewrite(levels[i]))
			if err != nil || !re.MatchString(e) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// split cuts s at each sep outside brackets and parentheses (a / or | in
// a class or a group belongs to the regexp).
func split(s string, sep byte) []string {
	var out []string
	brackets, parens, start := 0, 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '[':
			brackets++
		case ']':
			brackets = max(0, brackets-1)
		case '(':
			if brackets == 0 {
				parens++
			}
		case ')':
			if brackets == 0 {
				parens--
			}
		case sep:
			if brackets == 0 && parens == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

// rewrite is a subtest's name as package testing writes it: spaces become
// underscores.
func rewrite(s string) string { return strings.ReplaceAll(s, " ", "_") }
