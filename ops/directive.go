package ops

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// A Directive is a `#!` line of a script file: an instruction to whatever
// replays the script (which check reproduces a failure, what was done to the
// session's files after the writers wrote them), not an op. A reader that
// does not know directives sees a comment, so scripts stay readable by
// ParseString.
type Directive struct {
	Name string
	Args []Arg
}

// Arg is one key=value of a directive, in the order written.
type Arg struct{ Key, Value string }

// Get returns the value of key and whether the directive has it.
func (d Directive) Get(key string) (string, bool) {
	for _, a := range d.Args {
		if a.Key == key {
			return a.Value, true
		}
	}
	return "", false
}

// String renders the directive as its script line.
func (d Directive) String() string {
	var b strings.Builder
	b.WriteString("#! " + d.Name)
	for _, a := range d.Args {
		b.WriteString(" " + a.Key + "=" + quote(a.Value))
	}
	return b.String()
}

// File is a whole script file: comment lines before the first op (its
// header), its directives and its ops, each in the order written.
type File struct {
	Header     []string // comment lines before the first op, without "# "
	Directives []Directive
	Ops        []Op
}

// Directive returns the first directive called name.
func (f *File) Directive(name string) (Directive, bool) {
	for _, d := range f.Directives {
		if d.Name == name {
			return d, true
		}
	}
	return Directive{}, false
}

// String renders the file: header comments, directives, then the ops.
func (f *File) String() string {
	var b strings.Builder
	for _, h := range f.Header {
		b.WriteString("# " + h + "\n")
	}
	for _, d := range f.Directives {
		b.WriteString(d.String() + "\n")
	}
	b.WriteString(String(f.Ops))
	return b.String()
}

// ParseFile reads a script file with its directives. name labels errors.
func ParseFile(r io.Reader, name string) (*File, error) {
	f := &File{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 64<<20)
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		trimmed := strings.TrimSpace(text)
		switch {
		case strings.HasPrefix(trimmed, "#!"):
			d, err := parseDirective(trimmed[2:])
			if err != nil {
				return nil, &ParseError{Name: name, Line: line, Msg: err.Error()}
			}
			f.Directives = append(f.Directives, d)
			continue
		case strings.HasPrefix(trimmed, "#") && len(f.Ops) == 0:
			f.Header = append(f.Header, strings.TrimPrefix(strings.TrimPrefix(trimmed, "#"), " "))
			continue
		}
		op, err := ParseLine(text)
		if err != nil {
			return nil, &ParseError{Name: name, Line: line, Msg: err.Error()}
		}
		if op == nil {
			continue
		}
		if _, ok := op.(Session); ok && len(f.Ops) > 0 {
			return nil, &ParseError{Name: name, Line: line, Msg: "session may only be the first op"}
		}
		f.Ops = append(f.Ops, op)
	}
	if err := sc.Err(); err != nil {
		return nil, &ParseError{Name: name, Msg: err.Error()}
	}
	return f, nil
}

func parseDirective(text string) (Directive, error) {
	toks, err := tokenize(text)
	if err != nil {
		return Directive{}, err
	}
	if len(toks) == 0 {
		return Directive{}, fmt.Errorf("empty directive")
	}
	d := Directive{Name: toks[0]}
	for _, tok := range toks[1:] {
		key, val, ok := strings.Cut(tok, "=")
		if !ok {
			return Directive{}, fmt.Errorf("directive %s: %q is not key=value", d.Name, tok)
		}
		if strings.HasPrefix(val, `"`) {
			s, err := strconv.Unquote(val)
			if err != nil {
				return Directive{}, fmt.Errorf("directive %s: %s: bad quoted string", d.Name, key)
			}
			val = s
		}
		d.Args = append(d.Args, Arg{key, val})
	}
	return d, nil
}
