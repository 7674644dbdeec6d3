package store

import (
	"errors"
	"maps"
	"slices"
	"sync/atomic"

	"sessiondag/impl/node"
)

// Fork returns a copy of an in-memory session that later writes to either
// leave the other alone: the state AppendState encodes, with memos as empty
// as a session's that no load has read (the update log and its generation
// are kept: they are state). Stored nodes are shared, since a node never
// changes once stored (Update replaces it). A session with a directory has
// no fork: its files would be shared.
func (s *Store) Fork() (*Store, error) {
	if s.Dir != "" {
		return nil, errors.New("store: fork of session " + s.ID + ": it is written to " + s.Dir)
	}
	c := *s // the scalars; every reference below is copied
	c.ParentReads = new(atomic.Int64)
	c.nodes, c.hidden, c.byID = slices.Clone(s.nodes), slices.Clone(s.hidden), maps.Clone(s.byID)
	c.byPred, c.byCaller, c.byRerun = cloneIndex(s.byPred), cloneIndex(s.byCaller), cloneIndex(s.byRerun)
	c.roots, c.rootMax = slices.Clone(s.roots), slices.Clone(s.rootMax)
	c.Meta, c.commits = s.Meta.Clone(), &commitCache{}
	c.Problems, c.Notes = slices.Clone(s.Problems), slices.Clone(s.Notes)
	c.memo = &memoTable{updates: slices.Clone(s.memo.updates)}
	c.memo.gen.Store(s.memo.gen.Load())
	c.memo.grow(len(c.nodes))
	return &c, nil
}

// cloneIndex copies an edge index: an append adds to its lists and an
// update swaps pointers in them, in place.
func cloneIndex(idx map[string][]*node.Node) map[string][]*node.Node {
	c := make(map[string][]*node.Node, len(idx))
	for k, v := range idx {
		c[k] = slices.Clone(v)
	}
	return c
}
