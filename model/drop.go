package model

import (
	"fmt"
	"slices"

	"sessiondag/ops"
)

// Drop: R's drop_message of an attach pointer (ops/README.md: drop). The
// node and its file go; nothing else changes (no meta write, no head move,
// the seq counter goes on). The op language drops what the original
// drops, a pointer no row names and no head rests on, before a row
// written after it: a process that opens the session later counts seqs
// from the last one stored, which a dropped last row would change.
func (o *legacyOps) Drop(op ops.Drop) error {
	r := o.run()
	if err := firstErr(r.needIdle(), r.existing(op.ID)); err != nil {
		return err
	}
	n := r.node(op.ID)
	switch {
	case n.meta().Val("function") != "attach":
		return fmt.Errorf("drop %s: no attach pointer (the original drops only those)", op.ID)
	case op.ID == r.memHead || op.ID == r.meta.Str("head_id"):
		return fmt.Errorf("drop %s: a head rests on it", op.ID)
	case n == r.nodes[len(r.nodes)-1]:
		return fmt.Errorf("drop %s: the last row stored", op.ID)
	}
	for _, w := range append([]writerState{r.writerState}, r.parked...) {
		if w.spawn != nil && w.spawn.attach == op.ID {
			return fmt.Errorf("drop %s: writer %s's spawn turn in progress finishes it", op.ID, w.writer)
		}
	}
	for _, m := range r.nodes {
		if m.CalledBy == op.ID || m.meta().Val("parent_id") == op.ID || m.meta().Val("called_by") == op.ID {
			return fmt.Errorf("drop %s: row %s names it", op.ID, m.ID)
		}
	}
	r.nodes = slices.DeleteFunc(slices.Clone(r.nodes), func(m *Node) bool { return m == n })
	delete(r.byID, op.ID)
	// The reading half's index and memo are rebuilt from the nodes left.
	r.idx, r.indexed, r.memo, r.replies = newIndex(nil), 0, newMemo(), map[string][]*Node{}
	return nil
}
