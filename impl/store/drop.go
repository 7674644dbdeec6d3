package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"sessiondag/impl/node"
)

// Drop removes the node with id and its history file (R's drop_message:
// no descendant walk). The seq counter and the head stay as they are; the
// indexes are rebuilt from the nodes left, as the original's removal from
// every index leaves them.
func (s *Store) Drop(id string) error {
	i, ok := s.byID[id]
	if !ok {
		return fmt.Errorf("drop %s from session %s: no such node", id, s.ID)
	}
	gone := s.nodes[i]
	if s.Dir != "" {
		err := os.Remove(filepath.Join(s.Dir, "history", FileName(gone)))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("drop %s from session %s: %w", id, s.ID, err)
		}
	}
	left := slices.DeleteFunc(slices.Clone(s.nodes), func(n *node.Node) bool { return n == gone })
	head, next := s.head, s.nextSeq
	s.reset()
	for _, n := range left {
		s.indexAlways(n)
	}
	s.head, s.nextSeq = head, next
	return nil
}
