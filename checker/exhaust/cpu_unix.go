//go:build unix

package exhaust

import "syscall"

// cpuSeconds is the processor time the process has used so far (user and
// system): on a machine shared with other jobs it measures the run where
// wall time does not.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
