package serve

import (
	"reflect"
	"slices"
	"strings"

	"sessiondag/checker/ops"
)

// mintPrefix makes the script's id an id of the server's own.
const mintPrefix = "x"

// minter gives the nodes a session mints ids of the server's own. An id is
// decided where the script first names it: minted there, it becomes the
// server's own; first named as a reference (a row naming one a later op
// writes, a dangling parent), it stays as it is, for the reference and
// for the node a later op may write with it.
type minter struct {
	to   map[string]string // script's id → the server's
	seen map[string]bool
	mine []string // the server's ids, longest first
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
		id := v.Field(i).String()
		if !mints && !names || reserved[id] {
			continue
		}
		if !m.seen[id] {
			m.seen[id] = true
			if mints {
				m.to[id] = mintPrefix + id
				m.mine = append(m.mine, mintPrefix+id)
				slices.SortStableFunc(m.mine, func(a, b string) int { return len(b) - len(a) })
			}
		}
		if to, ok := m.to[id]; ok {
			v.Field(i).SetString(to)
		}
	}
	return v.Interface().(ops.Op)
}

// back is the script's name of a node id the server wrote: each whole id
// of its own in it (a derived id holds its base: x1_reply) the script's.
func (m *minter) back(id string) string {
	var b strings.Builder
	for p := 0; p < len(id); {
		matched := ""
		if p == 0 || !alnum(id[p-1]) {
			for _, own := range m.mine {
				if strings.HasPrefix(id[p:], own) && (p+len(own) == len(id) || !alnum(id[p+len(own)])) {
					matched = own
					break
				}
			}
		}
		if matched != "" {
			b.WriteString(strings.TrimPrefix(matched, mintPrefix))
			p += len(matched)
			continue
		}
		b.WriteByte(id[p])
		p++
	}
	return b.String()
}

func alnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
