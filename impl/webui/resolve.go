package webui

import (
	"sessiondag/impl/adapter"
	"sessiondag/impl/store"
)

// The questions a load asks of every row, each remembered on the row
// (adapter.Message.Resolution): where its tool target, its sibling key and
// its card parent are stored.
const (
	resolveTarget = iota
	resolveSibling
	resolveChild
)

// resolve is s.Pos(id) for an id row m points to, remembered on m under
// slot. A found position stays right for as long as the store lives (its
// ids are unique and nodes never move); a miss is asked again once the
// store has grown.
func resolve(s *store.Store, m *adapter.Message, slot int, id string) (int, bool) {
	if id == "" {
		return 0, false // no node has an empty id
	}
	c := m.Resolution(slot)
	n := int32(s.Len())
	if r := c.Load(); r != nil && r.ID == id && (r.Pos >= 0 || r.N == n) {
		return int(r.Pos), r.Pos >= 0
	}
	p, ok := s.Pos(id)
	r := &adapter.Resolved{ID: id, Pos: -1, N: n}
	if ok {
		r.Pos = int32(p)
	}
	c.Store(r)
	return p, ok
}

// positions resolves the keys of one question by store position, for the
// families built over a load's rows.
type positions struct {
	s    *store.Store
	slot int
}

func (p positions) Len() int                  { return p.s.Len() }
func (p positions) Pos(id string) (int, bool) { return p.s.Pos(id) }

func (p positions) KeyPos(m *adapter.Message, id string) (int, bool) {
	return resolve(p.s, m, p.slot, id)
}
