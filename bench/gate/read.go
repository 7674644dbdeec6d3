package gate

import (
	"fmt"
	"math"
	"os"
	"sort"

	"golang.org/x/perf/benchfmt"
)

// seriesKey identifies one series of measurements: a benchmark in a
// package, in one unit. Name is benchfmt's full name, as benchstat's
// .fullname: sub-benchmarks and the -GOMAXPROCS suffix included, the
// "Benchmark" prefix dropped. So "Load/size=big-2" and "Load/size=big-4"
// are different series, exactly as in benchstat's rows.
type seriesKey struct {
	Pkg  string
	Name string
	Unit string // tidied by benchfmt: ns/op is reported as sec/op
}

// sideData is everything read from one input file.
type sideData struct {
	path   string
	series map[seriesKey][]float64
	units  benchfmt.UnitMetadataMap
	// config holds the values seen for each file-level key other than
	// pkg (goos, cpu, ...), to warn when OLD and NEW ran on different
	// setups, which benchstat would split into separate tables.
	config map[string]map[string]bool
	// warnings are non-fatal problems (malformed lines, non-finite
	// values), reported on stderr with file and line.
	warnings []string
}

// readSide reads one benchmark file. Malformed lines are skipped with a
// warning, like benchstat does; a missing or unreadable file, or one with
// no benchmark results at all, is an error naming the file.
func readSide(path string) (*sideData, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	defer f.Close()

	side := &sideData{
		path:   path,
		series: make(map[seriesKey][]float64),
		config: make(map[string]map[string]bool),
	}
	r := benchfmt.NewReader(f, path)
	results := 0
	for r.Scan() {
		switch rec := r.Result().(type) {
		case *benchfmt.SyntaxError:
			side.warnings = append(side.warnings, rec.Error())
		case *benchfmt.Result:
			results++
			side.add(rec)
		}
	}
	if err := r.Err(); err != nil {
		// benchfmt's error already carries "file:line".
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if results == 0 {
		return nil, fmt.Errorf("reading %s: no benchmark results found (is it `go test -bench` output?)", path)
	}
	side.units = r.Units()
	return side, nil
}

// add records one result line. The Reader reuses its Result, so only
// copies (strings, floats) are kept.
func (s *sideData) add(res *benchfmt.Result) {
	pkg := res.GetConfig("pkg")
	name := res.Name.String()
	for _, cfg := range res.Config {
		if !cfg.File || cfg.Key == "pkg" {
			continue
		}
		if s.config[cfg.Key] == nil {
			s.config[cfg.Key] = make(map[string]bool)
		}
		s.config[cfg.Key][string(cfg.Value)] = true
	}
	for _, v := range res.Values {
		// NaN or ±Inf would poison the medians and the rank test.
		if math.IsNaN(v.Value) || math.IsInf(v.Value, 0) {
			unit := v.Unit
			if v.OrigUnit != "" {
				unit = v.OrigUnit // say it as the file says it
			}
			file, line := res.Pos()
			s.warnings = append(s.warnings, fmt.Sprintf("%s:%d: ignoring non-finite value %v %s", file, line, v.Value, unit))
			continue
		}
		k := seriesKey{Pkg: pkg, Name: name, Unit: v.Unit}
		s.series[k] = append(s.series[k], v.Value)
	}
}

// configMismatches lists the file-level keys whose values differ between
// the two sides, sorted, e.g. `cpu: "A" vs "B"`.
func configMismatches(old, new *sideData) []string {
	keys := make(map[string]bool)
	for k := range old.config {
		keys[k] = true
	}
	for k := range new.config {
		keys[k] = true
	}
	var out []string
	for _, k := range sortedKeys(keys) {
		o, n := sortedKeys(old.config[k]), sortedKeys(new.config[k])
		if fmt.Sprint(o) != fmt.Sprint(n) {
			out = append(out, fmt.Sprintf("%s: %q vs %q", k, o, n))
		}
	}
	return out
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
