package webui

import (
	"sync"

	"sessiondag/impl/adapter"
	"sessiondag/impl/history"
)

// aggregated is get_messages and aggregate_tool_messages (steps 1–2), with
// the index of the aggregated rows the later steps look things up in.
func (r *reader) aggregated() (raw, all []*adapter.Message, rows rowIndex) {
	if !r.useColumns() {
		raw = r.messages()
		all = r.rules.Aggregate(raw)
		return raw, all, rowIndex{r: r, all: all, byID: history.IndexByID(all)}
	}
	c := r.columns()
	n := c.n
	sc := getScratch(n)
	raw = make([]*adapter.Message, 0, n)
	into := sc.into // 1 + the position a tool row folds into
	for p := range n {
		m := c.msg[p]
		if m == nil {
			continue
		}
		raw = append(raw, m)
		if c.kind[p]&kindTool == 0 {
			continue
		}
		t := c.target[p]
		if t == keyOther { // an id appended after the row: ask again
			t = r.idColumn(r.rules.ToolTarget(m))
		}
		if t >= 0 && c.kind[t]&kindAssistant != 0 {
			into[p] = t + 1
		}
	}
	start := sc.start
	calls := callLists(c.msg, into, start, sc.next)
	all = make([]*adapter.Message, 0, len(raw)-len(calls))
	rows = rowIndex{r: r, c: c, pos: make([]int32, 0, cap(all)), at: sc.at, scratch: sc}
	for p := range n {
		m := c.msg[p]
		if m == nil || into[p] != 0 {
			continue
		}
		k := c.kind[p]
		if k&kindAssistant != 0 && (start[p+1] > start[p] || k&kindBlocks != 0) {
			m = c.folded(p, m, calls[start[p]:start[p+1]])
		}
		all = append(all, m)
		rows.pos = append(rows.pos, int32(p))
		rows.at[p] = int32(len(all))
	}
	rows.all = all
	return raw, all, rows
}

// rowIndex finds one load's aggregated rows by id and groups them. Over
// columns it works by store position (pos[i] is row i's, at[p] is 1 + the
// row at position p); otherwise through maps keyed by id, the last row
// winning as in the original (a store with duplicate ids).
type rowIndex struct {
	r    *reader
	all  []*adapter.Message
	byID map[string]*adapter.Message

	c       *columns
	pos, at []int32
	scratch *scratch // at's storage, back to the pool when the load is done
}

// scratch is a load's work arrays by store position, reused between loads:
// zeroing them costs less than asking the runtime for a few megabytes on
// every load of a large session.
type scratch struct{ into, start, next, at []int32 }

var scratches = sync.Pool{New: func() any { return new(scratch) }}

func getScratch(n int) *scratch {
	sc := scratches.Get().(*scratch)
	sc.into, sc.start, sc.next, sc.at = zeroed(sc.into, n), zeroed(sc.start, n+1), zeroed(sc.next, n), zeroed(sc.at, n)
	return sc
}

func zeroed(s []int32, n int) []int32 {
	if cap(s) < n {
		return make([]int32, n)
	}
	s = s[:n]
	clear(s)
	return s
}

// release returns the index's work arrays to the pool; the index must not
// be used afterwards.
func (x *rowIndex) release() {
	if x.scratch != nil {
		scratches.Put(x.scratch)
		x.scratch, x.at = nil, nil
	}
}

func (x rowIndex) get(id string) (*adapter.Message, bool) {
	if x.c == nil {
		m, ok := x.byID[id]
		return m, ok
	}
	if p, ok := x.r.s.Pos(id); ok && x.at[p] != 0 {
		return x.all[x.at[p]-1], true
	}
	return nil, false
}

// index is the row index of id.
func (x rowIndex) index(id string) (int, bool) {
	if p, ok := x.r.s.Pos(id); ok && x.at[p] != 0 {
		return int(x.at[p] - 1), true
	}
	return 0, false
}

// withKind returns the rows of a kind (kindAttach, kindRuntime), in order;
// without columns every row, for the caller to select from.
func (x rowIndex) withKind(kind uint8) []*adapter.Message {
	if x.c == nil {
		return x.all
	}
	var out []*adapter.Message
	for i, p := range x.pos {
		if x.c.kind[p]&kind != 0 {
			out = append(out, x.all[i])
		}
	}
	return out
}

// siblings is the sibling index of the rows (step 10).
func (x rowIndex) siblings(key history.SiblingKey) *history.Family {
	if x.c == nil {
		return history.NewFamily(x.all, key)
	}
	return x.grouped(x.c.sib, func(m *adapter.Message) string { return key(m).Str() }, true)
}

// parents indexes the rows by a parent pointer ("" for none): the card
// pass's children.
func (x rowIndex) parents(parent func(*adapter.Message) string) *history.Family {
	if x.c == nil {
		return history.NewParents(x.all, parent)
	}
	return x.grouped(x.c.child, parent, false)
}

// grouped builds a family from a key column: a key naming a stored node is
// the group of that position; null and "" have a group each after them
// (when empty is set, "" is a key, else no key); a string that named no
// node when the column was filled is looked up again, and one that still
// names none gets a group of its own.
func (x rowIndex) grouped(col []int32, keyOf func(*adapter.Message) string, empty bool) *history.Family {
	n := int32(x.c.n)
	nullG, emptyG := n, n+1
	ngroups := n + 2
	var other map[string]int32
	group := make([]int32, len(x.all))
	for i, p := range x.pos {
		g := col[p]
		switch g {
		case keyNull:
			g = nullG
		case keyEmpty:
			g = emptyG
		case keyOther:
			k := keyOf(x.all[i])
			if q, ok := x.r.s.Pos(k); ok {
				g = int32(q)
				break
			}
			if other == nil {
				other = map[string]int32{}
			}
			o, seen := other[k]
			if !seen {
				o = ngroups
				ngroups++
				other[k] = o
			}
			g = o
		}
		group[i] = g
	}
	groupOf := func(key string) (int32, bool) {
		if key == "" {
			return emptyG, empty
		}
		if q, ok := x.r.s.Pos(key); ok {
			return int32(q), true
		}
		o, ok := other[key]
		return o, ok
	}
	return history.NewGrouped(x.all, group, int(ngroups), x.index, groupOf)
}

// rowSet is a set of rows by id: by store position over columns (ids are
// unique, and every row carries its node's position), else by id. The
// zero set is empty and holds nothing.
type rowSet struct {
	at  []bool
	ids map[string]struct{}
}

func (x rowIndex) newSet() rowSet {
	if x.c != nil {
		return rowSet{at: make([]bool, x.c.n)}
	}
	return rowSet{ids: map[string]struct{}{}}
}

func (d rowSet) has(m *adapter.Message) bool {
	if d.at != nil && m.Pos >= 0 && int(m.Pos) < len(d.at) {
		return d.at[m.Pos]
	}
	_, ok := d.ids[m.ID]
	return ok
}

func (d *rowSet) add(m *adapter.Message) {
	if d.at != nil && m.Pos >= 0 && int(m.Pos) < len(d.at) {
		d.at[m.Pos] = true
		return
	}
	if d.ids == nil {
		d.ids = map[string]struct{}{}
	}
	d.ids[m.ID] = struct{}{}
}
