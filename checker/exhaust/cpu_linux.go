//go:build linux

package exhaust

import "syscall"

// rusageThread is Linux's RUSAGE_THREAD, which package syscall does not name.
const rusageThread = 1

// threadCPUSeconds is the processor time of the calling thread (user and
// system), and true; with the goroutine locked to its thread it is that
// goroutine's, whatever else the process runs beside it.
func threadCPUSeconds() (float64, bool) {
	var ru syscall.Rusage
	if syscall.Getrusage(rusageThread, &ru) != nil {
		return 0, false
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9, true
}
