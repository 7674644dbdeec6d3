package gate

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

	"sessiondag/internal/verdict"

	"golang.org/x/perf/benchunit"
)

// writeReport prints the comparison table, the one-sided benchmarks and
// the summary lines. The table is printed whatever the verdict, so a
// failing CI log shows the evidence next to the verdict.
func writeReport(w io.Writer, rep *report, oldPath, newPath string) error {
	ew := &errWriter{w: w}
	fmt.Fprintf(ew, "benchgate: OLD=%s NEW=%s  rule: sec/op, B/op, allocs/op worse by > %s%% with p < %g\n\n",
		oldPath, newPath, fmtNum(rep.thresholdPct), rep.alpha)
	writeTable(ew, rep)
	writeOneSided(ew, rep)
	writeSummary(ew, rep)
	return ew.err
}

func writeTable(w io.Writer, rep *report) {
	if len(rep.rows) == 0 {
		fmt.Fprintln(w, "no benchmark present in both files")
		return
	}
	// Rendered into a buffer so the padding tabwriter leaves before an
	// empty last column can be trimmed: CI logs and diffs stay clean.
	var buf bytes.Buffer
	tw := tabwriter.NewWriter(&buf, 0, 4, 2, ' ', 0)
	pkg := "\x00" // no package seen yet
	for _, r := range rep.rows {
		// One header per package, as benchstat prints one table per
		// configuration.
		if r.key.Pkg != pkg {
			if pkg != "\x00" {
				fmt.Fprintln(tw)
			}
			pkg = r.key.Pkg
			if pkg != "" {
				fmt.Fprintf(tw, "pkg: %s\n", pkg)
			}
			fmt.Fprintln(tw, "benchmark\tunit\told median ± CI\tnew median ± CI\tdelta\tp\tn old+new\tverdict\tnote")
		}
		sc := benchunit.CommonScale([]float64{r.old.Center, r.new.Center}, benchunit.ClassOf(r.key.Unit))
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%d+%d\t%s\t%s\n",
			r.key.Name, r.key.Unit,
			fmtSummary(sc, r.old.Center, r.old.PctRangeString()),
			fmtSummary(sc, r.new.Center, r.new.PctRangeString()),
			fmtDelta(r.deltaPct), fmtP(r.p), r.nOld, r.nNew, r.change,
			strings.Join(rowNotes(r, rep.alpha), "; "))
	}
	tw.Flush()
	for _, line := range strings.SplitAfter(buf.String(), "\n") {
		if line != "" {
			io.WriteString(w, strings.TrimRight(line, " \n")+"\n")
		}
	}
}

// rowNotes puts the too-few warning first: it is the one that changes
// how the verdict must be read.
func rowNotes(r row, alpha float64) []string {
	var notes []string
	if r.tooFew {
		notes = append(notes, fmt.Sprintf("TOO FEW SAMPLES: min attainable p=%.3f, not < alpha=%g", r.minP, alpha))
	}
	return append(notes, r.notes...)
}

func writeOneSided(w io.Writer, rep *report) {
	for _, side := range []struct {
		label string
		keys  []seriesKey
	}{{"OLD", rep.onlyOld}, {"NEW", rep.onlyNew}} {
		if len(side.keys) == 0 {
			continue
		}
		fmt.Fprintf(w, "\nonly in %s (not compared):\n", side.label)
		// Keys are sorted, so the units of one benchmark are adjacent.
		for i := 0; i < len(side.keys); {
			k := side.keys[i]
			var units []string
			for ; i < len(side.keys) && side.keys[i].Pkg == k.Pkg && side.keys[i].Name == k.Name; i++ {
				units = append(units, side.keys[i].Unit)
			}
			fmt.Fprintf(w, "  %s [%s]\n", qualified(k), strings.Join(units, " "))
		}
	}
}

func writeSummary(w io.Writer, rep *report) {
	fmt.Fprintln(w)
	if len(rep.configDiffs) > 0 {
		fmt.Fprintf(w, "WARNING: OLD and NEW differ in configuration (%s): results may not be comparable\n",
			strings.Join(rep.configDiffs, "; "))
	}
	if n1, n2 := countBenchmarks(rep.onlyOld), countBenchmarks(rep.onlyNew); n1+n2 > 0 {
		fmt.Fprintf(w, "WARNING: %d benchmark(s) only in OLD, %d only in NEW: not compared\n", n1, n2)
	}
	if few := rep.tooFew(); len(few) > 0 {
		fmt.Fprintf(w, "WARNING: too few samples to decide %d of %d comparison(s) (%s): the U test cannot reach p < %g, so a regression there can NOT be detected; run >= %d per side (10 or more recommended, interleaved)\n",
			len(few), len(rep.rows), sampleSizes(few), rep.alpha, samplesNeeded(rep.alpha))
	}

	fmt.Fprintln(w, rep.verdict().Line())
}

// verdict is the gate's: fail on a regression (significant and beyond the
// threshold); undecided when none was found but a gated comparison had
// too few samples to find one, or nothing was compared; else pass.
func (r *report) verdict() verdict.Verdict {
	rule := fmt.Sprintf("> +%s%% and p < %g", fmtNum(r.thresholdPct), r.alpha)
	if regs := r.regressions(); len(regs) > 0 {
		var parts []string
		for _, x := range regs {
			parts = append(parts, fmt.Sprintf("%s %s %s (p=%s)", qualified(x.key), x.key.Unit, fmtDelta(x.deltaPct), fmtP(x.p)))
		}
		return verdict.FailBecause(fmt.Sprintf("%d regression(s) (%s): %s", len(regs), rule, strings.Join(parts, ", ")))
	}
	if und := r.undecided(); len(und) > 0 {
		return verdict.UndecidedBecause(fmt.Sprintf("no regression found (%s), but %d of %d gated comparison(s) had too few samples to find one (%s): not a pass",
			rule, len(und), len(r.rows), sampleSizes(und)))
	}
	if len(r.rows) == 0 {
		return verdict.UndecidedBecause("nothing compared")
	}
	return verdict.PassBecause(fmt.Sprintf("no regression (%s) in %d comparison(s)", rule, len(r.rows)))
}

// sampleSizes lists the distinct n old+new of rows with their p floor,
// e.g. "n=3+3: min p 0.100", in row order.
func sampleSizes(rows []row) string {
	seen := make(map[[2]int]bool)
	var parts []string
	for _, r := range rows {
		k := [2]int{r.nOld, r.nNew}
		if !seen[k] {
			seen[k] = true
			parts = append(parts, fmt.Sprintf("n=%d+%d: min p %.3f", r.nOld, r.nNew, r.minP))
		}
	}
	return strings.Join(parts, ", ")
}

// countBenchmarks counts distinct benchmarks (not units) in sorted keys.
func countBenchmarks(keys []seriesKey) int {
	n := 0
	for i, k := range keys {
		if i == 0 || k.Pkg != keys[i-1].Pkg || k.Name != keys[i-1].Name {
			n++
		}
	}
	return n
}

func qualified(k seriesKey) string {
	if k.Pkg == "" {
		return k.Name
	}
	return k.Pkg + "." + k.Name
}

func fmtSummary(sc benchunit.Scaler, center float64, pctRange string) string {
	return sc.Format(center) + " ± " + pctRange
}

func fmtDelta(d float64) string {
	switch {
	case math.IsInf(d, 1):
		return "+∞%"
	case math.IsInf(d, -1):
		return "-∞%"
	case d == 0:
		return "0.00%"
	}
	return fmt.Sprintf("%+.2f%%", d)
}

func fmtP(p float64) string {
	if p > 0 && p < 0.001 {
		return fmt.Sprintf("%.0e", p)
	}
	return fmt.Sprintf("%.3f", p)
}

// fmtNum prints a flag value without trailing zeros (5, 2.5).
func fmtNum(v float64) string {
	return fmt.Sprintf("%g", v)
}

// errWriter keeps the first write error so printing code stays linear.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}
