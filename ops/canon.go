package ops

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// Canonical renames a script's ids: every name the script mints (a field
// tagged ref:"new", a tool call's `call` id) becomes n1, n2, … in the order
// the script mints them, and every id field follows the renaming, whole ids
// inside derived ones included (`n3_reply` of n3, `n3_reply_t_n4` of a call
// n4), wherever the name appears: a reference (ref:"node") or an orphan's
// caller may name a node a later op writes. Names the script never mints
// (ROOT, none, a dangling parent or caller) stay as they are, and no
// canonical name is one of their words, so the renamed script means what
// the script meant. Two scripts equal up to a renaming of the names they
// mint have the same canonical form, and Canonical(Canonical(s)) is
// Canonical(s).
func Canonical(script []Op) []Op { return NewRenamer(script).Script(script) }

// reserved are words that mean something of their own in an id field (a
// parent keyword, the root, the parts of a derived id): a script that mints
// one keeps it, since renaming it would change what the script says.
var reserved = map[string]bool{"ROOT": true, "none": true, "null": true, "reply": true, "t": true}

// A Renamer maps the names a script mints to their canonical names. Its
// String renames the whole names inside any text, such as the args of a
// script's `#!` directives.
type Renamer struct {
	to  map[string]string
	ids []string // the minted names, longest first: where two match at one place the longer wins
}

// NewRenamer gives script's minted names their canonical names, skipping
// any n<k> that appears in an id field as a name the script does not mint.
func NewRenamer(script []Op) *Renamer {
	r := &Renamer{to: map[string]string{}}
	var order []string // the minted names in mint order, each once
	eachID(script, func(id string, mints bool) {
		if mints && id != "" && !reserved[id] && r.to[id] == "" {
			r.to[id] = id // named below
			order = append(order, id)
		}
	})
	r.ids = slices.Clone(order)
	slices.SortStableFunc(r.ids, func(a, b string) int { return len(b) - len(a) })
	taken := map[string]bool{}
	eachID(script, func(id string, _ bool) {
		r.each(id, func(part string, minted bool) {
			if !minted {
				for _, w := range strings.FieldsFunc(part, func(c rune) bool { return c > 0x7f || !alnum(byte(c)) }) {
					taken[w] = true
				}
			}
		})
	})
	k := 0
	for _, id := range order {
		name := ""
		for name == "" || taken[name] {
			k++
			name = fmt.Sprintf("n%d", k)
		}
		r.to[id] = name
	}
	return r
}

// Script returns script with every id field renamed.
func (r *Renamer) Script(script []Op) []Op {
	out := make([]Op, len(script))
	for j, op := range script {
		v := reflect.New(reflect.TypeOf(op)).Elem()
		v.Set(reflect.ValueOf(op))
		for i := 0; i < v.NumField(); i++ {
			if IDField(v.Type().Field(i)) {
				v.Field(i).SetString(r.String(v.Field(i).String()))
			}
		}
		out[j] = v.Interface().(Op)
	}
	return out
}

// String replaces every whole minted name in s by its canonical name.
func (r *Renamer) String(s string) string {
	var b strings.Builder
	r.each(s, func(part string, minted bool) {
		if minted {
			part = r.to[part]
		}
		b.WriteString(part)
	})
	return b.String()
}

// each cuts s into the minted names it holds and the text between them, in
// order. A name matches where neither the character before it nor the one
// after is a letter or digit: `_` joins a derived id to its base, a quote or
// `-` surrounds an id in a file.
func (r *Renamer) each(s string, f func(part string, minted bool)) {
	from := 0
	for p := 0; p < len(s); p++ {
		if p > 0 && alnum(s[p-1]) {
			continue
		}
		if id := r.match(s[p:]); id != "" {
			if from < p {
				f(s[from:p], false)
			}
			f(id, true)
			p += len(id) - 1
			from = p + 1
		}
	}
	if from < len(s) {
		f(s[from:], false)
	}
}

func (r *Renamer) match(s string) string {
	for _, id := range r.ids {
		if strings.HasPrefix(s, id) && (len(s) == len(id) || !alnum(s[len(id)])) {
			return id
		}
	}
	return ""
}

func alnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// IDField reports whether a field of an op holds an id: one the op mints or
// one it names (a reference, an orphan's caller), so not a value such as a
// text or a tool's arguments.
func IDField(f reflect.StructField) bool {
	mints, names := idField(f)
	return mints || names
}

// idField tells whether a field mints a name (ref:"new", a tool call's id)
// or names one that may be written before it, after it or never
// (ref:"node", an orphan's caller).
func idField(f reflect.StructField) (mints, names bool) {
	switch {
	case f.Tag.Get("ref") == "new" || f.Tag.Get("op") == "call":
		return true, false
	case f.Tag.Get("ref") == "node" || f.Tag.Get("op") == "caller":
		return false, true
	}
	return false, false
}

// eachID calls f with the value of every id field of script, in order.
func eachID(script []Op, f func(id string, mints bool)) {
	for _, op := range script {
		v := reflect.ValueOf(op)
		for i := 0; i < v.NumField(); i++ {
			if mints, names := idField(v.Type().Field(i)); mints || names {
				ids := FieldIDs(v.Type().Field(i), v.Field(i).String())
				if len(ids) == 0 {
					ids = []string{""}
				}
				for _, id := range ids {
					f(id, mints)
				}
			}
		}
	}
}
