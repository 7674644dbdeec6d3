package props

import (
	"testing"

	"pgregory.net/rapid"

	"sessiondag/checker/driver"
	"sessiondag/checker/gen"
	"sessiondag/checker/harness"
	"sessiondag/checker/ops"
	"sessiondag/impl/flags"
	"sessiondag/impl/node"
	"sessiondag/impl/store"
	"sessiondag/internal/rapidsrc"
)

// TestP1ColdFidelity is P1 over session directories as the original finds
// them on disk: written by the writers, numbered past 9999 or not, and
// sometimes with a pointer rewritten (dangling, or forming a cycle in either
// pointer). The implementation's cold load and the model's own reader must
// show the same views (harness.Cold). A failure is saved with the damage as
// `#! file` directives, so its replay rebuilds the same directory.
func TestP1ColdFidelity(t *testing.T) {
	t.Parallel()
	inProcessOnly(t, "the cold load of a directory damaged on disk")
	rapid.Check(t, func(t *rapid.T) {
		opt := gen.Options{Legacy: true}
		opt.Swarm = gen.DrawSwarm(rapidsrc.Source{T: t}, opt)
		script := gen.New(opt).Script(rapidsrc.Source{T: t}, rapid.IntRange(1, 40).Draw(t, "ops"))
		firstSeq := int64(rapid.SampledFrom([]int{0, 9990}).Draw(t, "first seq"))
		edits := pointerEdits(t, script, firstSeq)
		f, err := harness.Cold(script, firstSeq, edits, scratch())
		if err != nil {
			t.Fatalf("cold: %v", err)
		}
		if f != nil {
			fail(t, "TestP1ColdFidelity", f, script)
		}
	})
}

// pointerEdits draws up to two rewritten pointers (called_by or parent_id)
// of the nodes a script writes, each to another node or to a missing id.
func pointerEdits(t *rapid.T, script []ops.Op, firstSeq int64) []harness.Edit {
	run, err := driver.Start(nil, "", flags.Off)
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	run.W.S.SetNextSeq(firstSeq)
	for _, op := range script {
		if err := run.Apply(op); err != nil {
			t.Fatalf("build: %v", err)
		}
	}
	nodes := run.W.S.Nodes()
	var edits []harness.Edit
	for i, n := 0, rapid.IntRange(0, 2).Draw(t, "corruptions"); i < n && len(nodes) > 0; i++ {
		c := nodes[rapid.IntRange(0, len(nodes)-1).Draw(t, "victim")].Clone()
		target := nodes[rapid.IntRange(0, len(nodes)-1).Draw(t, "target")].ID
		if rapid.Bool().Draw(t, "dangling") {
			target = "gone"
		}
		if rapid.Bool().Draw(t, "which pointer") {
			c.Metadata.Set("parent_id", node.Str(target))
		} else {
			c.CalledBy = target
		}
		edits = append(edits, harness.Edit{Path: "history/" + store.FileName(c), Content: c.Encode()})
	}
	return edits
}
