// Command benchreport turns the output of the load-pipeline benchmarks
// (go test ./bench -bench . -benchmem -count N) into bench/report.md and the
// scaling plot bench/scaling.svg, checking the targets of docs/rollout.md §7
// and of the benchmark brief. scripts/bench-report.sh runs it; by hand:
//
//	go run ./bench/cmd/benchreport -results results.txt [-profiles DIR] \
//	    [-out bench/report.md] [-svg bench/scaling.svg]
//
// It reads the workloads' fixtures from the bench cache (building them if
// the cache has none) to describe their mix; -mix=false skips that.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchmath"

	"sessiondag/bench"
	"sessiondag/bench/internal/plot"
	"sessiondag/impl/flags"
	"sessiondag/impl/webui"
)

// Targets.
const (
	maxScaleRatio    = 12.0  // t(100k) / t(10k)
	maxLoadNsPerNode = 250.0 // whole in-memory load at 100k
	maxAggAllocsNode = 2.0   // aggregation allocations per node
	maxColdVsFloor   = 2.0   // cold load / read-files floor
	maxFlagsDeltaPct = 5.0   // flags=all slower than off, percent
)

// order is the benchmarks in report order, with a short description.
// diag marks the ones added to explain the others: their 100k/10k ratio is
// shown but is not one of the brief's targets.
var order = []struct {
	name, desc string
	diag       bool
}{
	{"Load", "The whole in-memory load (`webui.Load`: adapter, aggregation, head fix-up, linear_history, get_branch fallback, splices, runtime cards, sibling info) of the session held in memory, repeated on the same store as a server does. What the store keeps per node and per session is warm after the first load: adapter messages, the load's columns (each node's message, kind and pointers by position), folded assistants (checked against their tool rows on every load), flag A's predecessors. Every load still runs over every row. A first load of a store costs about ColdLoad flags=F minus open-only (table below); LoadAfterAppend and LoadAfterUpdate show a load after a write.", false},
	{"LoadAfterAppend", "Append one node (a tool row under ROOT) to an in-memory copy of the session, then the whole load: the load extends the columns and flag A's predecessors by that node.", true},
	{"LoadAfterUpdate", "Replace one reply in the middle of an in-memory copy of the session (its status, as a writer does when a turn completes), then the whole load: the load refills that position in copies of its columns and keeps flag A's predecessors (the derivation does not read a status).", true},
	{"ColdLoad", "`store.Open` + `webui.Load` of the fixture directory (warm page cache), with no other session held in memory. `open-only` is `store.Open` alone (read, parse, index); `read-files-only` reads every history file and meta.json without parsing, one after the other with `os.ReadFile`: the floor. The cold load reads and decodes the files, and fills the first load's columns, on every core (2 here).", false},
	{"Aggregate", "get_messages and `aggregate_tool_messages` (load steps 1–2) as the load runs them, over its columns.", false},
	{"LinearHistory", "`linear_history` from the row with the longest chain over the load's row index (flag B: the predecessor walk, shown as rows).", false},
	{"GetBranch", "The `get_branch` walk from the row with the longest chain (flag B: over the predecessors); nodes only, no adapter.", false},
	{"RuntimeCards", "`_rebuild_runtime_cards` over the load's chain before the card pass (the children index over every row is built only when the chain holds a card).", false},
	{"Siblings", "Sibling info for the load's chain (load step 10): the sibling groups of every aggregated row, from the columns.", true},
	{"Preds", "Flag A's predecessor derivation from scratch (`lane.NewPreds`): what a first load under A pays, and a load after an update that changes what the derivation reads. Other loads extend the session's cached derivation by the nodes appended since (`lane.PredsOf`).", true},
}

type key struct {
	bench   string // base name without "Benchmark"
	nodes   int
	variant string // flags=off, flags=all, open-only, read-files-only…
}

type series map[string][]float64 // unit → samples

type data struct {
	s       map[key]series
	config  map[string]string // file-level config (goos, cpu…)
	procs   string            // the -N GOMAXPROCS suffix seen
	nodes   map[int]int       // nominal size → stored nodes
	sizes   []int
	unitMap benchfmt.UnitMetadataMap
}

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
		for _, size := range bench.Sizes {
			start := time.Now()
			w, err := bench.Get(size)
			if err != nil {
				fail(err)
			}
			how := "cached"
			if w.Built > 0 {
				how = fmt.Sprintf("built in %v", w.Built.Round(time.Second))
			}
			fmt.Fprintf(os.Stderr, "benchreport: fixture of %d nodes (%d stored): %s, loaded in %v: %s\n",
				size, w.Nodes, how, time.Since(start).Round(time.Millisecond), w.Dir)
		}
		if *workloads != "" {
			if err := saveWorkloads(*workloads, describeWorkloads(bench.Sizes)); err != nil {
				fail(err)
			}
		}
		return
	}
	if *results == "" {
		fmt.Fprintln(os.Stderr, "usage: benchreport -results FILE [-profiles DIR] [-out report.md] [-svg scaling.svg]")
		os.Exit(2)
	}
	o := options{
		results: *results, workloads: *workloads, profiles: *profiles, notes: *notes, mix: *withMix,
		run: runInfo{
			count: *count, benchtime: *benchtime, goVersion: *goVersion, commit: *commit, date: *date,
			loadBefore: *loadBefore, loadAfter: *loadAfter, svg: filepath.Base(*svg),
		},
		machine: localMachine,
	}
	r, err := build(o)
	if err != nil {
		fail(err)
	}
	if err := os.WriteFile(*out, r.markdown(), 0o644); err != nil {
		fail(err)
	}
	if err := os.WriteFile(*svg, r.plot(), 0o644); err != nil {
		fail(err)
	}
	fmt.Fprintf(os.Stderr, "benchreport: wrote %s and %s\n", *out, *svg)
	for _, t := range r.targets {
		fmt.Fprintf(os.Stderr, "  %-55s %s\n", t.name, t.status)
	}
}

// options are the inputs of one report.
type options struct {
	results, workloads, profiles, notes string // files read; workloads, profiles, notes optional
	mix                                 bool   // without a workloads file, describe the cached fixtures
	run                                 runInfo
	machine                             func(cpuFromResults string) machine
}

// machine is what the report says about the computer that ran the
// benchmarks; tests fix it so that the report does not depend on where they
// run.
type machine struct {
	cpu   string
	cores int
}

// localMachine describes this computer: the report is written on the
// machine that ran the benchmarks.
func localMachine(cpuFromResults string) machine {
	return machine{cpu: cpuModel(cpuFromResults), cores: runtime.NumCPU()}
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
			return nil, err
		}
		r.notes, r.notesFile = string(b), o.notes
	}
	return r, nil
}

// markdown renders the report.
func (r *report) markdown() []byte {
	var b bytes.Buffer
	r.write(&b)
	return b.Bytes()
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "benchreport:", err)
	os.Exit(1)
}

// read parses the benchmark output with benchfmt.
func read(path string) (*data, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	d := &data{s: map[key]series{}, config: map[string]string{}, nodes: map[int]int{}}
	rd := benchfmt.NewReader(f, path)
	sizes := map[int]bool{}
	for rd.Scan() {
		res, ok := rd.Result().(*benchfmt.Result)
		if !ok {
			continue
		}
		if !strings.HasSuffix(res.GetConfig("pkg"), "/bench") && res.GetConfig("pkg") != "sessiondag/bench" {
			continue
		}
		for _, c := range res.Config {
			if c.File {
				d.config[c.Key] = string(c.Value)
			}
		}
		base, parts := res.Name.Parts()
		k := key{bench: strings.TrimPrefix(string(base), "Benchmark")}
		for _, p := range parts {
			ps := string(p)
			switch {
			case strings.HasPrefix(ps, "-"):
				d.procs = ps[1:]
			case strings.HasPrefix(ps, "/nodes="):
				n, err := strconv.Atoi(strings.TrimPrefix(ps, "/nodes="))
				if err != nil {
					return nil, fmt.Errorf("%s: bad size in %s", path, res.Name)
				}
				k.nodes = n
			default:
				k.variant = strings.TrimPrefix(ps, "/")
			}
		}
		if k.nodes == 0 {
			continue
		}
		sizes[k.nodes] = true
		sr := d.s[k]
		if sr == nil {
			sr = series{}
			d.s[k] = sr
		}
		for _, v := range res.Values {
			unit, val := v.Unit, v.Value
			if v.OrigUnit != "" {
				unit, val = v.OrigUnit, v.OrigValue
			}
			if math.IsNaN(val) || math.IsInf(val, 0) {
				continue
			}
			sr[unit] = append(sr[unit], val)
		}
	}
	if err := rd.Err(); err != nil {
		return nil, err
	}
	if len(d.s) == 0 {
		return nil, fmt.Errorf("%s: no results of the bench package", path)
	}
	d.unitMap = rd.Units()
	for n := range sizes {
		d.sizes = append(d.sizes, n)
	}
	sort.Ints(d.sizes)
	// Stored nodes per size: ns/op ÷ ns/node (exact up to printing), until
	// the workloads are read.
	for k, sr := range d.s {
		if d.nodes[k.nodes] != 0 {
			continue
		}
		t, tn := median(sr["ns/op"]), median(sr["ns/node"])
		if t > 0 && tn > 0 {
			d.nodes[k.nodes] = int(math.Round(t / tn))
		}
	}
	return d, nil
}

// stat is a sample's median and its 95% interval, as benchstat computes it.
type stat struct {
	center, lo, hi float64
	min, max       float64
	n              int
}

func summarize(vals []float64) (stat, bool) {
	if len(vals) == 0 {
		return stat{}, false
	}
	s := benchmath.NewSample(append([]float64(nil), vals...), &benchmath.DefaultThresholds)
	sum := benchmath.AssumeNothing.Summary(s, 0.95)
	st := stat{center: sum.Center, lo: sum.Lo, hi: sum.Hi, min: math.Inf(1), max: math.Inf(-1), n: len(vals)}
	for _, v := range vals {
		st.min, st.max = math.Min(st.min, v), math.Max(st.max, v)
	}
	return st, true
}

func median(vals []float64) float64 {
	s, ok := summarize(vals)
	if !ok {
		return math.NaN()
	}
	return s.center
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

// noisyRatio is the max/min spread of a series' times above which a
// target computed from it is marked noisy.
const noisyRatio = 1.5

// noisy lists the series among keys whose times spread more than
// noisyRatio between runs.
func (d *data) noisy(keys ...key) []string {
	var out []string
	for _, k := range keys {
		st, ok := summarize(d.s[k]["ns/op"])
		if ok && st.min > 0 && st.max/st.min > noisyRatio {
			out = append(out, fmt.Sprintf("%s/%s at %s: max/min %.1f", k.bench, k.variant, plot.Human(float64(k.nodes)), st.max/st.min))
		}
	}
	return out
}

// value is the median of a unit, NaN when absent.
func (d *data) value(k key, unit string) float64 {
	if sr, ok := d.s[k]; ok {
		return median(sr[unit])
	}
	return math.NaN()
}

func (d *data) variants(bench string) []string {
	seen := map[string]bool{}
	for k := range d.s {
		if k.bench == bench {
			seen[k.variant] = true
		}
	}
	var out []string
	for v := range seen {
		out = append(out, v)
	}
	rank := func(v string) int {
		switch v {
		case "flags=off":
			return 0
		case "flags=all":
			return 1
		case "flags=cur":
			return 2
		case "open-only":
			return 4
		case "read-files-only":
			return 5
		}
		return 3
	}
	sort.Slice(out, func(i, j int) bool {
		if rank(out[i]) != rank(out[j]) {
			return rank(out[i]) < rank(out[j])
		}
		return out[i] < out[j]
	})
	return out
}

type runInfo struct {
	count, benchtime, goVersion, commit, date, loadBefore, loadAfter, svg string
}

type target struct {
	name, value, limit, status string
}

type workloadInfo struct {
	size     int
	mix      bench.Mix
	fallback map[string]bool // flags name → get_branch fallback used
	trigger  map[string]bool // flags name → fallback computed (chain shorter than all)
	chain    map[string]int
	all      map[string]int
	deepest  int // the longest linear_history chain (flags off)
	err      error
}

// workloadFile is workloadInfo as saved by -prepare -workloads FILE, so
// the report describes the fixtures the run measured even if the tree has
// changed since.
type workloadFile struct {
	Size     int
	Mix      bench.Mix
	Fallback map[string]bool
	Trigger  map[string]bool
	Chain    map[string]int
	All      map[string]int
	Deepest  int
	Err      string `json:",omitempty"`
}

func saveWorkloads(path string, infos []workloadInfo) error {
	var out []workloadFile
	for _, wi := range infos {
		f := workloadFile{Size: wi.size, Mix: wi.mix, Fallback: wi.fallback, Trigger: wi.trigger, Chain: wi.chain, All: wi.all, Deepest: wi.deepest}
		if wi.err != nil {
			f.Err = wi.err.Error()
		}
		out = append(out, f)
	}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}

func readWorkloads(path string) ([]workloadInfo, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var in []workloadFile
	if err := json.Unmarshal(b, &in); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var out []workloadInfo
	for _, f := range in {
		wi := workloadInfo{size: f.Size, mix: f.Mix, fallback: f.Fallback, trigger: f.Trigger, chain: f.Chain, all: f.All, deepest: f.Deepest}
		if f.Err != "" {
			wi.err = errors.New(f.Err)
		}
		out = append(out, wi)
	}
	return out, nil
}

type report struct {
	d         *data
	run       runInfo
	machine   machine
	workloads []workloadInfo
	profiles  []profile
	targets   []target
	notes     string // hand-written analysis, included as is
	notesFile string
}

// describeWorkloads loads the workloads of the given sizes (from the
// fixture cache) and describes them.
func describeWorkloads(sizes []int) []workloadInfo {
	var infos []workloadInfo
	for _, size := range sizes {
		wi := workloadInfo{size: size, fallback: map[string]bool{}, trigger: map[string]bool{}, chain: map[string]int{}, all: map[string]int{}}
		w, err := bench.Get(size)
		if err == nil {
			wi.mix, err = w.Mix()
		}
		if err != nil {
			wi.err = err
			infos = append(infos, wi)
			continue
		}
		for _, c := range []bench.Config{{Name: "off", Flags: flags.Off}, {Name: "all", Flags: flags.All}} {
			l := webui.Load(w.Store, c.Flags)
			wi.fallback[c.Name] = l.FallbackUsed
			wi.trigger[c.Name] = len(l.Linear) < len(l.All) && !c.Flags.Has(flags.C)
			wi.chain[c.Name] = len(l.Chain)
			wi.all[c.Name] = len(l.All)
			if c.Flags == flags.Off {
				_, wi.deepest = bench.Deepest(l.All)
			}
		}
		infos = append(infos, wi)
	}
	return infos
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

func (r *report) write(w io.Writer) {
	d := r.d
	p := func(format string, a ...any) { fmt.Fprintf(w, format, a...) }
	p("# Load pipeline benchmarks\n\n")
	p("Generated by `scripts/bench-report.sh` (`make bench-report`)")
	if r.run.date != "" {
		p(" on %s", r.run.date)
	}
	if r.run.commit != "" {
		p(" at commit `%s`", r.run.commit)
	}
	p(". Do not edit by hand: rerun the script. Targets: docs/rollout.md §7 and the benchmark brief.\n\n")

	p("## Machine and run\n\n")
	p("| | |\n| --- | --- |\n")
	p("| Go | %s |\n", r.run.goVersion)
	p("| CPU | %s |\n", r.machine.cpu)
	p("| cores | %d (GOMAXPROCS %s) |\n", r.machine.cores, orDash(d.procs))
	p("| os/arch | %s/%s |\n", orDash(d.config["goos"]), orDash(d.config["goarch"]))
	if r.run.loadBefore != "" || r.run.loadAfter != "" {
		p("| load average (1, 5, 15 min) | before %s, after %s |\n", orDash(r.run.loadBefore), orDash(r.run.loadAfter))
	}
	p("| runs | -count %s, -benchtime %s, -benchmem |\n", orDash(r.run.count), orDash(r.run.benchtime))
	for _, la := range []string{r.run.loadBefore, r.run.loadAfter} {
		if f := strings.Fields(la); len(f) > 0 {
			if v, err := strconv.ParseFloat(f[0], 64); err == nil && v > float64(r.machine.cores) {
				p("\n**Warning:** the load average (%.1f) exceeded the %d cores during this run: other jobs competed for the CPU, and the numbers below are slower and noisier than on an idle machine. Targets computed from series whose runs spread more than %.1f× are marked noisy.\n", v, r.machine.cores, noisyRatio)
				break
			}
		}
	}
	p("\nThe machine is shared (2 cores, other jobs running): expect a few percent of noise between runs. " +
		"Time/op is the median over the runs, with the 95%% interval of the median (±) from 6 runs on, or the fastest–slowest range below that. " +
		"Cold loads read a warm page cache: the fixture was just written or read, and dropping caches is not possible on a shared machine.\n\n")

	r.writeWorkloads(w)
	r.computeTargets()
	p("## Targets\n\n")
	p("| target | measured | limit | status |\n| --- | --- | --- | --- |\n")
	for _, t := range r.targets {
		p("| %s | %s | %s | %s |\n", t.name, t.value, t.limit, t.status)
	}
	p("\n")
	r.writeScaling(w)
	r.writeFlags(w)
	p("## Time against session size\n\n![time and ns/node against nodes, flags off (solid) and all (dashed)](%s)\n\n", r.run.svg)
	p("## Results\n\nMedians over the runs. ns/node and allocs/node divide by the stored nodes of the session (ROOT and rewound nodes included).\n\n")
	for _, o := range order {
		vs := d.variants(o.name)
		if len(vs) == 0 {
			continue
		}
		p("### %s\n\n%s\n\n", o.name, o.desc)
		p("| nodes | variant | time/op | ns/node | B/op | allocs/op | allocs/node |\n| ---: | --- | ---: | ---: | ---: | ---: | ---: |\n")
		for _, n := range d.sizes {
			for _, v := range vs {
				k := key{o.name, n, v}
				sr, ok := d.s[k]
				if !ok {
					continue
				}
				t, _ := summarize(sr["ns/op"])
				nodes := float64(d.nodes[n])
				allocs := median(sr["allocs/op"])
				p("| %d | %s | %s%s | %s | %s | %s | %s |\n", d.nodes[n], v, dur(t.center), t.pm(),
					sig(median(sr["ns/node"])), bytesStr(median(sr["B/op"])), num(allocs, 0), num(allocs/nodes, 2))
			}
		}
		p("\n")
		if o.name == "Load" {
			r.writeFirstLoad(w)
		}
	}
	if strings.TrimSpace(r.notes) != "" {
		p("## Analysis\n\n")
		p("_Written by hand (`%s`) from the profiles of a full run; the tables and profiles of this report are regenerated on every run, this section is not: check that its numbers still match._\n\n", r.notesFile)
		p("%s\n\n", strings.TrimSpace(r.notes))
	}
	r.writeProfiles(w)
	p("## Reproducing\n\n")
	p("- Everything: `make bench-report` (COUNT and BENCHTIME override the defaults; the full run takes about 12 minutes here).\n")
	p("- One benchmark, A/B between flag sets: `scripts/benchcmp.sh flags off all 'Load/nodes=10000/'` (SESSIONDAG_BENCH_FLAGS selects the set, named `flags=cur`).\n")
	p("- A profile: `go test ./bench -run '^$' -bench 'Load/nodes=100000/flags=off' -benchtime 20x -cpuprofile cpu.out` then `go tool pprof -top -cum bench.test cpu.out`.\n")
	p("- A workload on disk: `sessiondag gen --seed %d --nodes N --flags off --out DIR` writes the same session as the fixture. The benchmarks cache theirs in `sessiondag-bench` under the user cache directory (`~/.cache`), or in `$%s`; a change to the generator or the writers rebuilds them (about 20 s at 100k here).\n",
		bench.Seed, bench.CacheEnv)
}

func (r *report) writeWorkloads(w io.Writer) {
	p := func(format string, a ...any) { fmt.Fprintf(w, format, a...) }
	p("## Workloads\n\n")
	p("Drawn by `gen` (legacy rows on) from seed %d and written through the writers with the flags %s; every reader config reads the same bytes. ", bench.Seed, bench.WriterFlags)
	p("Shares are of the stored nodes. Tool rows are code rows with a tool_call_id (orphans included); function internals are rows whose caller is a function run; a branch point is a conversation row (or ROOT) with two or more conversation successors by flag A's predecessors.\n\n")
	if len(r.workloads) == 0 {
		p("(not computed: run without -mix=false)\n\n")
		return
	}
	p("| nodes | ops | tool rows | function runs | function internals | conversation rows | branch points | extra branches | chain roots | rewound | shown chain (off / all) | longest chain | get_branch fallback (off) |\n")
	p("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | --- |\n")
	var toolShares []float64
	for _, wi := range r.workloads {
		if wi.err != nil {
			p("| %d | error: %v |||||||||||\n", wi.size, wi.err)
			continue
		}
		m := wi.mix
		toolShares = append(toolShares, m.Share(m.ToolRows))
		fb := "not needed"
		if wi.trigger["off"] {
			fb = "computed, not used"
			if wi.fallback["off"] {
				fb = "computed and used"
			}
		}
		p("| %d | %d | %s | %s | %s | %s | %d | %d | %d | %d | %d / %d of %d / %d rows | %d | %s |\n", m.Nodes, m.Ops,
			pct(m.Share(m.ToolRows)), pct(m.Share(m.FnRuns)), pct(m.Share(m.Internals)), pct(m.Share(m.Conv)),
			m.BranchPoints, m.Forks, m.Roots, m.Rewound,
			wi.chain["off"], wi.chain["all"], wi.all["off"], wi.all["all"], wi.deepest, fb)
	}
	p("\n")
	if len(toolShares) > 0 {
		lo, hi := toolShares[0], toolShares[0]
		for _, s := range toolShares {
			lo, hi = math.Min(lo, s), math.Max(hi, s)
		}
		if lo < 0.28 || hi > 0.39 {
			p("**Mix note:** §7 asks for about one node in three to be a tool row; these workloads have %s–%s. ", pct(lo), pct(hi))
			last := r.workloads[len(r.workloads)-1].mix
			p("The generator (`gen/gen.go`, not changed here) puts more of its weight on functions: at the largest size function runs are %s and rows inside runs %s of the nodes. ",
				pct(last.Share(last.FnRuns)), pct(last.Share(last.Internals)))
			p("Tool rows are the rows aggregation folds, so a mix with more of them would load more of its time into aggregation and less into runtime cards.\n\n")
		} else {
			p("Tool rows are %s–%s of the nodes: about one in three, as §7 asks.\n\n", pct(lo), pct(hi))
		}
	}
	if last := r.workloads[len(r.workloads)-1]; last.err == nil && last.all["off"] > 0 {
		p("**Shape note:** the head's chain shows %d of %d rows at %d nodes (%d chain roots, %d extra branches): the generator's checkouts to random nodes, root forks, reloads and crashes make a bushy tree rather than one long conversation with a few branches. ",
			last.chain["off"], last.all["off"], last.mix.Nodes, last.mix.Roots, last.mix.Forks)
		p("Even the longest linear_history chain is %d rows. Stages that work on the chain (linear_history's output, the card pass's rows, sibling info) therefore do little here, and stages over every row (the adapter, aggregation, indexes) dominate; a session with a long chain would weigh the chain stages more. The LinearHistory and GetBranch benchmarks start from the row with the longest chain.\n\n", last.deepest)
	}
	if last := r.workloads[len(r.workloads)-1]; last.err == nil {
		p("Op kinds of the largest script: ")
		var parts []string
		for _, k := range last.mix.SortedOpKinds() {
			parts = append(parts, fmt.Sprintf("%s %d", k, last.mix.OpKinds[k]))
		}
		p("%s.\n\n", strings.Join(parts, ", "))
	}
}

// computeTargets evaluates every target once.
func (r *report) computeTargets() {
	d := r.d
	r.targets = nil
	var involved []key // the series the next target is computed from
	add := func(name, value, limit string, met bool, note string) {
		st := "met"
		if !met {
			st = "**NOT met**"
		}
		if note != "" {
			st += " " + note
		}
		if nz := d.noisy(involved...); len(nz) > 0 {
			st += " — noisy run (" + strings.Join(nz, "; ") + "): rerun on a quieter machine"
		}
		involved = nil
		r.targets = append(r.targets, target{name, value, limit, st})
	}
	big, mid := 100000, 10000
	if !hasSize(d.sizes, big) || !hasSize(d.sizes, mid) {
		r.targets = append(r.targets, target{"sizes 10k and 100k measured", "no", "", "**NOT met** (run all sizes)"})
		return
	}
	// Scaling, one line per benchmark: the worst variant.
	for _, o := range order {
		worst, wv := -1.0, ""
		var vals []string
		for _, v := range d.variants(o.name) {
			ratio := d.value(key{o.name, big, v}, "ns/op") / d.value(key{o.name, mid, v}, "ns/op")
			if math.IsNaN(ratio) {
				continue
			}
			involved = append(involved, key{o.name, big, v}, key{o.name, mid, v})
			vals = append(vals, fmt.Sprintf("%s %.1f", v, ratio))
			if ratio > worst {
				worst, wv = ratio, v
			}
		}
		if wv == "" {
			continue
		}
		if o.diag {
			r.targets = append(r.targets, target{fmt.Sprintf("%s: time 100k / 10k", o.name), strings.Join(vals, ", "), "—", "diagnostic, not a target"})
			involved = nil
			continue
		}
		add(fmt.Sprintf("%s: time 100k / 10k", o.name), strings.Join(vals, ", "), fmt.Sprintf("≤ %.0f", maxScaleRatio), worst <= maxScaleRatio, "")
	}
	// Whole in-memory load at 100k, repeated and after a write.
	for _, b := range []string{"Load", "LoadAfterAppend", "LoadAfterUpdate"} {
		for _, v := range d.variants(b) {
			x := d.value(key{b, big, v}, "ns/node")
			involved = []key{{b, big, v}}
			if !math.IsNaN(x) {
				add(fmt.Sprintf("%s %s at 100k: ns/node", b, v), fmt.Sprintf("%.0f ns/node", x), fmt.Sprintf("≤ %.0f", maxLoadNsPerNode), x <= maxLoadNsPerNode, "")
			}
		}
	}
	// Aggregation allocations per node, worst size.
	for _, v := range d.variants("Aggregate") {
		worst, at := -1.0, 0
		for _, n := range d.sizes {
			a := d.value(key{"Aggregate", n, v}, "allocs/op") / float64(d.nodes[n])
			if a > worst {
				worst, at = a, n
			}
		}
		if at != 0 {
			add(fmt.Sprintf("Aggregate %s: allocs/node (worst size)", v), fmt.Sprintf("%.2f at %d nodes", worst, d.nodes[at]), fmt.Sprintf("≤ %.0f", maxAggAllocsNode), worst <= maxAggAllocsNode, "")
		}
	}
	// Cold load against the read-files floor.
	for _, v := range d.variants("ColdLoad") {
		if !strings.HasPrefix(v, "flags=") {
			continue
		}
		var vals []string
		worst := -1.0
		for _, n := range d.sizes {
			ratio := d.value(key{"ColdLoad", n, v}, "ns/op") / d.value(key{"ColdLoad", n, "read-files-only"}, "ns/op")
			if math.IsNaN(ratio) {
				continue
			}
			involved = append(involved, key{"ColdLoad", n, v}, key{"ColdLoad", n, "read-files-only"})
			vals = append(vals, fmt.Sprintf("%.1f at %s", ratio, plot.Human(float64(n))))
			worst = math.Max(worst, ratio)
		}
		if worst > 0 {
			add(fmt.Sprintf("ColdLoad %s / read-files-only", v), strings.Join(vals, ", "), fmt.Sprintf("≤ %.0f", maxColdVsFloor), worst <= maxColdVsFloor, "")
		}
	}
	// Flags all against off, for the two loads.
	for _, b := range []string{"Load", "ColdLoad"} {
		for _, n := range d.sizes {
			off, all := d.s[key{b, n, "flags=off"}], d.s[key{b, n, "flags=all"}]
			if off == nil || all == nil {
				continue
			}
			delta, p := compare(off["ns/op"], all["ns/op"])
			value := fmt.Sprintf("%+.1f%% (p=%.3f)", delta, p)
			involved = []key{{b, n, "flags=off"}, {b, n, "flags=all"}}
			switch {
			case delta <= maxFlagsDeltaPct:
				note := ""
				if delta < -maxFlagsDeltaPct {
					note = "(all is faster; see below)"
				}
				add(fmt.Sprintf("%s at %d: flags all vs off", b, d.nodes[n]), value, fmt.Sprintf("all ≤ off + %.0f%%", maxFlagsDeltaPct), true, note)
			case p >= 0.05:
				r.targets = append(r.targets, target{fmt.Sprintf("%s at %d: flags all vs off", b, d.nodes[n]), value,
					fmt.Sprintf("all ≤ off + %.0f%%", maxFlagsDeltaPct), "inconclusive (not significant: rerun)"})
			default:
				add(fmt.Sprintf("%s at %d: flags all vs off", b, d.nodes[n]), value, fmt.Sprintf("all ≤ off + %.0f%%", maxFlagsDeltaPct), false, "(breakdown below)")
			}
		}
	}
}

// writeFirstLoad derives the first in-memory load of a store (adapter memo
// cold) from the cold-load benchmarks: ColdLoad flags=F minus open-only.
func (r *report) writeFirstLoad(w io.Writer) {
	d := r.d
	var rows []string
	for _, n := range d.sizes {
		open := d.value(key{"ColdLoad", n, "open-only"}, "ns/op")
		for _, v := range d.variants("ColdLoad") {
			if !strings.HasPrefix(v, "flags=") {
				continue
			}
			cold := d.value(key{"ColdLoad", n, v}, "ns/op")
			if math.IsNaN(open) || math.IsNaN(cold) {
				continue
			}
			first := cold - open
			rows = append(rows, fmt.Sprintf("| %d | %s | %s | %s | %s |", d.nodes[n], v, dur(first), sig(first/float64(d.nodes[n])),
				sig(d.value(key{"Load", n, v}, "ns/op")/first*100)+"%"))
		}
	}
	if len(rows) == 0 {
		return
	}
	fmt.Fprintf(w, "First load of a freshly opened store, derived: ColdLoad flags=F minus ColdLoad open-only (medians; the difference of two noisy medians, so rougher than the rows above). The last column is the repeated load's time as a share of it.\n\n")
	fmt.Fprintf(w, "| nodes | variant | first load | ns/node | repeated / first |\n| ---: | --- | ---: | ---: | ---: |\n%s\n\n", strings.Join(rows, "\n"))
}

// compare returns the change of new's median against old's, in percent,
// and the U test's p-value.
func compare(old, new []float64) (float64, float64) {
	so := benchmath.NewSample(append([]float64(nil), old...), &benchmath.DefaultThresholds)
	sn := benchmath.NewSample(append([]float64(nil), new...), &benchmath.DefaultThresholds)
	c := benchmath.AssumeNothing.Compare(so, sn)
	mo, mn := median(old), median(new)
	return (mn/mo - 1) * 100, c.P
}

func (r *report) writeScaling(w io.Writer) {
	d := r.d
	p := func(format string, a ...any) { fmt.Fprintf(w, format, a...) }
	p("## Scaling\n\n")
	p("Time per op at 100k nodes over 10k nodes (the sessions hold %d and %d nodes, a factor of %.2f); a linear algorithm gives about %.1f, the target allows %.0f. ",
		d.nodes[100000], d.nodes[10000], float64(d.nodes[100000])/float64(d.nodes[10000]), float64(d.nodes[100000])/float64(d.nodes[10000]), maxScaleRatio)
	p("The 10k / 1k ratio is shown for comparison (small sizes fit in cache, so it is often below 10).\n\n")
	p("| benchmark | variant | 10k / 1k | 100k / 10k | status |\n| --- | --- | ---: | ---: | --- |\n")
	for _, o := range order {
		for _, v := range d.variants(o.name) {
			r1 := d.value(key{o.name, 10000, v}, "ns/op") / d.value(key{o.name, 1000, v}, "ns/op")
			r2 := d.value(key{o.name, 100000, v}, "ns/op") / d.value(key{o.name, 10000, v}, "ns/op")
			st := "met"
			switch {
			case math.IsNaN(r2):
				st = "—"
			case o.diag:
				st = "diagnostic"
			case r2 > maxScaleRatio:
				st = "**NOT met**"
			}
			p("| %s | %s | %s | %s | %s |\n", o.name, v, num(r1, 1), num(r2, 1), st)
		}
	}
	p("\n")
}

// writeFlags breaks the flags=all vs off difference of the load down into
// the stages measured on their own.
func (r *report) writeFlags(w io.Writer) {
	d := r.d
	p := func(format string, a ...any) { fmt.Fprintf(w, format, a...) }
	p("## Flags all against off\n\n")
	p("Change of the median time per op from flags=off to flags=all (positive: all is slower), with the U test's p-value over the runs. ")
	p("The rule applied: met when all is at most %.0f%% slower than off.\n\n", maxFlagsDeltaPct)
	p("| benchmark | 1k | 10k | 100k |\n| --- | ---: | ---: | ---: |\n")
	for _, o := range order {
		if d.s[key{o.name, d.sizes[0], "flags=off"}] == nil {
			continue
		}
		p("| %s |", o.name)
		for _, n := range []int{1000, 10000, 100000} {
			off, all := d.s[key{o.name, n, "flags=off"}], d.s[key{o.name, n, "flags=all"}]
			if off == nil || all == nil {
				p(" — |")
				continue
			}
			delta, pv := compare(off["ns/op"], all["ns/op"])
			p(" %+.1f%% (p=%.3f) |", delta, pv)
		}
		p("\n")
	}
	p("\nWhere the load's time goes under each set, at 100k nodes (stage medians; the load also runs the head fix-up and the splices, which have no benchmark of their own, and runs the card pass over its own chain, not over every row as RuntimeCards does):\n\n")
	p("| stage | flags=off | flags=all | all − off |\n| --- | ---: | ---: | ---: |\n")
	n := 100000
	for _, st := range []string{"Load", "Aggregate", "LinearHistory", "GetBranch", "Siblings", "Preds"} {
		off := d.value(key{st, n, "flags=off"}, "ns/op")
		all := d.value(key{st, n, "flags=all"}, "ns/op")
		if math.IsNaN(off) && math.IsNaN(all) {
			continue
		}
		note := ""
		switch st {
		case "Preds":
			off, note = 0, " (flag A; a first load only: later loads extend the cached derivation)"
		case "GetBranch":
			note = " (in the load only as R's fallback; flag C removes it)"
		}
		p("| %s%s | %s | %s | %s |\n", st, note, dur(off), dur(all), durSigned(all-off))
	}
	p("\n")
	if len(r.workloads) > 0 {
		for _, wi := range r.workloads {
			if wi.size != n || wi.err != nil {
				continue
			}
			if wi.trigger["off"] {
				p("At 100k nodes the flags=off load computes the get_branch fallback (its chain of %d rows is shorter than the %d aggregated rows): a get_branch walk plus the adapter over the branch's nodes. Flag C removes that work under all; flag A adds the corrected messages of the conversation rows whose parent_id changes (kept per node) and, on a first load only, the predecessor derivation.\n\n",
					wi.chain["off"], wi.all["off"])
			}
		}
	}
}

type profile struct {
	name  string
	lines []string
}

// readProfiles reads the pprof -top outputs the script saved.
func readProfiles(dir string) ([]profile, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var out []profile
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		out = append(out, profile{name: strings.TrimSuffix(filepath.Base(f), ".txt"), lines: strings.Split(strings.TrimRight(string(b), "\n"), "\n")})
	}
	if len(out) == 0 {
		return nil, errors.New("no profiles (*.txt) in " + dir)
	}
	return out, nil
}

func (r *report) writeProfiles(w io.Writer) {
	if len(r.profiles) == 0 {
		return
	}
	p := func(format string, a ...any) { fmt.Fprintf(w, format, a...) }
	var notMet []string
	for _, t := range r.targets {
		if strings.Contains(t.status, "NOT met") {
			notMet = append(notMet, t.name)
		}
	}
	p("## Profiles\n\n")
	if len(notMet) > 0 {
		p("Targets not met: %s. The profiles below (taken in the same run, at 100k nodes) show where the time and the allocations go; ", strings.Join(notMet, "; "))
	} else {
		p("Every target is met; the profiles are kept for reference. ")
	}
	p("Each profile is focused on the benchmark's timed loop (pprof `-focus`), so the untimed fixture and stage setup is left out and the percentages are of the loop; the first lines give the loop's and the background GC's share of the whole process. `flat` is time (or allocations) in the function itself, `cum` includes its callees. The raw profiles and the test binary stay in the run's OUT directory for `go tool pprof`.\n\n")
	for _, pr := range r.profiles {
		writeProfile(w, pr)
	}
}

// writeProfile renders one saved profile: its "# title" line as a heading,
// plain lines as a list, and each "## section" as a caption over a code
// block of pprof's table.
func writeProfile(w io.Writer, pr profile) {
	title := strings.NewReplacer("-", " ").Replace(pr.name)
	inCode := false
	closeCode := func() {
		if inCode {
			fmt.Fprint(w, "```\n\n")
			inCode = false
		}
	}
	var started bool
	for _, line := range pr.lines {
		switch {
		case strings.HasPrefix(line, "# "):
			title = strings.TrimPrefix(line, "# ")
		case strings.HasPrefix(line, "## "):
			if !started {
				fmt.Fprintf(w, "### %s\n\n", title)
				started = true
			}
			closeCode()
			fmt.Fprintf(w, "\n%s:\n\n```\n", strings.TrimPrefix(line, "## "))
			inCode = true
		case inCode:
			fmt.Fprintln(w, line)
		case strings.TrimSpace(line) != "":
			if !started {
				fmt.Fprintf(w, "### %s\n\n", title)
				started = true
			}
			fmt.Fprintf(w, "- %s\n", strings.TrimSpace(line))
		}
	}
	closeCode()
	if !started {
		fmt.Fprintf(w, "### %s\n\n(empty)\n\n", title)
	}
}

// plot draws time/op and ns/node against nodes for every benchmark.
func (r *report) plot() []byte {
	d := r.d
	colors := map[string]string{
		"Load": "#1f77b4", "ColdLoad": "#d62728", "Aggregate": "#2ca02c", "LinearHistory": "#9467bd",
		"GetBranch": "#8c564b", "RuntimeCards": "#e377c2", "Preds": "#ff7f0e",
	}
	floorColor := "#7f7f7f"
	var tSeries, nSeries []plot.Series
	var legend []plot.Legend
	seenLabel := map[string]bool{}
	for _, o := range order {
		for _, v := range d.variants(o.name) {
			color, dashed := colors[o.name], false
			switch v {
			case "flags=all":
				dashed = true
			case "open-only":
				color = "#bcbd22"
			case "read-files-only":
				color = floorColor
			}
			var xs, ts, ns []float64
			for _, n := range d.sizes {
				k := key{o.name, n, v}
				if _, ok := d.s[k]; !ok {
					continue
				}
				xs = append(xs, float64(d.nodes[n]))
				ts = append(ts, d.value(k, "ns/op"))
				ns = append(ns, d.value(k, "ns/node"))
			}
			if len(xs) == 0 {
				continue
			}
			name := o.name + " " + v
			tSeries = append(tSeries, plot.Series{Name: name, Color: color, Dashed: dashed, X: xs, Y: ts})
			nSeries = append(nSeries, plot.Series{Name: name, Color: color, Dashed: dashed, X: xs, Y: ns})
			label := o.name
			if v == "open-only" || v == "read-files-only" {
				label += " " + v
			}
			if !seenLabel[label] {
				seenLabel[label] = true
				legend = append(legend, plot.Legend{Label: label, Color: color})
			}
		}
	}
	legend = append(legend, plot.Legend{Label: "flags=off: solid, flags=all: dashed", Color: "#000", Dashed: true})
	charts := []plot.Chart{
		{Title: "time per op", XLabel: "nodes in the session", YLabel: "time/op", Series: tSeries, YFmt: plot.Duration},
		{Title: "time per node (flat = linear)", XLabel: "nodes in the session", YLabel: "ns/node", Series: nSeries,
			Refs: []plot.Ref{{Y: maxLoadNsPerNode, Label: fmt.Sprintf("Load target %.0f ns/node", maxLoadNsPerNode), Color: colors["Load"]}}},
	}
	return plot.Page("sessiondag load pipeline: scaling", charts, legend)
}

// Formatting helpers.

func hasSize(sizes []int, n int) bool {
	for _, s := range sizes {
		if s == n {
			return true
		}
	}
	return false
}

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

func cpuModel(fromResults string) string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				return strings.TrimSpace(v)
			}
		}
	}
	return orDash(fromResults)
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
