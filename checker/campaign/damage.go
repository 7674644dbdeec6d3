package campaign

import (
	"fmt"

	"sessiondag/checker/driver"
	"sessiondag/checker/gen"
	"sessiondag/checker/harness"
	"sessiondag/checker/ops"
	"sessiondag/impl/flags"
	"sessiondag/impl/node"
	"sessiondag/impl/store"
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
	nodes, err := implNodes(script, firstSeq)
	if err != nil {
		return nil, err
	}
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
	if len(damage) == 0 {
		return nil, nil
	}
	nodes, err := implNodes(script, firstSeq)
	if err != nil {
		return nil, err
	}
	var out []harness.Edit
	for _, e := range damage {
		for _, n := range nodes {
			if n.ID != e.ID {
				continue
			}
			c := n.Clone()
			if e.Pointer == "parent_id" {
				c.Metadata.Set("parent_id", node.Str(e.Target))
			} else {
				c.CalledBy = e.Target
			}
			out = append(out, harness.Edit{Path: "history/" + store.FileName(c), Content: c.Encode()})
			break
		}
	}
	return out, nil
}

// implNodes is the nodes the implementation's writers write for script,
// flags off, history numbered from firstSeq (what harness.Cold writes): the
// files the damage rewrites are the implementation's.
func implNodes(script []ops.Op, firstSeq int64) ([]*node.Node, error) {
	run, err := driver.Start(nil, "", flags.Off)
	if err != nil {
		return nil, fmt.Errorf("cold damage: start: %w", err)
	}
	run.W.S.SetNextSeq(firstSeq)
	for i, op := range script {
		if err := run.Apply(op); err != nil {
			return nil, fmt.Errorf("cold damage: op %d (%s): %w", i+1, ops.Format(op), err)
		}
	}
	return run.W.S.Nodes(), nil
}
