package store

import (
	"encoding/binary"
	"slices"

	"sessiondag/impl/node"
)

// AppendState appends an unambiguous binary encoding of what the session
// holds to b: its id, every stored node in append order, the keys the edge
// indexes hold each node under (their append-time values, which an update
// does not move), the chain roots, the in-memory head, the next seq,
// meta.json, what a cold load could not use, and the update log with the
// generation (what tells a load's memos which nodes changed since they were
// filled). Two stores with equal encodings and empty memos answer every
// reader alike, every later write alike, and fill and refresh their memos
// alike. Left out: where and how the store writes (configuration), the
// count of parent_id reads, and the memos — what loads derived and keep,
// which a reader of the encoding must account for apart (loads fill them;
// writes never read them). Everything else a Store holds (hidden, byID,
// dupIDs, rootMax) is derived from what is encoded.
func (s *Store) AppendState(b []byte) []byte {
	b = node.AppendString(b, s.ID)
	b = binary.AppendUvarint(b, uint64(len(s.nodes)))
	for _, n := range s.nodes {
		b = n.AppendState(b)
	}
	pos := s.positions()
	for _, idx := range []map[string][]*node.Node{s.byPred, s.byCaller, s.byRerun} {
		keys := make([]string, 0, len(idx))
		for k := range idx {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b = binary.AppendUvarint(b, uint64(len(keys)))
		for _, k := range keys {
			b = node.AppendString(b, k)
			b = appendPositions(b, idx[k], pos)
		}
	}
	b = appendPositions(b, s.roots, pos)
	b = node.AppendString(b, s.head)
	b = binary.AppendVarint(b, s.nextSeq)
	b = node.AppendState(b, node.ObjV(s.Meta))
	b = binary.AppendUvarint(b, uint64(len(s.Problems)))
	for _, p := range s.Problems {
		b = node.AppendString(node.AppendString(b, p.File), p.Err.Error())
	}
	if s.LexicalMisorder {
		b = append(b, 1)
	} else {
		b = append(b, 0)
	}
	b = binary.AppendUvarint(b, s.memo.gen.Load())
	b = binary.AppendUvarint(b, uint64(len(s.memo.updates)))
	for _, i := range s.memo.updates {
		b = binary.AppendUvarint(b, uint64(i))
	}
	return b
}

// positions finds a stored node's position by identity: by id while ids are
// unique, else by the node itself (a rebuild over duplicate files).
func (s *Store) positions() func(*node.Node) int {
	if !s.dupIDs {
		return func(n *node.Node) int { return int(s.byID[n.ID]) }
	}
	at := make(map[*node.Node]int, len(s.nodes))
	for i, n := range s.nodes {
		at[n] = i
	}
	return func(n *node.Node) int { return at[n] }
}

func appendPositions(b []byte, ns []*node.Node, pos func(*node.Node) int) []byte {
	b = binary.AppendUvarint(b, uint64(len(ns)))
	for _, n := range ns {
		b = binary.AppendUvarint(b, uint64(pos(n)))
	}
	return b
}
