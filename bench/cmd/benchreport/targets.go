package main

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"sessiondag/bench/internal/plot"
)

// Limits of docs/rollout.md §7 ("Targets").
const (
	maxScaleRatio    = 12.0  // t(100k) / t(10k)
	maxLoadNsPerNode = 250.0 // whole in-memory load at 100k
	maxAggAllocsNode = 2.0   // aggregation allocations per node
	maxColdVsFloor   = 2.0   // cold load / read-files floor
	maxFlagsDeltaPct = 5.0   // flags=all slower than off, percent
)

// The sizes the targets compare.
const (
	mid = 10000
	big = 100000
)

// target is one line of the targets table; name and status are also
// printed when the report is written.
type target struct {
	name, value, limit, status string
}

// targets collects the targets of one report.
type targets struct {
	d    *data
	list []target
}

// check adds a target that is met or not, marked noisy when any of the
// series it is computed from is.
func (ts *targets) check(name, value, limit string, met bool, note string, from ...key) {
	st := "met"
	if !met {
		st = "**NOT met**"
	}
	if note != "" {
		st += " " + note
	}
	if nz := ts.d.noisy(from...); len(nz) > 0 {
		st += " — noisy run (" + strings.Join(nz, "; ") + "): rerun on a quieter machine"
	}
	ts.list = append(ts.list, target{name, value, limit, st})
}

// computeTargets evaluates every target against d.
func computeTargets(d *data) []target {
	if !slices.Contains(d.sizes, big) || !slices.Contains(d.sizes, mid) {
		return []target{{"sizes 10k and 100k measured", "no", "", "**NOT met** (run all sizes)"}}
	}
	ts := &targets{d: d}
	for _, o := range order {
		ts.scaling(o.name, o.diag)
	}
	for _, b := range []string{"Load", "LoadAfterAppend", "LoadAfterUpdate"} {
		ts.loadPerNode(b)
	}
	ts.aggregateAllocs()
	ts.coldVsFloor()
	for _, b := range []string{"Load", "ColdLoad"} {
		ts.flagsCost(b)
	}
	return ts.list
}

// scaling is one line per benchmark, held to its worst variant.
func (ts *targets) scaling(bench string, diag bool) {
	d := ts.d
	worst, wv := -1.0, ""
	var vals []string
	var from []key
	for _, v := range d.variants(bench) {
		ratio := d.value(key{bench, big, v}, "ns/op") / d.value(key{bench, mid, v}, "ns/op")
		if math.IsNaN(ratio) {
			continue
		}
		from = append(from, key{bench, big, v}, key{bench, mid, v})
		vals = append(vals, fmt.Sprintf("%s %.1f", v, ratio))
		if ratio > worst {
			worst, wv = ratio, v
		}
	}
	name, value := fmt.Sprintf("%s: time 100k / 10k", bench), strings.Join(vals, ", ")
	switch {
	case wv == "":
	case diag:
		ts.list = append(ts.list, target{name, value, "—", "diagnostic, not a target"})
	default:
		ts.check(name, value, fmt.Sprintf("≤ %.0f", maxScaleRatio), worst <= maxScaleRatio, "", from...)
	}
}

// loadPerNode holds a whole in-memory load at 100k (repeated, or after a
// write) to its time per node.
func (ts *targets) loadPerNode(bench string) {
	for _, v := range ts.d.variants(bench) {
		k := key{bench, big, v}
		if x := ts.d.value(k, "ns/node"); !math.IsNaN(x) {
			ts.check(fmt.Sprintf("%s %s at 100k: ns/node", bench, v), fmt.Sprintf("%.0f ns/node", x),
				fmt.Sprintf("≤ %.0f", maxLoadNsPerNode), x <= maxLoadNsPerNode, "", k)
		}
	}
}

// aggregateAllocs holds aggregation to its allocations per node at the
// worst size. It counts allocations, not time, so no series' spread of
// times marks it noisy.
func (ts *targets) aggregateAllocs() {
	d := ts.d
	for _, v := range d.variants("Aggregate") {
		worst, at := -1.0, 0
		for _, n := range d.sizes {
			a := d.value(key{"Aggregate", n, v}, "allocs/op") / float64(d.nodes[n])
			if a > worst {
				worst, at = a, n
			}
		}
		if at != 0 {
			ts.check(fmt.Sprintf("Aggregate %s: allocs/node (worst size)", v), fmt.Sprintf("%.2f at %d nodes", worst, d.nodes[at]),
				fmt.Sprintf("≤ %.0f", maxAggAllocsNode), worst <= maxAggAllocsNode, "")
		}
	}
}

// coldVsFloor holds each flag set's cold load to a multiple of the time
// it takes to read the files, at every size.
func (ts *targets) coldVsFloor() {
	d := ts.d
	for _, v := range d.variants("ColdLoad") {
		if !strings.HasPrefix(v, "flags=") {
			continue
		}
		var vals []string
		var from []key
		worst := -1.0
		for _, n := range d.sizes {
			cold, floor := key{"ColdLoad", n, v}, key{"ColdLoad", n, "read-files-only"}
			ratio := d.value(cold, "ns/op") / d.value(floor, "ns/op")
			if math.IsNaN(ratio) {
				continue
			}
			from = append(from, cold, floor)
			vals = append(vals, fmt.Sprintf("%.1f at %s", ratio, plot.Human(float64(n))))
			worst = math.Max(worst, ratio)
		}
		if worst > 0 {
			ts.check(fmt.Sprintf("ColdLoad %s / read-files-only", v), strings.Join(vals, ", "),
				fmt.Sprintf("≤ %.0f", maxColdVsFloor), worst <= maxColdVsFloor, "", from...)
		}
	}
}

// flagsCost holds flags=all to at most maxFlagsDeltaPct slower than off,
// at every size, when the U test finds a difference.
func (ts *targets) flagsCost(bench string) {
	d := ts.d
	limit := fmt.Sprintf("all ≤ off + %.0f%%", maxFlagsDeltaPct)
	for _, n := range d.sizes {
		offK, allK := key{bench, n, "flags=off"}, key{bench, n, "flags=all"}
		off, all := d.s[offK], d.s[allK]
		if off == nil || all == nil {
			continue
		}
		delta, p := compare(off["ns/op"], all["ns/op"])
		name, value := fmt.Sprintf("%s at %d: flags all vs off", bench, d.nodes[n]), fmt.Sprintf("%+.1f%% (p=%.3f)", delta, p)
		switch {
		case delta <= maxFlagsDeltaPct:
			note := ""
			if delta < -maxFlagsDeltaPct {
				note = "(all is faster; see below)"
			}
			ts.check(name, value, limit, true, note, offK, allK)
		case p >= 0.05:
			ts.list = append(ts.list, target{name, value, limit, "inconclusive (not significant: rerun)"})
		default:
			ts.check(name, value, limit, false, "(breakdown below)", offK, allK)
		}
	}
}
