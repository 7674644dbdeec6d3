package main

import (
	"os"
	"runtime"
	"strings"
)

// runInfo is what scripts/bench-report.sh tells about the run, shown as
// given ("" when not given).
type runInfo struct {
	count, benchtime, goVersion, commit, date, loadBefore, loadAfter, svg string
}

// machine is the computer that ran the benchmarks; tests fix it, so that
// the report does not depend on where they run.
type machine struct {
	cpu   string
	cores int
}

// localMachine describes this computer: the script writes the report
// where it ran the benchmarks.
func localMachine(cpuFromResults string) machine {
	return machine{cpu: cpuModel(cpuFromResults), cores: runtime.NumCPU()}
}

// cpuModel is /proc/cpuinfo's model name, or the results' cpu line where
// there is no /proc/cpuinfo.
func cpuModel(fromResults string) string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				return strings.TrimSpace(v)
			}
		}
	}
	return orDash(fromResults)
}
