package model_test

import (
	"fmt"
	"testing"

	"sessiondag/checker/gen"
	"sessiondag/model"
	"sessiondag/ops"
)

// The models' speed, measured by benchstat rather than by timed tests. The
// scripts are what `sessiondag gen --seed 42 --nodes N` writes; a replay
// applies every op and takes the view after each, as the property suite and
// `sessiondag replay` do.

// genScript is the script `sessiondag gen --seed seed --nodes n` writes.
func genScript(seed uint64, n int) []ops.Op {
	g := gen.New(gen.Options{Legacy: true})
	id := fmt.Sprintf("local_%010x", seed)
	return append([]ops.Op{ops.Session{ID: id}}, g.ScriptNodes(gen.NewSeeded(seed), n)...)
}

// applyAll applies every op of script, failing on a refused one, and calls
// after after each.
func applyAll(b *testing.B, script []ops.Op, apply func(ops.Op) error, after func()) {
	for _, op := range script {
		if err := apply(op); err != nil {
			b.Fatalf("%s: %v", ops.Format(op), err)
		}
		after()
	}
}

// run is a model as a replay drives it.
type run interface{ Apply(ops.Op) error }

// benchReplay replays the script of n nodes, taking the view after every
// op.
func benchReplay[R run](b *testing.B, n int, start func() R, view func(R)) {
	script := genScript(42, n)
	b.ReportMetric(float64(len(script)), "ops")
	for b.Loop() {
		r := start()
		applyAll(b, script, r.Apply, func() { view(r) })
	}
}

func newLegacy() *model.LegacyRun { return model.NewLegacy(ops.DefaultSession) }
func newTarget() *model.TargetRun { return model.NewTarget(ops.DefaultSession) }

func benchLegacyReplay(b *testing.B, n int) {
	benchReplay(b, n, newLegacy, func(r *model.LegacyRun) { _ = r.View() })
}

func benchTargetReplay(b *testing.B, n int) {
	benchReplay(b, n, newTarget, func(r *model.TargetRun) { _ = r.View() })
}

// benchLegacyView is the reading half alone: LegacyView of a finished
// session, as the cold check and the audit of a directory take it.
func benchLegacyView(b *testing.B, n int) {
	r := newLegacy()
	applyAll(b, genScript(42, n), r.Apply, func() {})
	s := r.Session()
	b.ReportMetric(float64(len(s.Nodes)), "nodes")
	for b.Loop() {
		_ = model.LegacyView(s)
	}
}

// benchTargetApply is what the audit does with a session's op script: apply
// every op, take the intended view once at the end.
func benchTargetApply(b *testing.B, n int) {
	script := genScript(42, n)
	for b.Loop() {
		r := newTarget()
		applyAll(b, script, r.Apply, func() {})
		_ = r.View()
	}
}

func BenchmarkLegacyReplay1k(b *testing.B) { benchLegacyReplay(b, 1000) }
func BenchmarkTargetReplay1k(b *testing.B) { benchTargetReplay(b, 1000) }
func BenchmarkTargetReplay5k(b *testing.B) { benchTargetReplay(b, 5000) }
func BenchmarkLegacyView1k(b *testing.B)   { benchLegacyView(b, 1000) }
func BenchmarkLegacyView5k(b *testing.B)   { benchLegacyView(b, 5000) }
func BenchmarkTargetApply5k(b *testing.B)  { benchTargetApply(b, 5000) }
