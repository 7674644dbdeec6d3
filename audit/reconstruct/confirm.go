package reconstruct

import (
	"fmt"

	"sessiondag/model"
	"sessiondag/ops"
)

// confirm holds the rows the op wrote (the writer's own, from index before
// on) to the stored rows it was inferred from: the same ids in the same
// order, each with the fields that place it (identity). What an op writes
// later into a row (its end, its finish, a rewind) and the values the op
// language carries are compared once the script is whole (compare.go).
func (b *builder) confirm(s step, before int) {
	wrote := b.leg.IDsFrom(before)
	line := ops.Format(s.op)
	for j := 0; j < max(len(wrote), s.rows); j++ {
		var r *Row
		if j < s.rows {
			r = b.d.Rows[b.i+j]
		}
		switch {
		case j >= len(wrote):
			b.unexplained(r, line, "", "the op writes no such row here")
			return
		case r == nil:
			b.unexplained(b.row(b.i+s.rows), line, "id",
				fmt.Sprintf("the op also writes row %s, which the directory does not hold here", wrote[j]))
			return
		case wrote[j] != r.ID:
			b.unexplained(r, line, "id", fmt.Sprintf("the op writes row %s here", wrote[j]))
			return
		}
		n := b.leg.Node(wrote[j])
		if j == 0 {
			b.subprocess(s.op, n, r)
		}
		if field, stored, written := identityDiff(n, r, b.shift()); field != "" {
			b.first = &FirstRow{File: r.File, ID: r.ID, Op: line, Field: field, Stored: stored, Written: written,
				Why: "the op that writes a row of this shape writes this field otherwise"}
			return
		}
	}
}

// identityDiff is the first field that places a row (its seq, role, caller
// and the metadata a reader follows to place it) in which the written node
// and the stored row differ, with both values; the rows are stored lower
// seqs lower than the writers count (subprocess.go).
func identityDiff(n *model.Node, r *Row, lower int) (field, stored, written string) {
	if n.Seq-lower != r.Seq {
		return "seq", fmt.Sprint(r.Seq), fmt.Sprint(n.Seq - lower)
	}
	if n.Role != r.Role {
		return "role", r.Role, n.Role
	}
	if n.CalledBy != r.CalledBy {
		return "called_by", r.CalledBy, n.CalledBy
	}
	for _, k := range placing {
		sv, sok := r.Meta.Get(k)
		wv, wok := n.Metadata.Get(k)
		if k == "source" {
			if r.Role != "user" {
				continue // the readers tell apart only the sources of user rows
			}
			sv, wv = sourceClass(sv), sourceClass(wv)
		}
		if sok != wok || jsonText(sv) != jsonText(wv) {
			return "metadata." + k, shown(sv, sok), shown(wv, wok)
		}
	}
	return "", "", ""
}

// placing are the metadata keys the readers follow to place a row: its
// conversation parent, what it reruns, its call edges, whether it is a
// card, an attach pointer, a system row or a compaction's.
var placing = []string{"parent_id", "forked_from", "edit_of", "tool_call_id", "called_by", "display",
	"function", "role", "type", "compaction", "source"}

// sourceClass is what the readers tell apart in a source: the web, a
// sub-agent, a finished task's or a merge's internal turn, a compaction;
// every other source (the CLI, a chat channel) is one class.
func sourceClass(v any) any {
	s, ok := v.(string)
	if !ok {
		return v
	}
	switch s {
	case "web", "agent_spawn", "task_followup", "merge_turn", "compaction":
		return s
	}
	return "(a channel)"
}

// shown is a value for a report: its JSON, or "(absent)".
func shown(v any, ok bool) string {
	if !ok {
		return "(absent)"
	}
	return jsonText(v)
}
