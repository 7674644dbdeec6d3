package writer

import (
	"fmt"
	"strconv"

	"sessiondag/impl/adapter"
	"sessiondag/impl/history"
	"sessiondag/impl/node"
)

// Compact is a compaction of the branch at the head (legacy §1, §6 #30), as
// the original's persister writes it: a summary row that starts a chain of
// its own, then a copy of each of the branch's last keep messages under a
// new id (copies, as the original draws them; none given: id_k1, id_k2, …),
// each written through the message adapter with the previous row as
// parent_id, and the head on the last copy. A branch of fewer than four
// rows, or not longer than keep, is not compacted: the op does not apply.
func (w *Writer) Compact(id, keep string, copies []string) error {
	if err := w.needIdle("compact"); err != nil {
		return err
	}
	k, err := strconv.Atoi(keep)
	if err != nil || k < 1 {
		return fmt.Errorf("%w: compact keep=%q: want a count of 1 or more", ErrState, keep)
	}
	ids := []string{id}
	for i := 1; i <= k && copies == nil; i++ {
		ids = append(ids, fmt.Sprintf("%s_k%d", id, i))
	}
	if copies != nil && len(copies) != k {
		return fmt.Errorf("%w: compact keep=%d with %d copy ids", ErrState, k, len(copies))
	}
	ids = append(ids, copies...)
	seen := map[string]bool{}
	for _, x := range ids {
		if _, dup := w.S.Get(x); dup || seen[x] || x == "" || x == node.RootID {
			return fmt.Errorf("%w: compact id %q is empty or already taken", ErrState, x)
		}
		seen[x] = true
	}
	var branch []*adapter.Message
	for _, n := range history.BranchNodes(w.S, "") {
		if !n.IsRoot() && !n.IsRewound() {
			branch = append(branch, adapter.ToMessage(w.S.ID, n, nil))
		}
	}
	if len(branch) < 4 || k >= len(branch) {
		return fmt.Errorf("%w: compact keep=%d: the branch has %d rows (the original compacts at least four, keeping fewer)", ErrState, k, len(branch))
	}
	kept := branch[len(branch)-k:]
	for _, m := range kept {
		if m.Role != "user" && (m.Role != "assistant" || m.Function == "attach") {
			return fmt.Errorf("%w: compact keeps %s, a %s row: only user turns and replies are kept", ErrState, m.ID, m.Role)
		}
	}
	t := kept[0].Get("timestamp")
	ts, err := strconv.ParseFloat(t.S, 64)
	if t.K != node.Number || err != nil {
		return fmt.Errorf("%w: compact: the first kept row's timestamp %s is not a number", ErrState, t.S)
	}
	summary := meta("id", node.Str(id), "role", node.Str("system"),
		"content", node.Str("[Previous conversation summary]\nsummary"), "parent_id", node.NullV(),
		"timestamp", node.Num(pyFloat(ts-1e-6)), "type", node.Str("compactionSummary"),
		"source", node.Str("compaction"), "extra", node.Str(`{"compaction": true}`))
	prev := node.RootID
	for i, m := range append([]*adapter.Message{nil}, kept...) {
		msg := summary
		if m != nil {
			msg = m.F.Clone()
			msg.Set("id", node.Str(ids[i]))
			msg.Set("parent_id", node.Str(ids[i-1]))
		}
		n := adapter.FromMessage(msg, nil, w.now())
		w.predecessor(n.Metadata, prev)
		if err := w.add(n); err != nil {
			return err
		}
		prev = n.ID
	}
	return w.S.SetHead(prev)
}
