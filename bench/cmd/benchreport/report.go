package main

import (
	"bytes"
	_ "embed"
	"fmt"
	"io"
	"os"
	"strings"
	"text/template"
)

// report is everything one report is made from.
type report struct {
	d         *data
	run       runInfo
	machine   machine
	workloads []workloadInfo
	profiles  []profile
	targets   []target // set by write
	notes     string   // hand-written analysis, included as is
	notesFile string
}

// options are the inputs of one report.
type options struct {
	results, workloads, profiles, notes string // files read; all but results optional
	mix                                 bool   // without a workloads file, describe the cached fixtures
	run                                 runInfo
	machine                             func(cpuFromResults string) machine
}

// build reads every input of a report.
func build(o options) (*report, error) {
	d, err := read(o.results)
	if err != nil {
		return nil, err
	}
	r := &report{d: d, run: o.run, machine: o.machine(d.config["cpu"])}
	switch {
	case o.workloads != "":
		infos, err := readWorkloads(o.workloads)
		if err != nil {
			return nil, err
		}
		r.setWorkloads(infos)
	case o.mix:
		r.setWorkloads(describeWorkloads(d.sizes))
	}
	if o.profiles != "" {
		if r.profiles, err = readProfiles(o.profiles); err != nil {
			return nil, err
		}
	}
	if o.notes != "" {
		b, err := os.ReadFile(o.notes)
		if err != nil {
			return nil, fmt.Errorf("notes: %w", err)
		}
		r.notes, r.notesFile = string(b), o.notes
	}
	return r, nil
}

// setWorkloads keeps the descriptions and takes the exact node counts from
// them.
func (r *report) setWorkloads(infos []workloadInfo) {
	r.workloads = infos
	for _, wi := range infos {
		if wi.err == nil && wi.mix.Nodes > 0 {
			r.d.nodes[wi.size] = wi.mix.Nodes
		}
	}
}

// The report's text: report.md.tmpl renders a page (page.go).
var (
	//go:embed report.md.tmpl
	reportText string
	reportTmpl = template.Must(template.New("report.md.tmpl").Funcs(template.FuncMap{
		"dur": dur, "durSigned": durSigned, "sig": sig, "num": num, "pct": pct,
		"bytes": bytesStr, "orDash": orDash, "join": strings.Join,
	}).Parse(reportText))
)

// write evaluates the targets and renders the report.
func (r *report) write(w io.Writer) error {
	r.targets = computeTargets(r.d)
	if err := reportTmpl.ExecuteTemplate(w, "report", r.page()); err != nil {
		return fmt.Errorf("rendering the report: %w", err)
	}
	return nil
}

func (r *report) markdown() ([]byte, error) {
	var b bytes.Buffer
	err := r.write(&b)
	return b.Bytes(), err
}

// writeProfile renders one saved profile on its own, as the profiles
// section of the report renders each.
func writeProfile(w io.Writer, pr profile) error {
	if err := reportTmpl.ExecuteTemplate(w, "profile", pr.view()); err != nil {
		return fmt.Errorf("rendering profile %s: %w", pr.name, err)
	}
	return nil
}
