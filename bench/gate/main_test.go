package gate

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Expected outcomes below follow from how the data is built, not from
// running the gate:
//   - two samples of 10 that do not overlap give the U test its smallest
//     p, 2/C(20,10) ~ 1.1e-5, far below 0.05;
//   - the delta is median vs median: seq(100, 1, 10) has median 104.5.

const mem = "512 B/op\t      10 allocs/op"

// TestOneBenchmark gates one benchmark from OLD to NEW samples; each case
// says why its outcome follows from the samples.
func TestOneBenchmark(t *testing.T) {
	type unitText struct{ unit, text string }
	for _, c := range []struct {
		name           string
		bench          string // "Load-2" when empty
		old, new       []float64
		oldMem, newMem string
		code           int
		verdicts       []unitText // each unit's verdict
		rows           []unitText // text each unit's row holds
		out, notOut    []string
	}{{
		// Medians 104.5 -> 134.5 ns: +28.7%, no overlap. Identical
		// constant memory numbers are "no change", without a note.
		name: "clear regression fails", bench: "Load/size=big-2",
		old: seq(100, 1, 10), new: seq(130, 1, 10), oldMem: mem, newMem: mem, code: ExitRegression,
		verdicts: []unitText{{"sec/op", "REGRESSION"}, {"B/op", "~"}, {"allocs/op", "~"}},
		rows:     []unitText{{"sec/op", "+28.71%"}},
		out:      []string{"verdict: FAIL: 1 regression(s)", "sessiondag/bench.Load/size=big-2 sec/op +28.71%"},
		notOut:   []string{"all samples are equal"},
	}, {
		// Interleaved values: OLD 100,102..118, NEW 101,103..119. U = 45 of
		// 100 pairs, right at its mean: no significant difference.
		name: "noise within threshold passes",
		old:  seq(100, 2, 10), new: seq(101, 2, 10), oldMem: mem, newMem: mem, code: ExitOK,
		verdicts: []unitText{{"sec/op", "~"}},
		out:      []string{"verdict: PASS: no regression"},
	}, {
		// Bimodal noise. OLD: 6 low (100..105) + 4 high (150..153), median
		// 104.5. NEW: 4 low (100.5..103.5) + 6 high (150.5..155.5), median
		// 151: +44.5%. But NEW beats OLD in only 64 of 100 pairs (U=36 vs a
		// mean of 50, sd 13.2): p ~ 0.3. A threshold-only gate would fail
		// here on noise; this one must not.
		name: "large but insignificant delta passes",
		old:  append(seq(100, 1, 6), seq(150, 1, 4)...), new: append(seq(100.5, 1, 4), seq(150.5, 1, 6)...),
		code:     ExitOK,
		verdicts: []unitText{{"sec/op", "~"}},
		rows:     []unitText{{"sec/op", "+44.50%"}},
	}, {
		// No overlap (p ~ 1e-5) but medians 100.45 -> 102.45: +1.99% < 5%.
		name: "significant but below threshold passes",
		old:  seq(100, 0.1, 10), new: seq(102, 0.1, 10), oldMem: mem, newMem: mem, code: ExitOK,
		verdicts: []unitText{{"sec/op", "slower"}},
		rows:     []unitText{{"sec/op", "+1.99%"}},
		out:      []string{"verdict: PASS"},
	}, {
		// Medians 134.5 -> 104.5: -22.3%, no overlap.
		name: "faster passes",
		old:  seq(130, 1, 10), new: seq(100, 1, 10), oldMem: mem, newMem: mem, code: ExitOK,
		verdicts: []unitText{{"sec/op", "faster"}},
		rows:     []unitText{{"sec/op", "-22.30%"}},
	}, {
		// 3 per side: even total separation gives p = 2/C(6,3) = 0.1, so the
		// +98% jump cannot be called significant. The gate must say so
		// instead of reporting a plain "no change", and must not pass.
		// Fewer than 6 samples also leave the 95% median interval unbounded.
		name: "too few samples is inconclusive",
		old:  seq(100, 1, 3), new: seq(200, 1, 3), code: ExitInconclusive,
		verdicts: []unitText{{"sec/op", "~"}},
		rows: []unitText{{"sec/op", "TOO FEW SAMPLES: min attainable p=0.100"}, {"sec/op", "± ∞"},
			{"sec/op", "need >= 6 samples for confidence interval at level 0.95"}},
		out: []string{"verdict: UNDECIDED: no regression found",
			"WARNING: too few samples to decide 1 of 1 comparison(s) (n=3+3: min p 0.100)", "run >= 4 per side"},
		notOut: []string{"PASS"},
	}, {
		// 4 per side: separation gives p = 2/C(8,4) = 0.029 < 0.05, so the
		// U test can flag this, though the median interval is still ±∞.
		name: "four samples can already decide",
		old:  seq(100, 1, 4), new: seq(200, 1, 4), code: ExitRegression,
		notOut: []string{"TOO FEW"},
	}, {
		// 10 vs 1: p floor 2/C(11,1) = 0.18.
		name: "uneven sides too few",
		old:  seq(100, 1, 10), new: []float64{500}, code: ExitInconclusive,
		out: []string{"n=10+1: min p 0.182"},
	}, {
		// Time unchanged (same values), allocs 10 -> 12 in every run: ties
		// inside each side, but the sides are separated, so p ~ 1e-5.
		name: "alloc regression fails",
		old:  seq(100, 1, 10), new: seq(100, 1, 10), oldMem: "512 B/op\t10 allocs/op", newMem: "512 B/op\t12 allocs/op",
		code:     ExitRegression,
		verdicts: []unitText{{"allocs/op", "REGRESSION"}, {"sec/op", "~"}},
		rows:     []unitText{{"allocs/op", "+20.00%"}},
	}, {
		// 0 -> 1 allocs: a growth without a finite ratio.
		name: "allocs from zero is an unbounded regression",
		old:  seq(100, 1, 10), new: seq(100, 1, 10), oldMem: "0 B/op\t0 allocs/op", newMem: "0 B/op\t1 allocs/op",
		code: ExitRegression,
		rows: []unitText{{"allocs/op", "+∞%"}},
	}} {
		t.Run(c.name, func(t *testing.T) {
			name := c.bench
			if name == "" {
				name = "Load-2"
			}
			code, out, _ := gateFiles(t, header+runs(name, c.old, c.oldMem), header+runs(name, c.new, c.newMem))
			assert.Equal(t, c.code, code, out)
			for _, v := range c.verdicts {
				assert.Equal(t, v.text, verdictOf(t, out, name, v.unit), v.unit)
			}
			for _, r := range c.rows {
				assert.Contains(t, rowLine(out, name, r.unit), r.text)
			}
			for _, s := range c.out {
				assert.Contains(t, out, s)
			}
			for _, s := range c.notOut {
				assert.NotContains(t, out, s)
			}
		})
	}
}

func TestOtherUnitsAreShownButNotGated(t *testing.T) {
	// MB/s (higher is better) drops and an unknown custom unit grows;
	// neither is a gated unit, so the exit code stays 0.
	oldC := header + runs("Load-2", seq(100, 1, 10), "") // sec/op, unchanged
	newC := header + runs("Load-2", seq(100, 1, 10), "")
	for i := range 10 {
		oldC += "BenchmarkLoad-2 1000 100 ns/op " + strconv.Itoa(200+i) + " MB/s " + strconv.Itoa(50+i) + " nodes/op\n"
		newC += "BenchmarkLoad-2 1000 100 ns/op " + strconv.Itoa(100+i) + " MB/s " + strconv.Itoa(90+i) + " nodes/op\n"
	}
	code, out, _ := gateFiles(t, oldC, newC)
	assert.Equal(t, ExitOK, code, out)
	assert.Equal(t, "slower", verdictOf(t, out, "Load-2", "B/s"), "benchfmt tidies MB/s to B/s")
	assert.Equal(t, "changed", verdictOf(t, out, "Load-2", "nodes/op"))
}

func TestOneSidedBenchmarksReported(t *testing.T) {
	oldC := header + runs("Load-2", seq(100, 1, 10), mem) + runs("Gone-2", seq(100, 1, 10), mem)
	newC := header + runs("Load-2", seq(100, 1, 10), mem) + runs("Added-2", seq(100, 1, 10), mem)
	code, out, _ := gateFiles(t, oldC, newC)
	assert.Equal(t, ExitOK, code, out)
	assert.Contains(t, out, "only in OLD (not compared):\n  sessiondag/bench.Gone-2 [sec/op B/op allocs/op]\n")
	assert.Contains(t, out, "only in NEW (not compared):\n  sessiondag/bench.Added-2 [sec/op B/op allocs/op]\n")
	assert.Contains(t, out, "WARNING: 1 benchmark(s) only in OLD, 1 only in NEW: not compared")
	assert.Empty(t, rowLine(out, "Gone-2", "sec/op"))
}

func TestGomaxprocsSuffixSeparatesSeries(t *testing.T) {
	// As in benchstat, -2 and -4 are different benchmarks: nothing in
	// common, so nothing was gated, which is an input error.
	code, out, errOut := gateFiles(t,
		header+runs("Load/size=big-2", seq(100, 1, 10), ""),
		header+runs("Load/size=big-4", seq(100, 1, 10), ""))
	assert.Equal(t, ExitError, code)
	assert.Contains(t, out, "sessiondag/bench.Load/size=big-2 [sec/op]")
	assert.Contains(t, out, "sessiondag/bench.Load/size=big-4 [sec/op]")
	assert.Contains(t, errOut, "nothing to gate")
}

func TestOutputIsSortedAndDeterministic(t *testing.T) {
	// Written in reverse order; the table must come out sorted by name,
	// then sec/op, B/op, allocs/op.
	content := header + runs("Zeta-2", seq(100, 1, 10), mem) +
		runs("Alpha/b-2", seq(100, 1, 10), mem) + runs("Alpha/a-2", seq(100, 1, 10), mem)
	oldPath := writeFile(t, "old.txt", content)
	newPath := writeFile(t, "new.txt", content)
	_, first, _ := gate(t, oldPath, newPath)
	for range 5 {
		_, again, _ := gate(t, oldPath, newPath)
		require.Equal(t, first, again)
	}
	var order []string
	for _, l := range strings.Split(first, "\n") {
		if f := strings.Fields(l); len(f) > 1 && strings.HasSuffix(f[0], "-2") {
			order = append(order, f[0]+" "+f[1])
		}
	}
	assert.Equal(t, []string{
		"Alpha/a-2 sec/op", "Alpha/a-2 B/op", "Alpha/a-2 allocs/op",
		"Alpha/b-2 sec/op", "Alpha/b-2 B/op", "Alpha/b-2 allocs/op",
		"Zeta-2 sec/op", "Zeta-2 B/op", "Zeta-2 allocs/op",
	}, order)
}

func TestPackagesKeptApart(t *testing.T) {
	// The same benchmark name in two packages is two series.
	a := "pkg: sessiondag/a\n" + runs("Load-2", seq(100, 1, 10), "")
	b := "pkg: sessiondag/b\n" + runs("Load-2", seq(100, 1, 10), "")
	bSlow := "pkg: sessiondag/b\n" + runs("Load-2", seq(200, 1, 10), "")
	code, out, _ := gateFiles(t, a+b, a+bSlow)
	assert.Equal(t, ExitRegression, code, out)
	assert.Contains(t, out, "pkg: sessiondag/a\n")
	assert.Contains(t, out, "pkg: sessiondag/b\n")
	assert.Contains(t, out, "verdict: FAIL: 1 regression(s)")
	assert.Contains(t, out, "sessiondag/b.Load-2 sec/op")
}

func TestConfigMismatchWarns(t *testing.T) {
	other := strings.Replace(header, "Test CPU", "Other CPU", 1)
	_, out, _ := gateFiles(t,
		header+runs("Load-2", seq(100, 1, 10), ""),
		other+runs("Load-2", seq(100, 1, 10), ""))
	assert.Contains(t, out, `WARNING: OLD and NEW differ in configuration (cpu: ["Test CPU @ 2.00GHz"] vs ["Other CPU @ 2.00GHz"])`)
}
