package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden report.md and scaling.svg under testdata")

// goldenCases are the directories under testdata, with the run details
// scripts/bench-report.sh would pass for them (see testdata/README.md).
var goldenCases = []struct {
	name                          string
	run                           runInfo
	workloads, profiles, hasNotes bool
}{
	{name: "full", workloads: true, profiles: true, hasNotes: true, run: runInfo{
		count: "5", benchtime: "1s", goVersion: "go version go1.26.8 linux/amd64", commit: "81a4fa5",
		date: "2026-11-30 11:53 UTC", loadBefore: "0.97 0.90 1.04", loadAfter: "1.41 1.48 1.31",
	}},
	{name: "allmet", workloads: true, profiles: true, run: runInfo{
		count: "5", benchtime: "1s", goVersion: "go version go1.26.8 linux/amd64", loadAfter: "2.5 1 1",
	}},
	{name: "odd", run: runInfo{count: "3", goVersion: "go1.26.8", commit: "abc"}},
	{name: "small", run: runInfo{goVersion: "go1.26.8", loadBefore: "3.5 2 1"}},
}

// testMachine stands for the machine of a run: two cores, and the CPU
// the results name (a report takes it from /proc/cpuinfo).
func testMachine(cpuFromResults string) machine {
	return machine{cpu: orDash(cpuFromResults), cores: 2}
}

// TestGolden checks the report and the plot made from each testdata case
// against the files kept next to its inputs.
func TestGolden(t *testing.T) {
	for _, c := range goldenCases {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join("testdata", c.name)
			o := options{results: filepath.Join(dir, "results.txt"), run: c.run, machine: testMachine}
			o.run.svg = "scaling.svg"
			if c.workloads {
				o.workloads = filepath.Join(dir, "workloads.json")
			}
			if c.profiles {
				o.profiles = filepath.Join(dir, "profiles")
			}
			if c.hasNotes {
				o.notes = filepath.Join(dir, "notes.md")
			}
			r, err := build(o)
			if err != nil {
				t.Fatal(err)
			}
			md, err := r.markdown()
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, filepath.Join(dir, "report.md"), md)
			checkGolden(t, filepath.Join(dir, "scaling.svg"), r.plot())
		})
	}
}

// checkGolden compares got with the file at path, or rewrites the file
// under -update.
func checkGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if bytes.Equal(got, want) {
		return
	}
	gl, wl := bytes.Split(got, []byte("\n")), bytes.Split(want, []byte("\n"))
	for i := range min(len(gl), len(wl)) {
		if !bytes.Equal(gl[i], wl[i]) {
			t.Fatalf("%s differs at line %d:\ngot:  %s\nwant: %s\n(run with -update if the change is intended)", path, i+1, gl[i], wl[i])
		}
	}
	t.Fatalf("%s: got %d lines, want %d (run with -update if the change is intended)", path, len(gl), len(wl))
}
