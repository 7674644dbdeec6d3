package store

import (
	"sync"

	"sessiondag/impl/node"
)

// Memo holds what readers derive from one stored node and may reuse on
// every later load: a node never changes once stored (Update replaces it),
// so neither does anything computed from it alone. Values are typed any so
// that the store needs to know nothing of its readers; each reader keeps to
// its own slot.
type Memo struct {
	once    sync.Once
	message any

	mu        sync.Mutex
	corrected map[string]any // the message with a corrected parent, by predecessor
}

// Corrected returns the memoized variant of the node's message for a
// conversation predecessor (flag A), building it with build the first time.
// A node's predecessor depends only on what was written before it, so one
// variant serves every load.
func (m *Memo) Corrected(pred string, build func() any) any {
	m.mu.Lock()
	defer m.mu.Unlock()
	if v, ok := m.corrected[pred]; ok {
		return v
	}
	if m.corrected == nil {
		m.corrected = make(map[string]any, 1)
	}
	v := build()
	m.corrected[pred] = v
	return v
}

// Message returns the memoized message of the node, building it with build
// the first time (concurrent loads build it once).
func (m *Memo) Message(build func() any) any {
	m.once.Do(func() { m.message = build() })
	return m.message
}

type memoTable struct {
	mu sync.Mutex
	m  map[*node.Node]*Memo
}

// MemoOf returns the memo of a stored node, creating it on first use.
func (s *Store) MemoOf(n *node.Node) *Memo {
	s.memo.mu.Lock()
	defer s.memo.mu.Unlock()
	if s.memo.m == nil {
		s.memo.m = make(map[*node.Node]*Memo, len(s.nodes))
	}
	e, ok := s.memo.m[n]
	if !ok {
		e = &Memo{}
		s.memo.m[n] = e
	}
	return e
}

// forget drops the memo of a node that an update replaced.
func (s *Store) forget(n *node.Node) {
	s.memo.mu.Lock()
	delete(s.memo.m, n)
	s.memo.mu.Unlock()
}
