package main

import (
	"fmt"
	"math"
	"strconv"
)

// Number formats of the report; "—" stands for a value not measured.

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// sig writes v with three significant digits (no exponent).
func sig(v float64) string {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return "—"
	case math.Abs(v) >= 100:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case math.Abs(v) >= 10:
		return strconv.FormatFloat(v, 'f', 1, 64)
	}
	return strconv.FormatFloat(v, 'f', 2, 64)
}

func num(v float64, prec int) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "—"
	}
	return strconv.FormatFloat(v, 'f', prec, 64)
}

func pct(f float64) string { return fmt.Sprintf("%.1f%%", f*100) }

func dur(ns float64) string {
	if math.IsNaN(ns) {
		return "—"
	}
	switch {
	case ns >= 1e9:
		return fmt.Sprintf("%.2f s", ns/1e9)
	case ns >= 1e6:
		return fmt.Sprintf("%.2f ms", ns/1e6)
	case ns >= 1e3:
		return fmt.Sprintf("%.1f µs", ns/1e3)
	}
	return fmt.Sprintf("%.0f ns", ns)
}

func durSigned(ns float64) string {
	if math.IsNaN(ns) {
		return "—"
	}
	if ns < 0 {
		return "−" + dur(-ns)
	}
	return "+" + dur(ns)
}

func bytesStr(b float64) string {
	if math.IsNaN(b) {
		return "—"
	}
	switch {
	case b >= 1<<20:
		return fmt.Sprintf("%.1f MiB", b/(1<<20))
	case b >= 1<<10:
		return fmt.Sprintf("%.1f KiB", b/(1<<10))
	}
	return fmt.Sprintf("%.0f B", b)
}

// pm is the interval as ±percent of the median, as benchstat prints it.
func (s stat) pm() string {
	if s.center == 0 || s.n < 2 {
		return ""
	}
	if s.n < 6 {
		// AssumeNothing gives no interval below 6 samples: the range.
		return fmt.Sprintf(" (%s–%s)", dur(s.min), dur(s.max))
	}
	d := math.Max(s.center-s.lo, s.hi-s.center) / s.center * 100
	return fmt.Sprintf(" ±%.0f%%", d)
}
