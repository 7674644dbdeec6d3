package props

import (
	"fmt"
	"os"
	"path/filepath"
	"sessiondag/harness"
	"testing"

	"pgregory.net/rapid"

	"sessiondag/driver"
	"sessiondag/gen"
	"sessiondag/impl/flags"
	"sessiondag/impl/node"
	"sessiondag/impl/store"
	"sessiondag/impl/webui"
	"sessiondag/model"
)

// TestP1ColdFidelity is P1 over session directories as the original finds
// them on disk: written by the writers, numbered past 9999 or not, and
// sometimes with a pointer rewritten (dangling, or forming a cycle in either
// pointer). The implementation's cold load and the model's own reader must
// show the same views.
func TestP1ColdFidelity(t *testing.T) {
	store.SyncWrites = false
	defer func() { store.SyncWrites = true }()
	rapid.Check(t, func(t *rapid.T) {
		parent, err := os.MkdirTemp(scratch(), "sessiondag-cold-")
		if err != nil {
			t.Fatalf("temp dir: %v", err)
		}
		defer os.RemoveAll(parent)
		dir := filepath.Join(parent, driver.DefaultSession)

		script := gen.New(gen.Options{Legacy: true}).Script(gen.Rapid{T: t}, rapid.IntRange(1, 40).Draw(t, "ops"))
		run, err := driver.Start(nil, dir, flags.Off)
		if err != nil {
			t.Fatalf("start: %v", err)
		}
		firstSeq := rapid.SampledFrom([]int{0, 9990}).Draw(t, "first seq")
		run.W.S.SetNextSeq(int64(firstSeq))
		for _, op := range script {
			if err := run.Apply(op); err != nil {
				t.Fatalf("build: %v", err)
			}
		}
		nodes := run.W.S.Nodes()
		var notes []string
		for i, n := 0, rapid.IntRange(0, 2).Draw(t, "corruptions"); i < n && len(nodes) > 0; i++ {
			victim := nodes[rapid.IntRange(0, len(nodes)-1).Draw(t, "victim")]
			target := nodes[rapid.IntRange(0, len(nodes)-1).Draw(t, "target")].ID
			if rapid.Bool().Draw(t, "dangling") {
				target = "gone"
			}
			c := victim.Clone()
			field := "called_by"
			if rapid.Bool().Draw(t, "which pointer") {
				field = "parent_id"
				c.Metadata.Set("parent_id", node.Str(target))
			} else {
				c.CalledBy = target
			}
			notes = append(notes, fmt.Sprintf("%s of %s → %q", field, c.ID, target))
			if err := os.WriteFile(filepath.Join(dir, "history", store.FileName(c)), c.Encode(), 0o644); err != nil {
				t.Fatalf("corrupt: %v", err)
			}
		}
		cold, err := store.Open(dir)
		if err != nil {
			t.Fatalf("open: %v", err)
		}
		ms, err := model.ReadSessionDir(dir)
		if err != nil {
			t.Fatalf("model read: %v", err)
		}
		if s, d := harness.ViewDiff(model.LegacyView(ms), webui.Views(cold, flags.Off)); s != "" {
			report(t, "TestP1ColdFidelity", script, fmt.Sprintf("cold load (first seq %d, corruptions %q) differs from the model's reading in view %s", firstSeq, notes, s), d)
		}
	})
}
