package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// synth writes a results file: six runs of a few benchmarks at three sizes,
// with times that scale by the given factor per size step.
func synth(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("goos: linux\ngoarch: amd64\npkg: sessiondag/bench\ncpu: Test CPU\n")
	nodes := map[int]int{1000: 1000, 10000: 10001, 100000: 100003}
	line := func(name string, n int, nsPerNode, allocsPerNode float64) {
		ns := nsPerNode * float64(nodes[n])
		fmt.Fprintf(&b, "Benchmark%s-2 \t 10\t %.0f ns/op\t %.2f ns/node\t %d B/op\t %.0f allocs/op\n",
			name, ns, nsPerNode, 100*nodes[n], allocsPerNode*float64(nodes[n]))
	}
	for run := 0; run < 6; run++ {
		j := 1 + float64(run)/1000 // a little noise
		for _, n := range []int{1000, 10000, 100000} {
			grow := map[int]float64{1000: 1, 10000: 1, 100000: 1.5}[n] // 100k: 15x the 10k time
			line(fmt.Sprintf("Load/nodes=%d/flags=off", n), n, 200*j*grow, 3)
			line(fmt.Sprintf("Load/nodes=%d/flags=all", n), n, 200*j*grow*1.2, 3)
			line(fmt.Sprintf("Aggregate/nodes=%d/flags=off", n), n, 50*j, 1.5)
			line(fmt.Sprintf("Aggregate/nodes=%d/flags=all", n), n, 50*j, 1.5)
			line(fmt.Sprintf("ColdLoad/nodes=%d/flags=off", n), n, 1000*j, 20)
			line(fmt.Sprintf("ColdLoad/nodes=%d/read-files-only", n), n, 400*j, 8)
		}
	}
	path := filepath.Join(t.TempDir(), "results.txt")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestReportTargets(t *testing.T) {
	d, err := read(synth(t))
	if err != nil {
		t.Fatal(err)
	}
	if got := d.nodes[100000]; got != 100003 {
		t.Errorf("nodes at 100k derived as %d, want 100003", got)
	}
	r := &report{d: d, run: runInfo{svg: "scaling.svg"}}
	var out bytes.Buffer
	r.write(&out)
	status := map[string]string{}
	for _, tg := range r.targets {
		status[tg.name] = tg.status
	}
	want := map[string]string{
		"Load: time 100k / 10k":                         "NOT met", // 15x
		"Aggregate: time 100k / 10k":                    "met",
		"Load flags=off at 100k: ns/node":               "NOT met", // 300
		"Aggregate flags=off: allocs/node (worst size)": "met",
		"ColdLoad flags=off / read-files-only":          "NOT met", // 2.5
		"Load at 100003: flags all vs off":              "NOT met", // +20%, p = 0.002
	}
	for name, w := range want {
		got, ok := status[name]
		if !ok {
			t.Errorf("no target %q; have %v", name, status)
			continue
		}
		if w == "met" && strings.Contains(got, "NOT") || w == "NOT met" && !strings.Contains(got, "NOT met") {
			t.Errorf("target %q: %s, want %s", name, got, w)
		}
	}
	for _, s := range []string{"## Targets", "### Load", "| 100003 | flags=all |"} {
		if !strings.Contains(out.String(), s) {
			t.Errorf("report lacks %q", s)
		}
	}
	if svg := r.plot(); !bytes.Contains(svg, []byte("<polyline")) {
		t.Error("plot has no lines")
	}
}

func TestWriteProfile(t *testing.T) {
	var b bytes.Buffer
	writeProfile(&b, profile{name: "1-x", lines: []string{
		"# CPU: Load", "timed loop: Showing nodes accounting for 1s, 50% of 2s total",
		"## flat", "      flat  flat%", "## cum", "   cum",
	}})
	out := b.String()
	if !strings.HasPrefix(out, "### CPU: Load\n") || strings.Count(out, "```") != 4 || !strings.Contains(out, "- timed loop:") {
		t.Errorf("profile rendered as\n%s", out)
	}
}

func TestWorkloadsRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "w.json")
	in := []workloadInfo{{size: 1000, deepest: 7, chain: map[string]int{"off": 3}, all: map[string]int{"off": 9},
		fallback: map[string]bool{"off": true}, trigger: map[string]bool{"off": true}}}
	in[0].mix.Nodes, in[0].mix.ToolRows = 1001, 200
	if err := saveWorkloads(path, in); err != nil {
		t.Fatal(err)
	}
	out, err := readWorkloads(path)
	if err != nil || len(out) != 1 || out[0].mix.Nodes != 1001 || out[0].deepest != 7 || out[0].chain["off"] != 3 || !out[0].fallback["off"] {
		t.Fatalf("round trip: %+v, %v", out, err)
	}
}
