package main

import (
	"fmt"
	"math"

	"golang.org/x/perf/benchmath"

	"sessiondag/bench/internal/plot"
)

// stat is a sample's median and its 95% interval, as benchstat computes it,
// with the extremes for samples too small to have an interval.
type stat struct {
	center, lo, hi float64
	min, max       float64
	n              int
}

func summarize(vals []float64) (stat, bool) {
	if len(vals) == 0 {
		return stat{}, false
	}
	// NewSample sorts its argument: the series keeps its run order.
	s := benchmath.NewSample(append([]float64(nil), vals...), &benchmath.DefaultThresholds)
	sum := benchmath.AssumeNothing.Summary(s, 0.95)
	st := stat{center: sum.Center, lo: sum.Lo, hi: sum.Hi, min: math.Inf(1), max: math.Inf(-1), n: len(vals)}
	for _, v := range vals {
		st.min, st.max = math.Min(st.min, v), math.Max(st.max, v)
	}
	return st, true
}

// median is NaN for no samples, so that ratios of absent series are NaN.
func median(vals []float64) float64 {
	s, ok := summarize(vals)
	if !ok {
		return math.NaN()
	}
	return s.center
}

// compare returns the change of new's median against old's, in percent,
// and the U test's p-value.
func compare(old, new []float64) (float64, float64) {
	so := benchmath.NewSample(append([]float64(nil), old...), &benchmath.DefaultThresholds)
	sn := benchmath.NewSample(append([]float64(nil), new...), &benchmath.DefaultThresholds)
	c := benchmath.AssumeNothing.Compare(so, sn)
	mo, mn := median(old), median(new)
	return (mn/mo - 1) * 100, c.P
}

// noisyRatio is the max/min spread of a series' times above which a
// target computed from it is marked noisy.
const noisyRatio = 1.5

// noisy lists the series among keys whose times spread more than
// noisyRatio between runs.
func (d *data) noisy(keys ...key) []string {
	var out []string
	for _, k := range keys {
		st, ok := summarize(d.s[k]["ns/op"])
		if ok && st.min > 0 && st.max/st.min > noisyRatio {
			out = append(out, fmt.Sprintf("%s/%s at %s: max/min %.1f", k.bench, k.variant, plot.Human(float64(k.nodes)), st.max/st.min))
		}
	}
	return out
}
