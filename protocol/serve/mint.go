package serve

import (
	"reflect"
	"slices"
	"strings"

	"sessiondag/ops"
)

// mintPrefix makes the script's id an id of the server's own.
const mintPrefix = "x"

// minter gives the nodes a session mints ids of the server's own. An id is
// decided where the script first names it: minted there, it becomes the
// server's own; first named as a reference (a row naming one a later op
// writes, a dangling parent), by itself or as the base of a derived id, it
// stays as it is, for the reference and for the node a later op may write
// with it.
type minter struct {
	to      map[string]string // script's id → the server's
	seen    map[string]bool
	mine    []string // the server's ids, longest first
	scripts []string // the script's ids it renamed, longest first
	refs    []string // ids first seen as a reference
}

// namedBefore reports whether an earlier reference holds id whole (as
// itself or as the base of a derived id): the node keeps the script's id,
// which the reference already names.
func (m *minter) namedBefore(id string) bool {
	for _, r := range m.refs {
		if replaceWords(r, []string{id}, func(string) string { return "" }) != r {
			return true
		}
	}
	return false
}

func newMinter() *minter { return &minter{to: map[string]string{}, seen: map[string]bool{}} }

// reserved are the words of id fields that are not ids.
var reserved = map[string]bool{"": true, "ROOT": true, "none": true, "null": true}

// own is op with every node id in the server's names.
func (m *minter) own(op ops.Op) ops.Op {
	v := reflect.New(reflect.TypeOf(op)).Elem()
	v.Set(reflect.ValueOf(op))
	for i := 0; i < v.NumField(); i++ {
		f := v.Type().Field(i)
		mints := f.Tag.Get("ref") == "new"
		names := f.Tag.Get("ref") == "node" || f.Tag.Get("op") == "caller"
		if !mints && !names {
			continue
		}
		ids := ops.FieldIDs(f, v.Field(i).String())
		for k, id := range ids {
			ids[k] = m.ownID(id, mints, names)
		}
		if len(ids) > 0 {
			v.Field(i).SetString(strings.Join(ids, f.Tag.Get("list")))
		}
	}
	return v.Interface().(ops.Op)
}

// ownID is one id of an id field in the server's names.
func (m *minter) ownID(id string, mints, names bool) string {
	if reserved[id] {
		return id
	}
	if !m.seen[id] {
		m.seen[id] = true
		if names {
			m.refs = append(m.refs, id)
		}
		if mints && !m.namedBefore(id) {
			m.to[id] = mintPrefix + id
			m.mine = append(m.mine, mintPrefix+id)
			m.scripts = append(m.scripts, id)
			longestFirst(m.mine)
			longestFirst(m.scripts)
		}
	}
	if to, ok := m.to[id]; ok {
		return to
	}
	if names {
		return m.words(id) // a derived id: u1_reply
	}
	return id
}

// words is id with each whole minted id in it the server's.
func (m *minter) words(id string) string {
	return replaceWords(id, m.scripts, func(w string) string { return m.to[w] })
}

// back is the script's name of a node id the server wrote: each whole id
// of its own in it (a derived id holds its base: x1_reply) the script's.
func (m *minter) back(id string) string {
	return replaceWords(id, m.mine, func(w string) string { return strings.TrimPrefix(w, mintPrefix) })
}

// replaceWords replaces each of words (longest first) where it stands whole
// in s: neither the character before it nor the one after is a letter or
// digit.
func replaceWords(s string, words []string, to func(string) string) string {
	var b strings.Builder
	for p := 0; p < len(s); {
		matched := ""
		if p == 0 || !alnum(s[p-1]) {
			for _, w := range words {
				if strings.HasPrefix(s[p:], w) && (p+len(w) == len(s) || !alnum(s[p+len(w)])) {
					matched = w
					break
				}
			}
		}
		if matched != "" {
			b.WriteString(to(matched))
			p += len(matched)
			continue
		}
		b.WriteByte(s[p])
		p++
	}
	return b.String()
}

func alnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func longestFirst(ids []string) {
	slices.SortStableFunc(ids, func(a, b string) int { return len(b) - len(a) })
}
