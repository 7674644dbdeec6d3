package main

import (
	"strconv"
	"strings"

	"sessiondag/bench"
)

// page is what report.md.tmpl renders: each section's numbers, raw where
// the template chooses their format.
type page struct {
	Run      runView
	Limits   limits
	Overload *overload // the load average exceeded the cores; nil: it did not

	Seed        uint64
	WriterFlags string
	CacheEnv    string
	Workloads   *workloadsView // nil: not described

	Targets  []targetRow
	Scaling  scalingView
	Flags    flagsView
	Results  []resultsView
	Notes    string        // trimmed; "" leaves the analysis out
	NotesOf  string        // the file the notes came from
	Profiles *profilesView // nil: no profiles
}

type runView struct {
	Date, Commit, GoVersion, Count, Benchtime, LoadBefore, LoadAfter, SVG string
	CPU, Procs, GOOS, GOARCH                                              string
	Cores                                                                 int
}

type limits struct {
	ScaleRatio, FlagsDeltaPct, NoisyRatio float64
}

type overload struct {
	Avg   float64
	Cores int
}

type targetRow struct {
	Name, Value, Limit, Status string
}

func (r *report) page() page {
	ri, d := r.run, r.d
	p := page{
		Run: runView{
			Date: ri.date, Commit: ri.commit, GoVersion: ri.goVersion, Count: ri.count, Benchtime: ri.benchtime,
			LoadBefore: ri.loadBefore, LoadAfter: ri.loadAfter, SVG: ri.svg,
			CPU: r.machine.cpu, Cores: r.machine.cores, Procs: d.procs, GOOS: d.config["goos"], GOARCH: d.config["goarch"],
		},
		Limits:      limits{ScaleRatio: maxScaleRatio, FlagsDeltaPct: maxFlagsDeltaPct, NoisyRatio: noisyRatio},
		Overload:    r.overload(),
		Seed:        bench.Seed,
		WriterFlags: bench.WriterFlags.String(),
		CacheEnv:    bench.CacheEnv,
		Workloads:   workloadsOf(r.workloads),
		Scaling:     scalingOf(d),
		Flags:       flagsOf(d, r.workloads),
		Results:     resultsOf(d),
		Notes:       strings.TrimSpace(r.notes),
		NotesOf:     r.notesFile,
		Profiles:    r.profilesView(),
	}
	for _, t := range r.targets {
		p.Targets = append(p.Targets, targetRow{t.name, t.value, t.limit, t.status})
	}
	return p
}

// overload is the first load average (of the minute before and after the
// run) above the number of cores, if any.
func (r *report) overload() *overload {
	for _, la := range []string{r.run.loadBefore, r.run.loadAfter} {
		if f := strings.Fields(la); len(f) > 0 {
			if v, err := strconv.ParseFloat(f[0], 64); err == nil && v > float64(r.machine.cores) {
				return &overload{Avg: v, Cores: r.machine.cores}
			}
		}
	}
	return nil
}

type profilesView struct {
	NotMet []string // the names of the targets not met
	List   []profileView
}

func (r *report) profilesView() *profilesView {
	if len(r.profiles) == 0 {
		return nil
	}
	v := &profilesView{}
	for _, t := range r.targets {
		if strings.Contains(t.status, "NOT met") {
			v.NotMet = append(v.NotMet, t.name)
		}
	}
	for _, pr := range r.profiles {
		v.List = append(v.List, pr.view())
	}
	return v
}
