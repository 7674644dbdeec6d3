package store

import (
	"sync/atomic"
)

// NumSlots is the number of values a Memo holds. Readers number their own
// slots (a node's memo: webui's message and corrected message; the
// session's: lane's predecessors and webui's columns); the store gives
// them no meaning. Few slots keep the memos of neighbouring nodes close.
const NumSlots = 2

// Memo holds what readers derive from one stored node and may reuse on
// every later load: a node never changes once stored (Update replaces it
// and drops its memo), so neither does anything computed from it alone.
// Values are typed any so that the store needs to know nothing of its
// readers. Concurrent loads may race to fill a slot; LoadOrStore keeps the
// first value, so every load sees the same one.
type Memo struct {
	slot [NumSlots]atomic.Value
}

// Load returns the value in slot k, nil when there is none.
func (m *Memo) Load(k int) any { return m.slot[k].Load() }

// LoadOrStore returns the value in slot k, storing v first when the slot is
// empty. Each slot must always hold one concrete type.
func (m *Memo) LoadOrStore(k int, v any) any {
	if m.slot[k].CompareAndSwap(nil, v) {
		return v
	}
	return m.slot[k].Load()
}

// LoadOrMake returns the value in slot k, storing newValue() first when the
// slot is empty: the value is made only when none is stored, which on a
// hot path saves building one to throw away.
func (m *Memo) LoadOrMake(k int, newValue func() any) any {
	if v := m.slot[k].Load(); v != nil {
		return v
	}
	return m.LoadOrStore(k, newValue())
}

// Store replaces the value in slot k: for values a reader validates
// against its inputs on each load and rebuilds when they changed.
func (m *Memo) Store(k int, v any) { m.slot[k].Store(v) }

// Memos are kept in fixed-size chunks so that a Memo never moves while the
// store grows: a load may hold one while a writer appends.
const (
	chunkBits = 6
	chunkSize = 1 << chunkBits
)

type memoTable struct {
	chunks [][]Memo
	shared Memo // per-session values (flag A's predecessors…)
	// updates logs the position of every replaced node, in order; the
	// generation is its length.
	updates []int32
	gen     atomic.Uint64
}

// grow makes room for the memos of n positions.
func (t *memoTable) grow(n int) {
	for len(t.chunks)*chunkSize < n {
		t.chunks = append(t.chunks, make([]Memo, chunkSize))
	}
}

// forget drops the memo of the node at position i, which an update
// replaced, and logs the update.
func (t *memoTable) forget(i int) {
	j := i & (chunkSize - 1)
	t.chunks[i>>chunkBits][j] = Memo{}
	t.updates = append(t.updates, int32(i))
	t.gen.Store(uint64(len(t.updates)))
}

// MemoAt returns the memo of the node at position i.
func (s *Store) MemoAt(i int) *Memo {
	return &s.memo.chunks[i>>chunkBits][i&(chunkSize-1)]
}

// Shared is the session's own memo, for values derived from all of its
// nodes. Such a value must be checked against Generation and Len before
// reuse: appends only add nodes, updates bump the generation.
func (s *Store) Shared() *Memo { return &s.memo.shared }

// Generation counts the stored nodes replaced (Update) since the session
// was built; appends leave it alone. A value derived from the first Len()
// nodes at one generation stays right for those nodes for as long as the
// generation holds; UpdatedSince says which positions a later generation
// changed.
func (s *Store) Generation() uint64 { return s.memo.gen.Load() }

// UpdatedSince returns the positions of the nodes replaced since
// generation gen, in the order of the updates (a position may repeat).
func (s *Store) UpdatedSince(gen uint64) []int32 {
	if gen > uint64(len(s.memo.updates)) {
		return nil
	}
	return s.memo.updates[gen:]
}
