package store

import (
	"fmt"

	"sessiondag/impl/node"
)

// Append adds n unless its id is already stored (then it does nothing and
// reports false). A node without a seq (-1) gets the next one. The history
// file is written before the node becomes visible; a node without a caller
// becomes the in-memory head (legacy §2.1).
func (s *Store) Append(n *node.Node) (bool, error) {
	if _, dup := s.byID[n.ID]; dup {
		return false, nil
	}
	if err := ValidateID(n.ID); err != nil {
		return false, fmt.Errorf("append to session %s: %w", s.ID, err)
	}
	if n.Metadata == nil {
		n.Metadata = &node.Obj{}
	}
	if n.Seq < 0 {
		n.Seq = s.nextSeq
	}
	if s.Dir != "" {
		if err := s.writeNode(n); err != nil {
			return false, err
		}
	}
	s.index(n)
	if !hasCaller(n) {
		s.head = n.ID
	}
	return true, nil
}

// Update changes a stored node in place: fn edits a copy (fields and
// metadata), which then replaces the node and its file. Edge indexes are not
// touched: they keep append-time values until the next cold load, as in the
// original.
func (s *Store) Update(id string, fn func(*node.Node)) error {
	i, ok := s.byID[id]
	if !ok {
		return fmt.Errorf("update %s in session %s: no such node", id, s.ID)
	}
	old := s.nodes[i]
	n := old.Clone()
	fn(n)
	n.ID, n.Seq = old.ID, old.Seq
	n.Seal()
	if s.Dir != "" {
		if err := s.writeNode(n); err != nil {
			return err
		}
	}
	s.memo.forget(int(i))
	s.nodes[i] = n
	s.hidden[i] = isHidden(n)
	s.replaceIn(s.byPred, old.ParentID(), old, n)
	s.replaceIn(s.byCaller, old.CalledBy, old, n)
	s.replaceIn(s.byRerun, forkedFrom(old), old, n)
	return nil
}

// replaceIn swaps the pointer under its append-time key; the key itself does
// not move even if the update changed the edge.
func (s *Store) replaceIn(idx map[string][]*node.Node, key string, old, n *node.Node) {
	if key == "" {
		return
	}
	kids := idx[key]
	for i := range kids {
		if kids[i] == old {
			kids[i] = n
			return
		}
	}
}

// SetHead moves the head and persists meta.json (legacy set_head).
func (s *Store) SetHead(id string) error {
	s.head = id
	return s.WriteMeta()
}

// MoveHead moves the in-memory head without a meta write (the shim's silent
// move; the next session-level write persists it).
func (s *Store) MoveHead(id string) { s.head = id }

// UpdateMeta sets session fields and persists meta.json with the current
// in-memory head (legacy update_session).
func (s *Store) UpdateMeta(fields ...node.Member) error {
	for _, m := range fields {
		s.Meta.Set(m.Key, m.Val)
	}
	return s.WriteMeta()
}

// WriteMeta persists meta.json with head_id = the in-memory head.
func (s *Store) WriteMeta() error {
	s.Meta.Set("head_id", node.Str(s.head))
	if s.Dir == "" {
		return nil
	}
	return s.writeMetaFile()
}

// SetNextSeq makes the next append without a seq take n (a session that
// continues numbering from elsewhere, e.g. past 9999).
func (s *Store) SetNextSeq(n int64) { s.nextSeq = n }
