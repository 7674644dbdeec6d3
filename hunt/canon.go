package hunt

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"sessiondag/harness"
	"sessiondag/ops"
)

// Key is what makes two failures the same: the check, the kind of data and
// the reduced script with its ids renamed canonically (Canonical), damage
// directives included. Two reductions that differ only by the generator's
// ids have the same key.
func Key(f *harness.Finding, script []ops.Op) string {
	r := newRenamer(script)
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n", f.Directive().String())
	for _, d := range f.Extra {
		d.Args = slices.Clone(d.Args)
		for i := range d.Args {
			d.Args[i].Value = r.rename(d.Args[i].Value)
		}
		fmt.Fprintf(&b, "%s\n", d.String())
	}
	b.WriteString(ops.String(r.script(script)))
	sum := sha256.Sum256([]byte(b.String()))
	return hex.EncodeToString(sum[:])
}

// Canonical is script with every id renamed to n1, n2, … and every tool
// call id to c1, c2, … in the order the script first mentions them, ids
// derived from them (a reply's `_reply`, a tool row's `_t_`) renamed to
// match. Ids the script does not create (ROOT, a dangling parent) stay.
func Canonical(script []ops.Op) []ops.Op { return newRenamer(script).script(script) }

// renamer maps the ids a script mentions to canonical names.
type renamer struct {
	to  map[string]string
	ids []string // longest first, so a longer id wins where two start
}

// idField tells whether a field of an op holds an id that the script
// introduces (new) or refers to (ref).
func idField(f reflect.StructField) (introduces, refers bool) {
	switch f.Tag.Get("ref") {
	case "new":
		return true, false
	case "node":
		return false, true
	}
	switch f.Tag.Get("op") {
	case "call", "caller": // a tool call id; an orphan's caller, which may be written later
		return true, false
	}
	return false, false
}

func newRenamer(script []ops.Op) *renamer {
	r := &renamer{to: map[string]string{}}
	nodes, calls := 0, 0
	for _, op := range script {
		v := reflect.ValueOf(op)
		for i := 0; i < v.NumField(); i++ {
			introduces, _ := idField(v.Type().Field(i))
			id := v.Field(i).String()
			if !introduces || id == "" || r.to[id] != "" {
				continue
			}
			if v.Type().Field(i).Tag.Get("op") == "call" {
				calls++
				r.to[id] = fmt.Sprintf("c%d", calls)
			} else {
				nodes++
				r.to[id] = fmt.Sprintf("n%d", nodes)
			}
			r.ids = append(r.ids, id)
		}
	}
	slices.SortStableFunc(r.ids, func(a, b string) int { return len(b) - len(a) })
	return r
}

// script renames the ids of every op.
func (r *renamer) script(script []ops.Op) []ops.Op {
	out := make([]ops.Op, len(script))
	for j, op := range script {
		v := reflect.New(reflect.TypeOf(op)).Elem()
		v.Set(reflect.ValueOf(op))
		for i := 0; i < v.NumField(); i++ {
			if introduces, refers := idField(v.Type().Field(i)); introduces || refers {
				v.Field(i).SetString(r.rename(v.Field(i).String()))
			}
		}
		out[j] = v.Interface().(ops.Op)
	}
	return out
}

// rename replaces every whole id in s: an id matches where neither the
// character before nor the one after is a letter or digit (`_` joins a
// derived id to its base, a quote or `-` surrounds one in a file).
func (r *renamer) rename(s string) string {
	var b strings.Builder
	for p := 0; p < len(s); {
		if p == 0 || !alnum(s[p-1]) {
			if id := r.match(s[p:]); id != "" {
				b.WriteString(r.to[id])
				p += len(id)
				continue
			}
		}
		b.WriteByte(s[p])
		p++
	}
	return b.String()
}

func (r *renamer) match(s string) string {
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
