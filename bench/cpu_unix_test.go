//go:build unix

package bench

import (
	"syscall"
	"testing"
)

// cpuPerOp starts counting the process's processor time (user and system,
// every thread); the function it returns reports it per op as cpu-ns/op.
// On a machine shared with other work the wall time of an op stretches;
// its processor time much less.
func cpuPerOp(b *testing.B) func() {
	start := cpuTime()
	return func() {
		if b.N > 0 {
			b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
		}
	}
}

func cpuTime() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
