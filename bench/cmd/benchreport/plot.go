package main

import (
	"fmt"

	"sessiondag/bench/internal/plot"
)

// plot draws time/op and ns/node against nodes for every benchmark.
func (r *report) plot() []byte {
	d := r.d
	colors := map[string]string{
		"Load": "#1f77b4", "ColdLoad": "#d62728", "Aggregate": "#2ca02c", "LinearHistory": "#9467bd",
		"GetBranch": "#8c564b", "RuntimeCards": "#e377c2", "Preds": "#ff7f0e",
	}
	floorColor := "#7f7f7f"
	var tSeries, nSeries []plot.Series
	var legend []plot.Legend
	seenLabel := map[string]bool{}
	for _, o := range order {
		for _, v := range d.variants(o.name) {
			color, dashed := colors[o.name], false
			switch v {
			case "flags=all":
				dashed = true
			case "open-only":
				color = "#bcbd22"
			case "read-files-only":
				color = floorColor
			}
			var xs, ts, ns []float64
			for _, n := range d.sizes {
				k := key{o.name, n, v}
				if _, ok := d.s[k]; !ok {
					continue
				}
				xs = append(xs, float64(d.nodes[n]))
				ts = append(ts, d.value(k, "ns/op"))
				ns = append(ns, d.value(k, "ns/node"))
			}
			if len(xs) == 0 {
				continue
			}
			name := o.name + " " + v
			tSeries = append(tSeries, plot.Series{Name: name, Color: color, Dashed: dashed, X: xs, Y: ts})
			nSeries = append(nSeries, plot.Series{Name: name, Color: color, Dashed: dashed, X: xs, Y: ns})
			label := o.name
			if v == "open-only" || v == "read-files-only" {
				label += " " + v
			}
			if !seenLabel[label] {
				seenLabel[label] = true
				legend = append(legend, plot.Legend{Label: label, Color: color})
			}
		}
	}
	legend = append(legend, plot.Legend{Label: "flags=off: solid, flags=all: dashed", Color: "#000", Dashed: true})
	charts := []plot.Chart{
		{Title: "time per op", XLabel: "nodes in the session", YLabel: "time/op", Series: tSeries, YFmt: plot.Duration},
		{Title: "time per node (flat = linear)", XLabel: "nodes in the session", YLabel: "ns/node", Series: nSeries,
			Refs: []plot.Ref{{Y: maxLoadNsPerNode, Label: fmt.Sprintf("Load target %.0f ns/node", maxLoadNsPerNode), Color: colors["Load"]}}},
	}
	return plot.Page("sessiondag load pipeline: scaling", charts, legend)
}
