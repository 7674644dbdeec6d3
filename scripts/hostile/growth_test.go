package main

import (
	"os"
	"testing"
)

// TestGrowthGate: noise in one doubling's processor time is reported but
// the series decides; a series that grows as n² fails, in processor time
// or in memory, and memory fails at any single step.
func TestGrowthGate(t *testing.T) {
	series := func(cpu, mem [3]float64) []point {
		var pts []point
		for i, n := range []int{1000, 2000, 4000} {
			w := float64(n)
			pts = append(pts, point{tree: "t", cmd: "audit", size: n, in: w, cpu: cpu[i], mem: mem[i]})
		}
		return pts
	}
	for _, c := range []struct {
		name     string
		cpu, mem [3]float64
		want     bool
	}{
		{"linear", [3]float64{1, 2, 4}, [3]float64{1, 2, 4}, true},
		{"one noisy doubling", [3]float64{1, 2.5, 4.2}, [3]float64{1, 2, 4}, true},
		{"n² processor time", [3]float64{1, 4, 16}, [3]float64{1, 2, 4}, false},
		{"n² memory", [3]float64{1, 2, 4}, [3]float64{1, 4, 16}, false},
		{"one step of memory over", [3]float64{1, 2, 4}, [3]float64{1, 2.5, 4}, false},
	} {
		stdout := os.Stdout
		os.Stdout, _ = os.OpenFile(os.DevNull, os.O_WRONLY, 0)
		got := growth(series(c.cpu, c.mem), 2.2, 0, "cpu", "mem")
		os.Stdout = stdout
		if got != c.want {
			t.Errorf("%s: within the limit = %v, want %v", c.name, got, c.want)
		}
	}
}
