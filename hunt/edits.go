package hunt

import (
	"fmt"

	"sessiondag/driver"
	"sessiondag/gen"
	"sessiondag/harness"
	"sessiondag/impl/flags"
	"sessiondag/impl/node"
	"sessiondag/impl/store"
	"sessiondag/ops"
)

// pointerEdits draws the damage of a cold iteration: up to two rewritten
// pointers (called_by or parent_id) of the nodes the script writes, each to
// another node or to a missing id, as TestP1ColdFidelity draws them.
func pointerEdits(src gen.Source, script []ops.Op, firstSeq int64) ([]harness.Edit, error) {
	run, err := driver.Start(nil, "", flags.Off)
	if err != nil {
		return nil, fmt.Errorf("cold edits: start: %w", err)
	}
	run.W.S.SetNextSeq(firstSeq)
	for i, op := range script {
		if err := run.Apply(op); err != nil {
			return nil, fmt.Errorf("cold edits: op %d (%s): %w", i+1, ops.Format(op), err)
		}
	}
	nodes := run.W.S.Nodes()
	var edits []harness.Edit
	for i, n := 0, src.IntN(3, "corruptions"); i < n && len(nodes) > 0; i++ {
		c := nodes[src.IntN(len(nodes), "victim")].Clone()
		target := nodes[src.IntN(len(nodes), "target")].ID
		if src.IntN(2, "dangling") == 1 {
			target = "gone"
		}
		if src.IntN(2, "which pointer") == 1 {
			c.Metadata.Set("parent_id", node.Str(target))
		} else {
			c.CalledBy = target
		}
		edits = append(edits, harness.Edit{Path: "history/" + store.FileName(c), Content: c.Encode()})
	}
	return edits, nil
}
