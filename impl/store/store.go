// Package store holds one session: its nodes in append order, the indexes the
// readers need (by id, children by conversation predecessor and by caller,
// retries by the turn they rerun), the head pointer, and the on-disk
// directory behind them.
package store

import (
	"fmt"
	"sort"
	"sync/atomic"

	"sessiondag/impl/node"
)

// Store is one session. Readers treat it as read-only; writers append and
// update through its methods, which keep the indexes and the files in step.
type Store struct {
	ID  string
	Dir string // "" keeps the session in memory only
	// ParentReads counts the reads of parent_id by this session's readers
	// (every message read from it counts here): flag D retires parent_id,
	// so a load under D leaves it alone. Snapshots share it.
	ParentReads *atomic.Int64
	Writes      WriteOptions // how writes to Dir reach the disk

	nodes    []*node.Node     // nodes_by_seq: append order
	hidden   []bool           // by position: ROOT or rewound, skipped by get_messages
	byID     map[string]int32 // position; last wins on duplicate ids
	dupIDs   bool             // a rebuild kept two nodes with one id
	byPred   map[string][]*node.Node
	byCaller map[string][]*node.Node
	byRerun  map[string][]*node.Node
	head     string
	nextSeq  int64
	memo     *memoTable   // derived values per position (shared by AtPersistedHead copies)
	roots    []*node.Node // chain roots in append order (get_branch rule 3)
	rootMax  []int64      // running maximum of their seqs

	// Meta is meta.json as read or written, keys in order. Its head_id is
	// rewritten from the in-memory head on every session-level write.
	Meta *node.Obj

	commits *commitCache // context commits read so far (shared by copies)

	// Problems lists the files a cold load could not use. The original
	// skips them silently; here each one is kept with its reason.
	Problems []Problem
	// Notes lists what a cold load saw that is not damage, each naming its
	// file: a temporary file of a write in progress.
	Notes []string
	// LexicalMisorder is set when the original's lexical file order would
	// have appended nodes out of seq order (seq ≥ 10000, docs/rollout.md §1 item 8).
	LexicalMisorder bool

	changing    bool // every read of the directory saw it change
	headUnknown bool // the stored head names no node read
}

// Unsettled reports whether a cold load could not give a view the writer
// could have left: the session changed during every read of it, or its head
// names a node it does not have (Problems says which). Such a view is shown
// but is not the whole of a conversation.
func (s *Store) Unsettled() bool { return s.changing || s.headUnknown }

// Problem is one file of a session directory that could not be used.
type Problem struct {
	File string
	Err  error
}

func (p Problem) Error() string { return fmt.Sprintf("%s: %v", p.File, p.Err) }

// New makes an empty in-memory session.
func New(id string) *Store {
	s := &Store{ID: id, ParentReads: new(atomic.Int64), commits: &commitCache{}}
	s.reset()
	s.Meta = &node.Obj{}
	return s
}

func (s *Store) reset() {
	s.nodes, s.hidden = nil, nil
	s.byID = make(map[string]int32)
	s.dupIDs = false
	s.byPred = make(map[string][]*node.Node)
	s.byCaller = make(map[string][]*node.Node)
	s.byRerun = make(map[string][]*node.Node)
	s.head = ""
	s.nextSeq = 0
	s.roots, s.rootMax = nil, nil
	s.memo = &memoTable{}
}

// Nodes returns the nodes in append order. The slice must not be modified.
func (s *Store) Nodes() []*node.Node { return s.nodes }

// Len is the number of nodes, duplicates included.
func (s *Store) Len() int { return len(s.nodes) }

// Get returns the node with id (the last one appended on duplicates).
func (s *Store) Get(id string) (*node.Node, bool) {
	i, ok := s.byID[id]
	if !ok {
		return nil, false
	}
	return s.nodes[i], true
}

// Pos returns the position in append order of the node with id (the last
// one appended on duplicates). Readers index per-load slices by it instead
// of building maps keyed by id.
func (s *Store) Pos(id string) (int, bool) {
	i, ok := s.byID[id]
	return int(i), ok
}

// Hidden reports whether the node at position i is ROOT or rewound: the
// nodes get_messages skips.
func (s *Store) Hidden(i int) bool { return s.hidden[i] }

// UniqueIDs reports whether every node has an id of its own. Appends keep
// ids unique; only a cold rebuild over duplicate files breaks it, and then
// readers fall back to their id-keyed paths with the original's
// last-wins rules.
func (s *Store) UniqueIDs() bool { return !s.dupIDs }

// Head is the in-memory head pointer.
func (s *Store) Head() string { return s.head }

// NextSeq is the seq the next append without one will get.
func (s *Store) NextSeq() int64 { return s.nextSeq }

// ConvChildren returns the nodes whose metadata.parent_id was id when they
// were appended (children_by_predecessor).
func (s *Store) ConvChildren(id string) []*node.Node { return s.byPred[id] }

// CallChildren returns the nodes whose called_by was id when they were
// appended (children_by_caller).
func (s *Store) CallChildren(id string) []*node.Node { return s.byCaller[id] }

// Reruns returns the nodes whose metadata.forked_from was id when they were
// appended: the retry and edit rows of a turn.
func (s *Store) Reruns(id string) []*node.Node { return s.byRerun[id] }

// index adds n to every in-memory index, as SessionMemoryIndex.append does.
// It reports false when the id is already present (appends are idempotent).
func (s *Store) index(n *node.Node) bool {
	if _, dup := s.byID[n.ID]; dup {
		return false
	}
	s.indexAlways(n)
	return true
}

// indexAlways is the rebuild path, which keeps duplicate ids in the seq list.
func (s *Store) indexAlways(n *node.Node) {
	if n.Seq < 0 {
		n.Seq = s.nextSeq
		s.nextSeq++
	} else if n.Seq >= s.nextSeq {
		s.nextSeq = n.Seq + 1
	}
	n.Seal()
	if _, dup := s.byID[n.ID]; dup {
		s.dupIDs = true
	}
	s.byID[n.ID] = int32(len(s.nodes))
	s.nodes = append(s.nodes, n)
	s.hidden = append(s.hidden, isHidden(n))
	s.memo.grow(len(s.nodes))
	if p := n.ParentID(); p != "" {
		s.byPred[p] = append(s.byPred[p], n)
	}
	if n.CalledBy != "" {
		s.byCaller[n.CalledBy] = append(s.byCaller[n.CalledBy], n)
	}
	if f := forkedFrom(n); f != "" {
		s.byRerun[f] = append(s.byRerun[f], n)
	}
	if (n.CalledBy == "" || n.CalledBy == node.RootID) && !n.Metadata.Get("parent_id").Truthy() && !n.IsRoot() {
		m := n.Seq
		if k := len(s.rootMax); k > 0 && s.rootMax[k-1] > m {
			m = s.rootMax[k-1]
		}
		s.roots = append(s.roots, n)
		s.rootMax = append(s.rootMax, m)
	}
}

// forkedFrom is the turn a retry or edit row reruns ("" for other nodes).
func forkedFrom(n *node.Node) string { return n.Metadata.Get("forked_from").Str() }

// isHidden is get_messages' skip rule: ROOT and rewound nodes.
func isHidden(n *node.Node) bool { return n.IsRoot() || n.IsRewound() }

// RootBefore answers get_branch's rule 3 (legacy §3.2) in O(log n): among the
// chain roots (caller "" or ROOT, no parent_id, not ROOT itself) in append
// order, scan to the first whose seq ≥ seq and return the one before it. The
// running maximum makes that a binary search even when a rebuild left the
// list out of seq order.
func (s *Store) RootBefore(seq int64) *node.Node {
	i := sort.Search(len(s.rootMax), func(i int) bool { return s.rootMax[i] >= seq })
	if i == 0 {
		return nil
	}
	return s.roots[i-1]
}

// hasCaller is the shim's caller test for the head rule of an append.
func hasCaller(n *node.Node) bool {
	return n.CalledBy != "" || n.Metadata.Get("caller").Truthy()
}

// PersistedHead is the head meta.json holds (head_id, else last_node_id).
func (s *Store) PersistedHead() string {
	h := s.Meta.Get("head_id")
	if !h.Truthy() {
		h = s.Meta.Get("last_node_id")
	}
	return h.Str()
}

// AtHead returns a read-only copy of s whose head is id: the session as a
// browser sees it after moving there (a sibling arrow, a checkout), its
// files untouched. It shares the indexes.
func (s *Store) AtHead(id string) *Store {
	c := *s
	c.head = id
	return &c
}

// Unmemoized returns a read-only copy of s with empty memos: the session as
// a load reads it when no earlier load prepared anything, the reference for
// what loads keep for the next (it shares the indexes, as AtHead's copy).
func (s *Store) Unmemoized() *Store {
	c := *s
	c.memo = &memoTable{}
	c.memo.grow(len(s.nodes))
	return &c
}

// AtPersistedHead returns a read-only copy of s whose head is the persisted
// one: what a cold load of the directory would see. It shares the indexes.
func (s *Store) AtPersistedHead() *Store {
	c := *s
	c.head = s.PersistedHead()
	return &c
}
