package reconstruct

import (
	"fmt"

	"sessiondag/ops"
)

// Seqs no stored row holds: the store hands out every seq once, so a row
// whose seq is past the next one follows rows written and dropped since
// (R's drop_message, as process_merge_turn retires the attach pointers it
// wrote once its turn has run). What they held is gone with their files;
// the reconstruction writes an attach pointer for each, called by the head
// (as a merge's are: none moves it), and drops it once the row after it
// is written: the files are the same, and a dropped row means nothing to
// the intent. Result.Dropped lists them.

// dropBefore writes a pointer for each seq before r's that no row holds.
func (b *builder) dropBefore(r *Row) {
	for next := b.leg.NextSeq(); next < r.Seq && b.first == nil; next = b.leg.NextSeq() {
		id := fmt.Sprintf("dropped_%d", next)
		for n := 0; b.byID[id] != nil || b.leg.Node(id) != nil; n++ {
			id = fmt.Sprintf("dropped_%d_%d", next, n)
		}
		caller := b.leg.InMemoryHead()
		if caller == "" {
			caller = "ROOT"
		}
		if !b.apply(ops.Message{ID: id, Role: "assistant", Caller: caller, Keys: `{"function":"attach"}`}) {
			return
		}
		b.toDrop = append(b.toDrop, id)
		b.dropped = append(b.dropped, next)
	}
}

// dropAfter drops the pointers written before the row just explained.
func (b *builder) dropAfter() {
	for _, id := range b.toDrop {
		if b.first == nil {
			b.apply(ops.Drop{ID: id})
		}
	}
	b.toDrop = b.toDrop[:0]
}
