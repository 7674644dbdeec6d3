package ops

import (
	"bufio"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
)

// byKind maps a script's first word to the op type it names.
var byKind = func() map[string]reflect.Type {
	m := make(map[string]reflect.Type, len(All))
	for _, op := range All {
		m[op.Kind()] = reflect.TypeOf(op)
	}
	return m
}()

// Format renders one op as a script line: the kind, then key=value for every
// field that is not its zero value, in the type's field order. Booleans are a
// bare key. Values that are not plain words are Go-quoted.
func Format(op Op) string {
	var b strings.Builder
	b.WriteString(op.Kind())
	v := reflect.ValueOf(op)
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		key := t.Field(i).Tag.Get("op")
		f := v.Field(i)
		switch f.Kind() {
		case reflect.Bool:
			if f.Bool() {
				b.WriteString(" " + key)
			}
		case reflect.String:
			if s := f.String(); s != "" {
				b.WriteString(" " + key + "=" + quote(s))
			}
		}
	}
	return b.String()
}

// Print writes a whole script, one op per line.
func Print(w io.Writer, script []Op) error {
	for _, op := range script {
		if _, err := fmt.Fprintln(w, Format(op)); err != nil {
			return err
		}
	}
	return nil
}

// String renders a whole script.
func String(script []Op) string {
	var b strings.Builder
	_ = Print(&b, script)
	return b.String()
}

func quote(s string) string {
	for _, r := range s {
		if !plain(r) {
			return strconv.Quote(s)
		}
	}
	return s
}

func plain(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' ||
		strings.ContainsRune("_-.:/@+", r)
}

// ParseError locates a problem in a script.
type ParseError struct {
	Name string // the script's file name, or "" for text
	Line int
	Msg  string
}

func (e *ParseError) Error() string {
	if e.Name != "" {
		return fmt.Sprintf("%s:%d: %s", e.Name, e.Line, e.Msg)
	}
	return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
}

// Parse reads a script. Blank lines and `#` comments (whole-line or after an
// op) are ignored. name labels errors.
func Parse(r io.Reader, name string) ([]Op, error) {
	var out []Op
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	line := 0
	for sc.Scan() {
		line++
		op, err := ParseLine(sc.Text())
		if err != nil {
			return nil, &ParseError{Name: name, Line: line, Msg: err.Error()}
		}
		if op != nil {
			if _, ok := op.(Session); ok && len(out) > 0 {
				return nil, &ParseError{Name: name, Line: line, Msg: "session may only be the first op"}
			}
			out = append(out, op)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, &ParseError{Name: name, Line: line + 1, Msg: err.Error()}
	}
	return out, nil
}

// ParseString reads a script from text.
func ParseString(text string) ([]Op, error) { return Parse(strings.NewReader(text), "") }

// ParseLine reads one line; it returns nil for a blank or comment line.
func ParseLine(text string) (Op, error) {
	toks, err := tokenize(text)
	if err != nil {
		return nil, err
	}
	if len(toks) == 0 {
		return nil, nil
	}
	t, ok := byKind[toks[0]]
	if !ok {
		return nil, fmt.Errorf("unknown op %q", toks[0])
	}
	v := reflect.New(t).Elem()
	seen := map[string]bool{}
	for _, tok := range toks[1:] {
		key, val, hasVal := strings.Cut(tok, "=")
		if seen[key] {
			return nil, fmt.Errorf("%s: %s given twice", toks[0], key)
		}
		seen[key] = true
		f, ok := fieldByTag(v, key)
		if !ok {
			return nil, fmt.Errorf("%s has no field %q", toks[0], key)
		}
		switch f.Kind() {
		case reflect.Bool:
			if hasVal {
				b, err := strconv.ParseBool(val)
				if err != nil {
					return nil, fmt.Errorf("%s: %s=%q is not a boolean", toks[0], key, val)
				}
				f.SetBool(b)
			} else {
				f.SetBool(true)
			}
		case reflect.String:
			if !hasVal {
				return nil, fmt.Errorf("%s: %s needs a value", toks[0], key)
			}
			if strings.HasPrefix(val, `"`) {
				s, err := strconv.Unquote(val)
				if err != nil {
					return nil, fmt.Errorf("%s: %s: bad quoted string", toks[0], key)
				}
				val = s
			}
			f.SetString(val)
		}
	}
	return v.Interface().(Op), nil
}

func fieldByTag(v reflect.Value, key string) (reflect.Value, bool) {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		if t.Field(i).Tag.Get("op") == key {
			return v.Field(i), true
		}
	}
	return reflect.Value{}, false
}

// tokenize splits a line on spaces, keeping Go-quoted values (with their
// escapes) whole, and drops a trailing comment.
func tokenize(line string) ([]string, error) {
	var toks []string
	i := 0
	for i < len(line) {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r') {
			i++
		}
		if i >= len(line) || line[i] == '#' {
			break
		}
		start := i
		for i < len(line) && line[i] != ' ' && line[i] != '\t' {
			if line[i] == '"' {
				i++
				for i < len(line) && line[i] != '"' {
					if line[i] == '\\' {
						i++
					}
					i++
				}
				if i >= len(line) {
					return nil, fmt.Errorf("unterminated quoted value")
				}
			}
			i++
		}
		toks = append(toks, line[start:i])
	}
	return toks, nil
}
