package exhaust

import (
	"sessiondag/checker/harness"
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

// BenchmarkRun3 checks every script of up to 3 ops with P1–P5 (the checks
// legacy, target, rollout, cutoff and cards, each where its kinds of data
// admit the script), one worker: the same work whatever the default set.
func BenchmarkRun3(b *testing.B) { benchRun(b, "legacy,target,rollout,cutoff,cards") }

// BenchmarkRun3Default is the same with the default checks (DefaultChecks).
func BenchmarkRun3Default(b *testing.B) { benchRun(b, "") }

func benchRun(b *testing.B, checks string) {
	o := Options{MaxOps: 3}
	if checks != "" {
		var err error
		if o.Checks, err = harness.Select(checks); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		sum, _, err := Run(o)
		if err != nil || sum.Failures > 0 {
			b.Fatal(err, sum.Failures)
		}
		b.ReportMetric(float64(sum.Scripts), "scripts/op")
	}
}
