package webui

import (
	"runtime"
	"slices"
	"sync"

	"sessiondag/impl/adapter"
	"sessiondag/impl/flags"
	"sessiondag/impl/node"
)

// columns hold, by store position, what every load asks of every row under
// one rule set: the row's message, what kind of row it is, and where the
// ids it points to are stored. All of it depends on the node alone (and,
// under flag A, on its predecessor), so it is computed once per node and
// extended as the session grows. A load then runs over these arrays
// instead of dereferencing every message several times: on large sessions
// that pointer chasing, not the work, is what costs.
type columns struct {
	n     int    // positions filled
	gen   uint64 // the store generation they were filled at
	epoch uint64 // flag A's derivation they used (0 without A)

	msg  []*adapter.Message // nil for a hidden node
	kind []uint8
	// The ids a row points to, as store positions or a key* value:
	// tool target (tool rows), sibling key, card parent.
	target, sib, child []int32

	// folds are the assistants' folded copies by position, shared by
	// every later snapshot of these columns (see columns.folded).
	folds []*foldChunk
}

// Row kinds.
const (
	kindAssistant = 1 << iota // role assistant with an id: can receive tool rows
	kindTool                  // role tool
	kindBlocks                // an assistant whose extra has blocks
	kindAttach                // an attach pointer (step 7)
	kindRuntime               // a legacy runtime status row (step 8)
)

// Key values that are not positions.
const (
	keyNone  = -1 // no key: ungrouped, or no target
	keyNull  = -2 // null or missing (sibling key only)
	keyEmpty = -3 // the empty string (sibling key only)
	keyOther = -4 // a string that named no node when the column was filled
)

// columnSlot is the slot of the store's shared memo that holds the
// columns of each rule set (slot 0 is flag A's predecessors).
const columnSlot = 1

// A session's columns by rule set: a load asks under one of a few flag sets,
// so a short list searched in turn costs less than a table of every set
// (a session that is loaded once would pay for clearing it).
type columnTable struct {
	mu    sync.Mutex
	bySet []setColumns
}

type setColumns struct {
	key flags.Set
	c   *columns
}

func (t *columnTable) get(key flags.Set) *columns {
	for _, e := range t.bySet {
		if e.key == key {
			return e.c
		}
	}
	return nil
}

func (t *columnTable) put(key flags.Set, c *columns) {
	for i := range t.bySet {
		if t.bySet[i].key == key {
			t.bySet[i].c = c
			return
		}
	}
	t.bySet = append(t.bySet, setColumns{key, c})
}

// ruleKey is the part of a flag set the columns depend on.
func ruleKey(fl flags.Set) flags.Set {
	return fl &^ flags.C
}

// columns returns the load's columns, filling the positions appended since
// they were last asked for. The returned value is not changed afterwards:
// extending makes a new one that shares its arrays beyond its length.
func (r *reader) columns() *columns {
	t := r.s.Shared().LoadOrMake(columnSlot, func() any { return &columnTable{} }).(*columnTable)
	t.mu.Lock()
	defer t.mu.Unlock()
	var epoch uint64
	if r.preds != nil {
		epoch = r.preds.Epoch()
	}
	key := ruleKey(r.fl)
	c := t.get(key)
	gen, n := r.s.Generation(), r.s.Len()
	if c != nil && c.gen != gen && c.epoch == epoch && c.n <= n {
		// Nodes were replaced, flag A's derivation held: only their
		// positions change.
		c = r.refresh(*c, gen)
		t.put(key, c)
	}
	if c == nil || c.gen != gen || c.epoch != epoch || c.n > n {
		c = &columns{gen: gen, epoch: epoch}
	}
	if c.n < n {
		c = r.extend(*c)
		t.put(key, c)
	}
	return c
}

// refresh fills again the positions of c that nodes replaced since c.gen,
// in copies of the arrays: a load may still hold c.
func (r *reader) refresh(c columns, gen uint64) *columns {
	c.msg, c.kind = slices.Clone(c.msg), slices.Clone(c.kind)
	c.target, c.sib, c.child = slices.Clone(c.target), slices.Clone(c.sib), slices.Clone(c.child)
	nodes := r.s.Nodes()
	for _, i := range r.s.UpdatedSince(c.gen) {
		if int(i) < c.n {
			r.fill(&c, nodes, int(i), int(i)+1)
		}
	}
	c.gen = gen
	return &c
}

// extend fills the positions of c from c.n to the store's length. A large
// fill (the first load of a session) is split between the cores: each
// position depends on its node alone, and everything it reads is shared
// read-only (the memos are safe for concurrent use).
func (r *reader) extend(c columns) *columns {
	nodes := r.s.Nodes()
	from, to := c.n, len(nodes)
	c.msg = grow(c.msg, to)
	c.kind = grow(c.kind, to)
	c.target, c.sib, c.child = grow(c.target, to), grow(c.sib, to), grow(c.child, to)
	for len(c.folds)*foldChunkSize < to {
		c.folds = append(c.folds, new(foldChunk))
	}
	workers := min(runtime.GOMAXPROCS(0), (to-from)/parallelFill)
	if workers < 2 {
		r.fill(&c, nodes, from, to)
	} else {
		var wg sync.WaitGroup
		step := (to - from + workers - 1) / workers
		for lo := from; lo < to; lo += step {
			hi := min(lo+step, to)
			wg.Go(func() { r.fill(&c, nodes, lo, hi) })
		}
		wg.Wait()
	}
	c.n = to
	return &c
}

// parallelFill is the number of positions per core below which a fill is
// not worth splitting.
var parallelFill = 512

// grow extends s to length n; the new elements are zero.
func grow[E any](s []E, n int) []E {
	return slices.Grow(s, n-len(s))[:n]
}

// fill computes positions [lo, hi) of c.
func (r *reader) fill(c *columns, nodes []*node.Node, lo, hi int) {
	for i := lo; i < hi; i++ {
		target, sib, child := int32(keyNone), int32(keyNone), int32(keyNone)
		if r.s.Hidden(i) {
			c.msg[i], c.kind[i] = nil, 0
		} else {
			m := r.messageAt(i, nodes[i])
			kind := r.kindOf(m)
			if kind&kindTool != 0 {
				target = r.idColumn(r.rules.ToolTarget(m))
			}
			sib = r.sibColumn(r.rules.siblingKey(m))
			child = r.idColumn(r.rules.childOf(m))
			c.msg[i], c.kind[i] = m, kind
		}
		c.target[i], c.sib[i], c.child[i] = target, sib, child
	}
}

func (r *reader) kindOf(m *adapter.Message) uint8 {
	var k uint8
	switch {
	case m.Role == "assistant" && m.ID != "":
		k |= kindAssistant
		if extraBlocks(m).Truthy() {
			k |= kindBlocks
		}
	case m.Role == "tool":
		k |= kindTool
	}
	if _, ok := r.attachParentOf(m); ok {
		k |= kindAttach
	}
	if _, ok := r.runtimeRowParentOf(m); ok {
		k |= kindRuntime
	}
	return k
}

// idColumn is an id as a column value: its position, keyNone for "".
func (r *reader) idColumn(id string) int32 {
	if id == "" {
		return keyNone
	}
	if p, ok := r.s.Pos(id); ok {
		return int32(p)
	}
	return keyOther
}

// sibColumn is a sibling key as a column value. Keys group as Python's ==
// does: null and missing together, strings by value; other values are
// equal only to themselves and stay ungrouped.
func (r *reader) sibColumn(v node.Value) int32 {
	switch v.K {
	case node.Missing, node.Null:
		return keyNull
	case node.String:
		if v.S == "" {
			return keyEmpty
		}
		return r.idColumn(v.S)
	}
	return keyNone
}

// useColumns reports whether the load can run over columns: ids unique,
// as appends keep them.
func (r *reader) useColumns() bool { return r.s.UniqueIDs() && !r.maps }
