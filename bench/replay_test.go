package bench

import (
	"fmt"
	"testing"

	"sessiondag/checker/campaign"
	"sessiondag/checker/gen"
	"sessiondag/ops"
)

// BenchmarkReplayScript is `sessiondag replay` of one long generated
// session script (gen --seed 42, legacy shapes on, the writers' flags off)
// cut at 500, 1,000, … 8,000 ops, as the command runs it by default: every
// check that runs after an op, on data written with the flags on and with
// them off, spread by harness.Schedule (campaign.SpreadPerOp). Its time
// and memory must grow with the script's length: at most 2.2× per doubling
// (make bench-replay prints the growth). Each size is one replay
// (-benchtime 1x is enough); ops is the script's length, nodes the
// session's at its end.
func BenchmarkReplayScript(b *testing.B) {
	script, _ := gen.SessionScript("local_000000002a", 42, 6400, gen.Options{Legacy: true}, "off")
	for _, n := range []int{500, 1000, 2000, 4000, 8000} {
		if n > len(script) {
			b.Fatalf("the script has %d ops, fewer than %d", len(script), n)
		}
		f := &ops.File{Ops: script[:n]}
		b.Run(fmt.Sprintf("ops=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			defer cpuPerOp(b)()
			checked := 0
			for b.Loop() {
				found, scheds, err := campaign.ReplayScheduled(f, campaign.ReplayOptions{PerOp: campaign.SpreadPerOp})
				if err != nil || len(found) > 0 {
					b.Fatalf("%v %v", err, found)
				}
				checked = scheds[0].Checked
			}
			b.ReportMetric(float64(checked), "checked-ops")
		})
	}
}
