package campaign

import (
	"fmt"

	"sessiondag/checker/gen"
	"sessiondag/checker/harness"
	"sessiondag/ops"
)

// A PointerEdit is one piece of a cold iteration's damage: a pointer of a
// node the script writes, rewritten on disk. It names the node by id, not
// by file, so that it damages the same node of every shorter script the
// reduction tries (a file name carries the seq, which deleting ops moves).
type PointerEdit struct {
	ID      string
	Pointer string // "parent_id" or "called_by"
	Target  string // another node's id, or "gone"
}

// Directive is the edit as a `#! damage` line.
func (e PointerEdit) Directive() ops.Directive {
	return ops.Directive{Name: "damage", Args: []ops.Arg{{Key: "id", Value: e.ID}, {Key: "pointer", Value: e.Pointer},
		{Key: "target", Value: e.Target}}}
}

// damageOf reads a `#! damage` line.
func damageOf(d ops.Directive) (PointerEdit, error) {
	var e PointerEdit
	e.ID, _ = d.Get("id")
	e.Pointer, _ = d.Get("pointer")
	e.Target, _ = d.Get("target")
	if e.ID == "" || e.Target == "" || e.Pointer != "parent_id" && e.Pointer != "called_by" {
		return e, fmt.Errorf("#! %s: want id=, pointer=parent_id|called_by and target=", d.String())
	}
	return e, nil
}

// DrawDamage draws the damage of a cold iteration: up to two rewritten
// pointers (called_by or parent_id) of the nodes the script writes, each to
// another node or to a missing id, as TestChecks/P1-cold draws them.
func DrawDamage(src gen.Source, script []ops.Op, firstSeq int64) ([]PointerEdit, error) {
	run, err := implRun(script, firstSeq)
	if err != nil {
		return nil, err
	}
	nodes := run.W.S.Nodes()
	var out []PointerEdit
	for i, n := 0, src.IntN(3, "corruptions"); i < n && len(nodes) > 0; i++ {
		e := PointerEdit{ID: nodes[src.IntN(len(nodes), "victim")].ID, Pointer: "called_by",
			Target: nodes[src.IntN(len(nodes), "target")].ID}
		if src.IntN(2, "dangling") == 1 {
			e.Target = "gone"
		}
		if src.IntN(2, "which pointer") == 1 {
			e.Pointer = "parent_id"
		}
		out = append(out, e)
	}
	return out, nil
}

// FileEdits are the damage as files of the directory script writes: each
// edit rewrites its node's file from the node as written (a later edit of
// the same node replaces an earlier one). An edit of a node the script
// does not write is left out.
func FileEdits(script []ops.Op, firstSeq int64, damage []PointerEdit) ([]harness.Edit, error) {
	return Edits(Case{Script: script, FirstSeq: firstSeq, Damage: damage})
}
