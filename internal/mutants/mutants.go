// Package mutants is the one registry of the bugs the project plants in
// itself to show that its tests can fail: in the implementation (caught by
// the property suite) and in the judge — the comparisons, the generator,
// the models, the audit and the command (caught by the tests of every
// package that links the code they change).
//
// A mutant is not a switch in production code: it is an edit of the source,
// kept as text in impl.mutants and judge.mutants, and compiled in with
// `go build -overlay` (Overlay). A production file never mentions a
// mutant, and a normal build cannot contain one.
//
// The text format is a diff without line numbers, so that a mutant reads
// like the change it is:
//
//	=== fallback-v1
//	bug: the V1 fallback trigger (chain < 3 and all > 3)
//	--- impl/webui/load.go
//	@@
//	 	trigger := len(chain) < len(all)
//	+	trigger = head.walkable() && len(chain) < 3 && len(all) > 3
//	 	if !r.fl.Has(flags.C) && trigger {
//
// Each hunk (from an `@@` line to the next, or to an empty line: an empty
// line of the code is written as a single space) replaces its old text (the
// lines marked ' ' and '-') by its new text (' ' and '+'); the old text
// must occur exactly once in the file, so a hunk cannot silently apply at
// the wrong place, and an edit of the code that moves it away fails
// TestEveryMutantApplies. A mutant may edit several files and several
// places of one.
package mutants

import (
	"bufio"
	_ "embed"
	"fmt"
	"strings"
)

// Side says which tests must catch a mutant.
type Side string

const (
	// Impl mutants break the implementation (impl/); the property suite
	// (./props) must catch them.
	Impl Side = "impl"
	// Judge mutants break the checker, the models or the audit; the tests
	// of the packages that link the edited code must catch them.
	Judge Side = "judge"
)

// A Mutant is a bug that can be compiled in.
type Mutant struct {
	Name  string
	Side  Side
	Bug   string // what it breaks, as the README's table says it
	Edits []Edit
}

// An Edit replaces Old by New in File (a path from the repository's root,
// with slashes).
type Edit struct {
	File     string
	Old, New string
	Line     int // the line of its hunk in the registry file, for errors
}

// Files is the set of files a mutant edits, in the order of its edits.
func (m Mutant) Files() []string {
	var out []string
	for _, e := range m.Edits {
		if len(out) == 0 || out[len(out)-1] != e.File {
			out = append(out, e.File)
		}
	}
	return out
}

var (
	//go:embed impl.mutants
	implText string
	//go:embed judge.mutants
	judgeText string
)

// All is every mutant, the implementation's first, each side in the order
// of its file.
func All() ([]Mutant, error) {
	impl, err := Parse("impl.mutants", Impl, implText)
	if err != nil {
		return nil, err
	}
	judge, err := Parse("judge.mutants", Judge, judgeText)
	if err != nil {
		return nil, err
	}
	all := append(impl, judge...)
	seen := map[string]bool{}
	for _, m := range all {
		if seen[m.Name] {
			return nil, fmt.Errorf("mutants: two mutants are named %q", m.Name)
		}
		seen[m.Name] = true
	}
	return all, nil
}

// Named is the mutant of that name.
func Named(name string) (Mutant, error) {
	all, err := All()
	if err != nil {
		return Mutant{}, err
	}
	for _, m := range all {
		if m.Name == name {
			return m, nil
		}
	}
	return Mutant{}, fmt.Errorf("mutants: no mutant is named %q", name)
}

// Parse reads a registry file's text (file names it in errors).
func Parse(file string, side Side, text string) ([]Mutant, error) {
	var (
		out  []Mutant
		cur  *Mutant
		path string
		hunk *Edit
		line int
	)
	fail := func(format string, a ...any) error {
		return fmt.Errorf("%s:%d: %s", file, line, fmt.Sprintf(format, a...))
	}
	endHunk := func() error {
		if hunk == nil {
			return nil
		}
		if hunk.Old == hunk.New {
			return fmt.Errorf("%s:%d: the hunk changes nothing", file, hunk.Line)
		}
		if strings.TrimSpace(hunk.Old) == "" {
			return fmt.Errorf("%s:%d: the hunk has no old text to find", file, hunk.Line)
		}
		cur.Edits = append(cur.Edits, *hunk)
		hunk = nil
		return nil
	}
	endMutant := func() error {
		if cur == nil {
			return nil
		}
		if err := endHunk(); err != nil {
			return err
		}
		switch {
		case cur.Bug == "":
			return fail("mutant %s: no bug: line", cur.Name)
		case len(cur.Edits) == 0:
			return fail("mutant %s: no edit", cur.Name)
		}
		out = append(out, *cur)
		cur = nil
		return nil
	}
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line++
		l := sc.Text()
		switch {
		case strings.HasPrefix(l, "=== "):
			if err := endMutant(); err != nil {
				return nil, err
			}
			name := strings.TrimSpace(l[4:])
			if name == "" || strings.ContainsAny(name, " \t,") {
				return nil, fail("a mutant's name is one word: %q", name)
			}
			cur, path = &Mutant{Name: name, Side: side}, ""
		case cur == nil:
			if strings.TrimSpace(l) != "" && !strings.HasPrefix(l, "#") {
				return nil, fail("text before the first mutant (=== NAME)")
			}
		case strings.HasPrefix(l, "bug: ") && path == "":
			cur.Bug = strings.TrimSpace(l[5:])
		case strings.HasPrefix(l, "--- "):
			if err := endHunk(); err != nil {
				return nil, err
			}
			path = strings.TrimSpace(l[4:])
			if path == "" || strings.HasPrefix(path, "/") || strings.Contains(path, "..") || !strings.HasSuffix(path, ".go") {
				return nil, fail("--- names a Go file of the repository by its path from the root: %q", path)
			}
		case l == "@@" || strings.HasPrefix(l, "@@ "):
			if path == "" {
				return nil, fail("a hunk before its file (--- PATH)")
			}
			if err := endHunk(); err != nil {
				return nil, err
			}
			hunk = &Edit{File: path, Line: line}
		case hunk != nil && l == "":
			// An empty line ends a hunk; an empty line of the code is a
			// single space (' ').
			if err := endHunk(); err != nil {
				return nil, err
			}
		case hunk != nil:
			body := l[1:] + "\n"
			switch l[0] {
			case ' ':
				hunk.Old += body
				hunk.New += body
			case '-':
				hunk.Old += body
			case '+':
				hunk.New += body
			default:
				return nil, fail("a hunk's line starts with ' ', '-' or '+': %q", l)
			}
		case strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#"):
		default:
			return nil, fail("unexpected line in mutant %s: %q", cur.Name, l)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if err := endMutant(); err != nil {
		return nil, err
	}
	return out, nil
}
