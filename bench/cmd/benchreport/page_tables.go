package main

import (
	"math"
	"strings"
)

type scalingView struct {
	Nodes10k, Nodes100k int
	Rows                []scalingRow
}

// Factor is the ratio of the two sessions' nodes: what a linear algorithm
// takes longer at 100k.
func (s scalingView) Factor() float64 { return float64(s.Nodes100k) / float64(s.Nodes10k) }

type scalingRow struct {
	Bench, Variant string
	Small, Large   float64 // time 10k / 1k and 100k / 10k
	Missing        bool    // no 100k / 10k ratio
	Diag           bool    // a diagnostic, not a target
}

func scalingOf(d *data) scalingView {
	v := scalingView{Nodes10k: d.nodes[mid], Nodes100k: d.nodes[big]}
	for _, o := range order {
		for _, variant := range d.variants(o.name) {
			t := func(n int) float64 { return d.value(key{o.name, n, variant}, "ns/op") }
			large := t(big) / t(mid)
			v.Rows = append(v.Rows, scalingRow{Bench: o.name, Variant: variant,
				Small: t(mid) / t(1000), Large: large, Missing: math.IsNaN(large), Diag: o.diag})
		}
	}
	return v
}

type flagsView struct {
	Rows      []flagsRow  // each benchmark with flags=off at the smallest size
	Stages    []stageRow  // the load's stages at 100k
	Fallbacks []chainNote // 100k workloads whose flags=off load computes the fallback
}

type flagsRow struct {
	Bench string
	Cells []flagsCell // 1k, 10k, 100k
}

type flagsCell struct {
	Measured bool
	Delta, P float64 // change of the median in percent, U test's p-value
}

type stageRow struct {
	Stage         string
	Off, All, Add float64 // medians; Add = All − Off
}

type chainNote struct{ Chain, All int }

func flagsOf(d *data, workloads []workloadInfo) flagsView {
	var v flagsView
	for _, o := range order {
		if d.s[key{o.name, d.sizes[0], "flags=off"}] == nil {
			continue
		}
		row := flagsRow{Bench: o.name}
		for _, n := range []int{1000, mid, big} {
			off, all := d.s[key{o.name, n, "flags=off"}], d.s[key{o.name, n, "flags=all"}]
			c := flagsCell{Measured: off != nil && all != nil}
			if c.Measured {
				c.Delta, c.P = compare(off["ns/op"], all["ns/op"])
			}
			row.Cells = append(row.Cells, c)
		}
		v.Rows = append(v.Rows, row)
	}
	for _, st := range []string{"Load", "Aggregate", "LinearHistory", "GetBranch", "Siblings", "Preds"} {
		off, all := d.value(key{st, big, "flags=off"}, "ns/op"), d.value(key{st, big, "flags=all"}, "ns/op")
		if math.IsNaN(off) && math.IsNaN(all) {
			continue
		}
		if st == "Preds" {
			off = 0 // flags=off derives no predecessors
		}
		v.Stages = append(v.Stages, stageRow{Stage: st, Off: off, All: all, Add: all - off})
	}
	for _, wi := range workloads {
		if wi.size == big && wi.err == nil && wi.trigger["off"] {
			v.Fallbacks = append(v.Fallbacks, chainNote{Chain: wi.chain["off"], All: wi.all["off"]})
		}
	}
	return v
}

// resultsView is one benchmark's table of medians.
type resultsView struct {
	Bench     string
	Rows      []resultRow
	FirstLoad []firstLoadRow // Load only
}

type resultRow struct {
	Nodes                             int
	Variant                           string
	Time                              float64
	Interval                          string // stat.pm
	NsNode, Bytes, Allocs, AllocsNode float64
}

type firstLoadRow struct {
	Nodes          int
	Variant        string
	First, PerNode float64
	Share          float64 // the repeated load's time, percent of the first
}

func resultsOf(d *data) []resultsView {
	var out []resultsView
	for _, o := range order {
		vs := d.variants(o.name)
		if len(vs) == 0 {
			continue
		}
		v := resultsView{Bench: o.name}
		for _, n := range d.sizes {
			for _, variant := range vs {
				if sr, ok := d.s[key{o.name, n, variant}]; ok {
					v.Rows = append(v.Rows, resultOf(sr, d.nodes[n], variant))
				}
			}
		}
		if o.name == "Load" {
			v.FirstLoad = firstLoads(d)
		}
		out = append(out, v)
	}
	return out
}

func resultOf(sr series, nodes int, variant string) resultRow {
	t, _ := summarize(sr["ns/op"])
	allocs := median(sr["allocs/op"])
	return resultRow{Nodes: nodes, Variant: variant, Time: t.center, Interval: t.pm(),
		NsNode: median(sr["ns/node"]), Bytes: median(sr["B/op"]), Allocs: allocs, AllocsNode: allocs / float64(nodes)}
}

// firstLoads derives the first in-memory load of a store (adapter memo
// cold), which has no benchmark of its own: ColdLoad flags=F minus
// open-only.
func firstLoads(d *data) []firstLoadRow {
	var rows []firstLoadRow
	for _, n := range d.sizes {
		open := d.value(key{"ColdLoad", n, "open-only"}, "ns/op")
		for _, v := range d.variants("ColdLoad") {
			if !strings.HasPrefix(v, "flags=") {
				continue
			}
			cold := d.value(key{"ColdLoad", n, v}, "ns/op")
			if math.IsNaN(open) || math.IsNaN(cold) {
				continue
			}
			first := cold - open
			rows = append(rows, firstLoadRow{Nodes: d.nodes[n], Variant: v, First: first, PerNode: first / float64(d.nodes[n]),
				Share: d.value(key{"Load", n, v}, "ns/op") / first * 100})
		}
	}
	return rows
}
