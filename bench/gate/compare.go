package gate

import (
	"math"
	"sort"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchmath"
)

// confidence is the level of the median intervals shown in the table,
// the same as benchstat's default.
const confidence = 0.95

// gatedUnits are the units where a larger NEW value is a regression.
// benchfmt tidies ns/op to sec/op before the gate sees it.
var gatedUnits = map[string]bool{"sec/op": true, "B/op": true, "allocs/op": true}

// change is the last column of the table: what a row's comparison found.
type change string

const (
	changeSame       change = "~"          // no significant difference (or too few samples)
	changeFaster     change = "faster"     // significantly better in this unit's direction
	changeSlower     change = "slower"     // significantly worse, but not a regression
	changeRegression change = "REGRESSION" // gated unit, significant and over the threshold
	changeChanged    change = "changed"    // significant, but the unit has no known better direction
)

// row is one compared series.
type row struct {
	key        seriesKey
	old, new   benchmath.Summary
	nOld, nNew int
	deltaPct   float64 // median vs median, in percent; +Inf when OLD is 0
	p          float64
	change     change
	tooFew     bool    // the U test could not reach p < alpha with these counts
	minP       float64 // smallest p attainable with nOld, nNew
	notes      []string
}

// report is the whole outcome of a comparison.
type report struct {
	alpha, thresholdPct float64
	rows                []row
	onlyOld, onlyNew    []seriesKey
	configDiffs         []string
}

func (r *report) regressions() []row {
	var out []row
	for _, x := range r.rows {
		if x.change == changeRegression {
			out = append(out, x)
		}
	}
	return out
}

func (r *report) tooFew() []row {
	var out []row
	for _, x := range r.rows {
		if x.tooFew {
			out = append(out, x)
		}
	}
	return out
}

// undecided are the comparisons of gated units the U test could not
// decide: a regression there would go unseen.
func (r *report) undecided() []row {
	var out []row
	for _, x := range r.rows {
		if x.tooFew && gatedUnits[x.key.Unit] && x.change != changeRegression {
			out = append(out, x)
		}
	}
	return out
}

// compare pairs up the series of both sides and judges each pair.
func compare(old, new *sideData, alpha, thresholdPct float64) *report {
	rep := &report{alpha: alpha, thresholdPct: thresholdPct, configDiffs: configMismatches(old, new)}
	thresholds := &benchmath.Thresholds{CompareAlpha: alpha}
	for _, k := range unionKeys(old.series, new.series) {
		ov, inOld := old.series[k]
		nv, inNew := new.series[k]
		switch {
		case !inNew:
			rep.onlyOld = append(rep.onlyOld, k)
			continue
		case !inOld:
			rep.onlyNew = append(rep.onlyNew, k)
			continue
		}
		better := unitDirection(k.Unit, old.units, new.units)
		if gatedUnits[k.Unit] {
			// The rule is "larger is worse" for these, whatever a
			// Unit metadata line may claim.
			better = -1
		}
		rep.rows = append(rep.rows, judge(k, ov, nv, better, thresholds, thresholdPct))
	}
	return rep
}

// judge compares one series with the non-parametric assumption benchstat
// uses by default: medians, and the Mann-Whitney U test.
func judge(k seriesKey, oldVals, newVals []float64, better int, th *benchmath.Thresholds, thresholdPct float64) row {
	// NewSample sorts in place; copy so the inputs stay untouched.
	oldS := benchmath.NewSample(append([]float64(nil), oldVals...), th)
	newS := benchmath.NewSample(append([]float64(nil), newVals...), th)
	a := benchmath.AssumeNothing
	r := row{
		key:  k,
		old:  a.Summary(oldS, confidence),
		new:  a.Summary(newS, confidence),
		nOld: len(oldVals),
		nNew: len(newVals),
	}
	cmp := a.Compare(oldS, newS)
	// Identical constant samples (typical for allocs/op) make the U test
	// fail with "all samples are equal"; that is a clean "no change",
	// not a warning worth a note.
	if sameConstant(oldS.Values, newS.Values) {
		cmp.Warnings = nil
	}
	r.p = cmp.P
	r.deltaPct = deltaPct(r.old.Center, r.new.Center)
	r.minP = minAttainableP(r.nOld, r.nNew)
	r.tooFew = !canDecide(r.nOld, r.nNew, th.CompareAlpha)
	if r.tooFew {
		// The gate's own too-few note is more precise than benchmath's
		// "need >= N samples to detect a difference".
		cmp.Warnings = nil
	}

	significant := cmp.P < th.CompareAlpha
	switch {
	case !significant || r.old.Center == r.new.Center:
		r.change = changeSame
	case better == 0:
		r.change = changeChanged
	case (r.new.Center > r.old.Center) == (better < 0):
		r.change = changeSlower
		if gatedUnits[k.Unit] && r.deltaPct > thresholdPct {
			r.change = changeRegression
		}
	default:
		r.change = changeFaster
	}

	r.notes = collectNotes(r, cmp)
	return r
}

// collectNotes gathers benchmath's warnings, deduplicated, in order.
func collectNotes(r row, cmp benchmath.Comparison) []string {
	var errs []error
	errs = append(errs, r.old.Warnings...)
	errs = append(errs, r.new.Warnings...)
	errs = append(errs, cmp.Warnings...)
	seen := make(map[string]bool)
	var notes []string
	for _, e := range errs {
		if !seen[e.Error()] {
			seen[e.Error()] = true
			notes = append(notes, e.Error())
		}
	}
	return notes
}

// sameConstant reports whether both sorted samples hold one and the same
// value.
func sameConstant(a, b []float64) bool {
	return len(a) > 0 && len(b) > 0 &&
		a[0] == a[len(a)-1] && b[0] == b[len(b)-1] && a[0] == b[0]
}

// deltaPct is the change of the median in percent. Going up from zero
// (e.g. 0 -> 1 allocs/op) is an unbounded increase, so it is +Inf and
// still gated; 0 -> 0 is no change.
func deltaPct(old, new float64) float64 {
	switch {
	case old == new:
		return 0
	case old == 0:
		return math.Copysign(math.Inf(1), new)
	}
	return (new - old) / math.Abs(old) * 100
}

// unitDirection is -1 if lower is better, +1 if higher is better and 0
// if unknown, from unit metadata in either file or benchfmt's defaults.
func unitDirection(unit string, oldUnits, newUnits benchfmt.UnitMetadataMap) int {
	if oldUnits.Get(unit, "better") != nil {
		return oldUnits.GetBetter(unit)
	}
	return newUnits.GetBetter(unit)
}

// unionKeys returns the keys of both maps in a fixed order: package,
// name, then unit with the gated units first. Never map order.
func unionKeys(a, b map[seriesKey][]float64) []seriesKey {
	set := make(map[seriesKey]bool, len(a)+len(b))
	for k := range a {
		set[k] = true
	}
	for k := range b {
		set[k] = true
	}
	keys := make([]seriesKey, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keyLess(keys[i], keys[j]) })
	return keys
}

func keyLess(a, b seriesKey) bool {
	if a.Pkg != b.Pkg {
		return a.Pkg < b.Pkg
	}
	if a.Name != b.Name {
		return a.Name < b.Name
	}
	ra, rb := unitRank(a.Unit), unitRank(b.Unit)
	if ra != rb {
		return ra < rb
	}
	return a.Unit < b.Unit
}

// unitRank puts the standard testing units first, in go test's order.
func unitRank(u string) int {
	switch u {
	case "sec/op":
		return 0
	case "B/op":
		return 1
	case "allocs/op":
		return 2
	}
	return 3
}
