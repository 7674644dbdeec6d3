package model_test

import (
	"fmt"
	"testing"

	"sessiondag/checker/gen"
	"sessiondag/checker/ops"
	"sessiondag/model"
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

func benchLegacyReplay(b *testing.B, n int) {
	script := genScript(42, n)
	b.ReportMetric(float64(len(script)), "ops")
	for b.Loop() {
		r := model.NewLegacy(ops.DefaultSession)
		for _, op := range script {
			if err := r.Apply(op); err != nil {
				b.Fatalf("%s: %v", ops.Format(op), err)
			}
			_ = r.View()
		}
	}
}

func benchTargetReplay(b *testing.B, n int) {
	script := genScript(42, n)
	b.ReportMetric(float64(len(script)), "ops")
	for b.Loop() {
		r := model.NewTarget(ops.DefaultSession)
		for _, op := range script {
			if err := r.Apply(op); err != nil {
				b.Fatalf("%s: %v", ops.Format(op), err)
			}
			_ = r.View()
		}
	}
}

// benchLegacyView is the reading half alone: LegacyView of a finished
// session, as the cold check and the audit of a directory take it.
func benchLegacyView(b *testing.B, n int) {
	r := model.NewLegacy(ops.DefaultSession)
	for _, op := range genScript(42, n) {
		if err := r.Apply(op); err != nil {
			b.Fatalf("%s: %v", ops.Format(op), err)
		}
	}
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
		r := model.NewTarget(ops.DefaultSession)
		for _, op := range script {
			if err := r.Apply(op); err != nil {
				b.Fatalf("%s: %v", ops.Format(op), err)
			}
		}
		_ = r.View()
	}
}

func BenchmarkLegacyReplay1k(b *testing.B) { benchLegacyReplay(b, 1000) }
func BenchmarkTargetReplay1k(b *testing.B) { benchTargetReplay(b, 1000) }
func BenchmarkTargetReplay5k(b *testing.B) { benchTargetReplay(b, 5000) }
func BenchmarkLegacyView1k(b *testing.B)   { benchLegacyView(b, 1000) }
func BenchmarkLegacyView5k(b *testing.B)   { benchLegacyView(b, 5000) }
func BenchmarkTargetApply5k(b *testing.B)  { benchTargetApply(b, 5000) }
