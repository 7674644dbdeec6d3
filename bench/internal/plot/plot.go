// Package plot draws small line charts on log-log axes as SVG, with nothing
// but the standard library: enough for the benchmark report's scaling plot.
package plot

import (
	"fmt"
	"html"
	"math"
	"strings"
)

// Series is one line: points (X[i], Y[i]), drawn in Color, dashed or solid.
// Points with a non-positive or non-finite coordinate are skipped.
type Series struct {
	Name   string
	Color  string
	Dashed bool
	X, Y   []float64
}

// Chart is one panel with log-scaled axes.
type Chart struct {
	Title, XLabel, YLabel string
	Series                []Series
	// XFmt and YFmt label the ticks; nil means Human.
	XFmt, YFmt func(float64) string
	// Refs are horizontal reference lines (targets).
	Refs []Ref
}

// Ref is a labelled horizontal line at Y.
type Ref struct {
	Y     float64
	Label string
	Color string
}

// Legend is one entry of the page legend.
type Legend struct {
	Label  string
	Color  string
	Dashed bool
}

const (
	panelW, panelH = 460, 340
	marginL        = 70
	marginR        = 20
	marginT        = 36
	marginB        = 48
)

// Page lays the charts out side by side above a legend and returns the SVG
// document.
func Page(title string, charts []Chart, legend []Legend) []byte {
	cols := len(charts)
	if cols == 0 {
		cols = 1
	}
	legendRows := (len(legend) + 2) / 3
	w := cols * panelW
	h := 40 + panelH + 20 + legendRows*20 + 10
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n", w, h, w, h)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="white"/>`+"\n", w, h)
	fmt.Fprintf(&b, `<text x="%d" y="24" text-anchor="middle" font-size="16" font-weight="bold">%s</text>`+"\n", w/2, esc(title))
	for i, c := range charts {
		fmt.Fprintf(&b, `<g transform="translate(%d,40)">`+"\n", i*panelW)
		c.draw(&b)
		b.WriteString("</g>\n")
	}
	y0 := 40 + panelH + 20
	colW := w / 3
	for i, l := range legend {
		x := (i%3)*colW + 20
		y := y0 + (i/3)*20
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="2"%s/>`, x, y, x+30, y, l.Color, dash(l.Dashed))
		fmt.Fprintf(&b, `<text x="%d" y="%d" dominant-baseline="middle">%s</text>`+"\n", x+38, y, esc(l.Label))
	}
	b.WriteString("</svg>\n")
	return []byte(b.String())
}

func dash(d bool) string {
	if d {
		return ` stroke-dasharray="6,4"`
	}
	return ""
}

func esc(s string) string { return html.EscapeString(s) }

func ok(v float64) bool { return v > 0 && !math.IsInf(v, 0) && !math.IsNaN(v) }

// bounds returns the decades that enclose every plottable value.
func bounds(vals []float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, v := range vals {
		if ok(v) {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	if math.IsInf(lo, 1) {
		return 1, 10
	}
	lo = math.Pow(10, math.Floor(math.Log10(lo)))
	hi = math.Pow(10, math.Ceil(math.Log10(hi)))
	if hi <= lo {
		hi = lo * 10
	}
	return lo, hi
}

func (c Chart) draw(b *strings.Builder) {
	var xs, ys []float64
	for _, s := range c.Series {
		xs = append(xs, s.X...)
		ys = append(ys, s.Y...)
	}
	for _, r := range c.Refs {
		ys = append(ys, r.Y)
	}
	x0, x1 := bounds(xs)
	y0, y1 := bounds(ys)
	pw := float64(panelW - marginL - marginR)
	ph := float64(panelH - marginT - marginB)
	px := func(x float64) float64 {
		return marginL + pw*(math.Log10(x)-math.Log10(x0))/(math.Log10(x1)-math.Log10(x0))
	}
	py := func(y float64) float64 {
		return marginT + ph*(1-(math.Log10(y)-math.Log10(y0))/(math.Log10(y1)-math.Log10(y0)))
	}
	fmt.Fprintf(b, `<text x="%d" y="18" text-anchor="middle" font-weight="bold">%s</text>`+"\n", panelW/2, esc(c.Title))
	fmt.Fprintf(b, `<rect x="%d" y="%d" width="%.0f" height="%.0f" fill="none" stroke="#333"/>`+"\n", marginL, marginT, pw, ph)
	xf, yf := c.XFmt, c.YFmt
	if xf == nil {
		xf = Human
	}
	if yf == nil {
		yf = Human
	}
	for _, t := range ticks(x0, x1, xf) {
		x := px(t.v)
		fmt.Fprintf(b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%.1f" stroke="%s"/>`+"\n", x, marginT, x, marginT+ph, gridColor(t.major))
		if t.label != "" {
			fmt.Fprintf(b, `<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`+"\n", x, marginT+ph+16, t.label)
		}
	}
	for _, t := range ticks(y0, y1, yf) {
		y := py(t.v)
		fmt.Fprintf(b, `<line x1="%d" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s"/>`+"\n", marginL, y, marginL+pw, y, gridColor(t.major))
		if t.label != "" {
			fmt.Fprintf(b, `<text x="%d" y="%.1f" text-anchor="end" dominant-baseline="middle">%s</text>`+"\n", marginL-6, y, t.label)
		}
	}
	fmt.Fprintf(b, `<text x="%.1f" y="%d" text-anchor="middle">%s</text>`+"\n", marginL+pw/2, panelH-8, esc(c.XLabel))
	fmt.Fprintf(b, `<text transform="translate(14,%.1f) rotate(-90)" text-anchor="middle">%s</text>`+"\n", marginT+ph/2, esc(c.YLabel))
	for _, r := range c.Refs {
		if !ok(r.Y) {
			continue
		}
		y := py(r.Y)
		fmt.Fprintf(b, `<line x1="%d" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="1" stroke-dasharray="2,3"/>`+"\n", marginL, y, marginL+pw, y, r.Color)
		fmt.Fprintf(b, `<text x="%.1f" y="%.1f" text-anchor="start" fill="%s" font-size="11" paint-order="stroke" stroke="white" stroke-width="3">%s</text>`+"\n", marginL+4.0, y+13, r.Color, esc(r.Label))
	}
	for _, s := range c.Series {
		var pts []string
		for i := range s.X {
			if i < len(s.Y) && ok(s.X[i]) && ok(s.Y[i]) {
				pts = append(pts, fmt.Sprintf("%.1f,%.1f", px(s.X[i]), py(s.Y[i])))
			}
		}
		if len(pts) == 0 {
			continue
		}
		fmt.Fprintf(b, `<polyline fill="none" stroke="%s" stroke-width="2"%s points="%s"><title>%s</title></polyline>`+"\n",
			s.Color, dash(s.Dashed), strings.Join(pts, " "), esc(s.Name))
		for _, p := range pts {
			xy := strings.SplitN(p, ",", 2)
			fmt.Fprintf(b, `<circle cx="%s" cy="%s" r="3" fill="%s"/>`+"\n", xy[0], xy[1], s.Color)
		}
	}
}

func gridColor(major bool) string {
	if major {
		return "#ccc"
	}
	return "#eee"
}

type tick struct {
	v     float64
	label string
	major bool
}

// ticks are the decades between lo and hi (labelled) and their 2× and 5×
// (labelled when the range spans at most two decades).
func ticks(lo, hi float64, label func(float64) string) []tick {
	var out []tick
	few := math.Log10(hi/lo) <= 2.01
	for d := lo; d <= hi*1.0001; d *= 10 {
		out = append(out, tick{d, label(d), true})
		for _, m := range []float64{2, 5} {
			if v := d * m; v < hi*0.9999 {
				l := ""
				if few {
					l = label(v)
				}
				out = append(out, tick{v, l, false})
			}
		}
	}
	return out
}

// Human writes a number with an SI suffix: 2k, 10M, 0.5.
func Human(v float64) string {
	switch {
	case v >= 1e9:
		return trim(v/1e9) + "G"
	case v >= 1e6:
		return trim(v/1e6) + "M"
	case v >= 1e3:
		return trim(v/1e3) + "k"
	}
	return trim(v)
}

func trim(v float64) string {
	s := fmt.Sprintf("%.2f", v)
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

// Duration labels a nanosecond count: 500ns, 2µs, 10ms, 1.5s.
func Duration(ns float64) string {
	switch {
	case ns >= 1e9:
		return trim(ns/1e9) + "s"
	case ns >= 1e6:
		return trim(ns/1e6) + "ms"
	case ns >= 1e3:
		return trim(ns/1e3) + "µs"
	}
	return trim(ns) + "ns"
}
