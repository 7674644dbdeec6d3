// Command benchreport turns the output of the load-pipeline benchmarks
// (go test ./bench -bench . -benchmem -count N) into bench/report.md and the
// scaling plot bench/scaling.svg, checking the targets of docs/rollout.md
// §7. scripts/bench-report.sh runs it; by hand:
//
//	go run ./bench/cmd/benchreport -results results.txt [-profiles DIR] \
//	    [-out bench/report.md] [-svg bench/scaling.svg]
//
// It reads the workloads' fixtures from the bench cache (building them if
// the cache has none) to describe their mix; -mix=false skips that.
//
// The files, by job: read.go parses the results into data.go's series,
// stats.go summarises them, targets.go checks them against the limits,
// page*.go gathers what the report shows and report.md.tmpl words it;
// workloads.go and profiles.go read the other inputs, plot.go draws the SVG.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"sessiondag/bench"
)

func main() {
	results := flag.String("results", "", "go test -bench output to read (required)")
	profiles := flag.String("profiles", "", "directory of pprof -top outputs (*.txt) to include")
	out := flag.String("out", "bench/report.md", "report to write")
	svg := flag.String("svg", "bench/scaling.svg", "scaling plot to write")
	count := flag.String("count", "", "the -count of the run (for the report)")
	benchtime := flag.String("benchtime", "", "the -benchtime of the run (for the report)")
	goVersion := flag.String("goversion", runtime.Version(), "go version of the run")
	commit := flag.String("commit", "", "commit the run measured")
	date := flag.String("date", "", "date of the run")
	loadBefore := flag.String("load-before", "", "/proc/loadavg before the run")
	loadAfter := flag.String("load-after", "", "/proc/loadavg after the run")
	notes := flag.String("notes", "", "hand-written analysis (markdown) to include")
	withMix := flag.Bool("mix", true, "describe the workloads (reads or builds the fixtures)")
	prepare := flag.Bool("prepare", false, "only build (or find) the cached fixtures of every size, then exit")
	workloads := flag.String("workloads", "", "with -prepare: save the workloads' description to FILE; else: read it from FILE instead of the fixture cache")
	flag.Parse()
	if *prepare {
		if err := prepareFixtures(*workloads); err != nil {
			fail(err)
		}
		return
	}
	if *results == "" {
		fmt.Fprintln(os.Stderr, "usage: benchreport -results FILE [-profiles DIR] [-out report.md] [-svg scaling.svg]")
		os.Exit(2)
	}
	r, err := build(options{
		results: *results, workloads: *workloads, profiles: *profiles, notes: *notes, mix: *withMix,
		run: runInfo{
			count: *count, benchtime: *benchtime, goVersion: *goVersion, commit: *commit, date: *date,
			loadBefore: *loadBefore, loadAfter: *loadAfter, svg: filepath.Base(*svg),
		},
		machine: localMachine,
	})
	if err != nil {
		fail(err)
	}
	if err := writeOutputs(r, *out, *svg); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "benchreport:", err)
	os.Exit(1)
}

// prepareFixtures builds (or finds) the cached fixture of every size, so
// that no timed run or profile pays for it, and saves their description
// to workloads unless it is "".
func prepareFixtures(workloads string) error {
	for _, size := range bench.Sizes {
		start := time.Now()
		w, err := bench.Get(size)
		if err != nil {
			return fmt.Errorf("fixture of %d nodes: %w", size, err)
		}
		how := "cached"
		if w.Built > 0 {
			how = fmt.Sprintf("built in %v", w.Built.Round(time.Second))
		}
		fmt.Fprintf(os.Stderr, "benchreport: fixture of %d nodes (%d stored): %s, loaded in %v: %s\n",
			size, w.Nodes, how, time.Since(start).Round(time.Millisecond), w.Dir)
	}
	if workloads == "" {
		return nil
	}
	return saveWorkloads(workloads, describeWorkloads(bench.Sizes))
}

// writeOutputs writes the report and the plot, then lists the targets on
// stderr for the script's log.
func writeOutputs(r *report, out, svg string) error {
	md, err := r.markdown()
	if err != nil {
		return err
	}
	if err := os.WriteFile(out, md, 0o644); err != nil {
		return fmt.Errorf("writing the report: %w", err)
	}
	if err := os.WriteFile(svg, r.plot(), 0o644); err != nil {
		return fmt.Errorf("writing the plot: %w", err)
	}
	fmt.Fprintf(os.Stderr, "benchreport: wrote %s and %s\n", out, svg)
	for _, t := range r.targets {
		fmt.Fprintf(os.Stderr, "  %-55s %s\n", t.name, t.status)
	}
	return nil
}
