package gen

import (
	"slices"

	"sessiondag/ops"
)

// Dropping an attach pointer (R's drop_message, as process_merge_turn
// retires the pointers it wrote): the generator drops one no row can have
// named. A pointer is pinned once an op names it or a head (the store's,
// meta.json's, a browser's) has rested on it: a row written then may
// record it as its parent, which the op language refuses to drop.

// pin marks what op named and where the heads rest after it.
func (s *shadow) pin(op ops.Op) {
	for _, id := range ops.Names(op) {
		s.pinned[id] = true
	}
	s.pinned[s.head], s.pinned[s.persisted] = true, true
	for _, w := range append([]swriter{s.swriter}, s.parked...) {
		s.pinned[w.client] = true
		if w.sub != nil { // an async spawn turn's card, which its done finishes
			s.pinned[w.sub.attach] = true
		}
	}
}

// droppable are the attach pointers a drop may remove now: those handed
// over as message dicts (a merge's; a spawn's or a task's the original
// drops never), none pinned, none the last row stored.
func (s *shadow) droppable() []string {
	var out []string
	for _, id := range s.msgAttaches {
		if s.written[id] && !s.pinned[id] && id != s.nodes[len(s.nodes)-1] {
			out = append(out, id)
		}
	}
	return out
}

// Drop forgets the pointer: no op names it again.
func (s *shadow) Drop(o ops.Drop) error {
	gone := func(id string) bool { return id == o.ID }
	s.nodes = slices.DeleteFunc(s.nodes, gone)
	s.attaches = slices.DeleteFunc(s.attaches, gone)
	s.msgAttaches = slices.DeleteFunc(s.msgAttaches, gone)
	s.retryable = slices.DeleteFunc(s.retryable, gone)
	for p, list := range s.asst { // a retry of its parent's turn finds it no more
		s.asst[p] = slices.DeleteFunc(list, gone)
	}
	delete(s.written, o.ID)
	delete(s.attach, o.ID)
	s.tally.Shape(ShapeDrop)
	return nil
}
