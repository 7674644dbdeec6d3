package model

// The compaction op (ops/README.md: compact), as the original's
// persister writes it: a summary row, then the branch's last rows copied
// through append_message (legacy §2.2) under new ids, chained from it.

import (
	"fmt"
	"strconv"

	"sessiondag/ops"
)

func (o *legacyOps) Compact(op ops.Compact) error {
	r := o.run()
	keep, err := strconv.Atoi(op.Keep)
	if err != nil || keep < 1 {
		return fmt.Errorf("compact keep=%q is not a count of 1 or more", op.Keep)
	}
	copies := op.CopyIDs()
	if len(copies) != keep {
		return fmt.Errorf("compact keep=%d names %d copies (%q)", keep, len(copies), op.Copies)
	}
	ids := append([]string{op.ID}, copies...)
	if err := firstErr(r.needIdle(), r.newIDs(ids...)); err != nil {
		return err
	}
	branch := r.state().branch(r.memHead)
	if len(branch) < 4 || keep >= len(branch) {
		return fmt.Errorf("compact: a branch of %d rows is not compacted keeping %d", len(branch), keep)
	}
	kept := branch[len(branch)-keep:]
	for _, m := range kept {
		if role := m.Val("role"); role != "user" && (role != "assistant" || m.Val("function") == "attach") {
			return fmt.Errorf("compact would keep %s, a %v row: only user turns and replies", msgID(m), role)
		}
	}
	first, ok := kept[0].Val("timestamp").(Float)
	if !ok {
		return fmt.Errorf("compact: %s has no float timestamp", msgID(kept[0]))
	}
	summary := newObject("id", op.ID, "role", "system", "content", "[Previous conversation summary]\nsummary",
		"parent_id", nil, "timestamp", Float(float64(first)-1e-6), "type", "compactionSummary",
		"source", "compaction", "extra", `{"compaction": true}`)
	r.appendAt(appendedNode(summary, r.now()))
	r.compacted = r.compacted[:0]
	for i, m := range kept {
		r.compacted = append(r.compacted, msgID(m))
		row := m.Copy() // dict(original): the message as the branch gave it
		row.Set("id", ids[i+1])
		row.Set("parent_id", ids[i])
		r.appendAt(appendedNode(row, r.now()))
	}
	r.setHead(ids[len(ids)-1])
	return nil
}
