package main

import (
	"math"
	"slices"
	"strings"

	"golang.org/x/perf/benchfmt"
)

// key names one series: a benchmark at one size in one variant.
type key struct {
	bench   string // base name without "Benchmark"
	nodes   int    // nominal size, from nodes=N
	variant string // flags=off, flags=all, open-only, read-files-only…
}

// compareKeys orders keys by size, then benchmark, then variant.
func compareKeys(a, b key) int {
	if a.nodes != b.nodes {
		return a.nodes - b.nodes
	}
	if c := strings.Compare(a.bench, b.bench); c != 0 {
		return c
	}
	return strings.Compare(a.variant, b.variant)
}

type series map[string][]float64 // unit → samples, one per run

// data is one results file, grouped by series.
type data struct {
	s      map[key]series
	config map[string]string // file-level config (goos, cpu…)
	procs  string            // the -N GOMAXPROCS suffix seen last
	nodes  map[int]int       // nominal size → stored nodes
	sizes  []int             // nominal sizes, ascending
}

// order is the benchmarks in report order; their descriptions are in the
// report's template. diag marks the ones added to explain the others: their
// 100k/10k ratio is shown but is not one of the targets of docs/rollout.md §7.
var order = []struct {
	name string
	diag bool
}{
	{"Load", false},
	{"LoadAfterAppend", true},
	{"LoadAfterUpdate", true},
	{"ColdLoad", false},
	{"Aggregate", false},
	{"LinearHistory", false},
	{"GetBranch", false},
	{"RuntimeCards", false},
	{"Siblings", true},
	{"Preds", true},
}

// value is the median of a unit, NaN when absent.
func (d *data) value(k key, unit string) float64 {
	if sr, ok := d.s[k]; ok {
		return median(sr[unit])
	}
	return math.NaN()
}

// variantRank puts the flag sets first and the cold load's floors last.
var variantRank = map[string]int{
	"flags=off": 0, "flags=all": 1, "flags=cur": 2, "open-only": 4, "read-files-only": 5,
}

// variants lists the variants measured of a benchmark, in report order;
// variants without a rank come after the flag sets, alphabetically.
func (d *data) variants(bench string) []string {
	var out []string
	for k := range d.s {
		if k.bench == bench && !slices.Contains(out, k.variant) {
			out = append(out, k.variant)
		}
	}
	rank := func(v string) int {
		if r, ok := variantRank[v]; ok {
			return r
		}
		return 3
	}
	slices.SortFunc(out, func(a, b string) int {
		if ra, rb := rank(a), rank(b); ra != rb {
			return ra - rb
		}
		return strings.Compare(a, b)
	})
	return out
}

// storedNodes estimates the stored nodes of each size as ns/op ÷ ns/node
// (exact up to printing) from the first series, in key order, that has
// both; the workloads' description, when there is one, replaces it.
func storedNodes(s map[key]series) map[int]int {
	keys := make([]key, 0, len(s))
	for k := range s {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, compareKeys)
	nodes := map[int]int{}
	for _, k := range keys {
		if nodes[k.nodes] != 0 {
			continue
		}
		t, tn := median(s[k]["ns/op"]), median(s[k]["ns/node"])
		if t > 0 && tn > 0 {
			nodes[k.nodes] = int(math.Round(t / tn))
		}
	}
	return nodes
}

// addValues appends a result's values to its series, in the units the
// benchmark printed; NaN and infinite values are left out.
func addValues(sr series, values []benchfmt.Value) {
	for _, v := range values {
		unit, val := v.Unit, v.Value
		if v.OrigUnit != "" {
			unit, val = v.OrigUnit, v.OrigValue
		}
		if math.IsNaN(val) || math.IsInf(val, 0) {
			continue
		}
		sr[unit] = append(sr[unit], val)
	}
}
