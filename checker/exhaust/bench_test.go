package exhaust

import (
	"sessiondag/internal/shard"
	"testing"
)

// BenchmarkWalk4 is the walk alone (validity by the writer model, no
// checks) over every script of up to 4 ops.
func BenchmarkWalk4(b *testing.B) {
	for b.Loop() {
		n := 0
		if err := Walk(4, nil, shard.Whole, func(Node) bool { n++; return true }); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(n), "scripts/op")
	}
}

// BenchmarkRun3 checks every script of up to 3 ops on both kinds of data,
// one worker.
func BenchmarkRun3(b *testing.B) {
	for b.Loop() {
		sum, _, err := Run(Options{MaxOps: 3})
		if err != nil || sum.Failures > 0 {
			b.Fatal(err, sum.Failures)
		}
		b.ReportMetric(float64(sum.Scripts), "scripts/op")
	}
}
