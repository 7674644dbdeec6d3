// Command hostile builds every hostile session tree of checker/robust at
// full size (and at each size of its growth series) and runs the reading
// commands on each, one process per run under /usr/bin/time, with a time
// limit: `load`, `load --json` and `audit`. It prints one row per tree and
// command: the outcome (exit status, the first line of stderr, and for
// `load --json` whether the output is valid UTF-8 JSON), the wall and
// processor time, the peak resident memory and the output size (for a
// growth series the least of up to three runs). Then, for
// the growth series, the growth per doubling: of processor time against the
// bytes read and written (input + output: a view may be large where the
// original's is, and writing it costs its size), of peak memory against the
// bytes read. Run it from the project root after `make build`:
//
//	go run ./scripts/hostile [-bin bin/sessiondag] [-only a,b] [-limit 120s] [-keep DIR]
//	go run ./scripts/hostile -bench [-count 3] [-benchtime 1s] [-only a,b] [-from FILE]
//
// -bench runs BenchmarkHostile (bench/) instead and prints the same growth
// of its cpu-ns/op, B/op and allocs/op, the least of -count runs each.
//
// Processor time, not wall time, is compared: on a machine shared with
// other work the wall time of a run stretches with the others' load. Times
// under 0.2 s are too coarse to compare and are left out. It exits 1 when a
// run times out or any growth exceeds -max-growth.
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"sessiondag/checker/robust"
	"sessiondag/internal/jsonstream"
	"sessiondag/internal/termtext"
)

func main() {
	bin := flag.String("bin", "bin/sessiondag", "the sessiondag binary to measure")
	only := flag.String("only", "", "comma-separated tree names (default: every tree)")
	limit := flag.Duration("limit", 120*time.Second, "time limit of one run")
	keep := flag.String("keep", "", "build the trees under this directory and keep them")
	maxGrowth := flag.Float64("max-growth", 2.2, "largest allowed growth per doubling")
	bench := flag.Bool("bench", false, "run BenchmarkHostile and print its growth instead")
	count := flag.Int("count", 5, "with -bench: runs of each benchmark (the least is used)")
	benchtime := flag.String("benchtime", "1s", "with -bench: go test -benchtime of each run (longer runs more iterations of the small sizes)")
	from := flag.String("from", "", "with -bench: read the output of an earlier BenchmarkHostile run from this file instead of running it")
	flag.Parse()
	want := map[string]bool{}
	for _, n := range strings.Split(*only, ",") {
		if n != "" {
			want[n] = true
		}
	}
	var err error
	if *bench {
		err = runBench(want, *count, *benchtime, *from, *maxGrowth)
	} else {
		err = run(*bin, want, *keep, *limit, *maxGrowth)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "hostile:", err)
		os.Exit(1)
	}
}

// commands are the reading commands measured on each tree.
var commands = [][]string{{"load"}, {"load", "--json"}, {"audit"}}

// point is one measurement of a tree at a size.
type point struct {
	tree, cmd string
	size      int
	in, out   float64 // bytes read and written
	cpu       float64 // seconds (or ns/op)
	mem       float64 // peak KB (or B/op)
	allocs    float64
}

func run(bin string, want map[string]bool, keep string, limit time.Duration, maxGrowth float64) error {
	if _, err := os.Stat(bin); err != nil {
		return fmt.Errorf("%s: %w (run make build first)", bin, err)
	}
	parent := keep
	if parent == "" {
		d, err := os.MkdirTemp("", "hostile-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(d)
		parent = d
	}
	var pts []point
	bad := false
	fmt.Println("| tree | size | command | outcome | wall (s) | cpu (s) | peak memory (MB) | output (MB) |")
	fmt.Println("|---|---|---|---|---|---|---|---|")
	for _, t := range robust.Trees() {
		if len(want) > 0 && !want[t.Name] {
			continue
		}
		sizes := t.Growth
		if len(sizes) == 0 {
			sizes = []int{t.Size}
		}
		for _, n := range sizes {
			dir, err := t.Build(filepath.Join(parent, fmt.Sprintf("%s-%d", t.Name, n)), n)
			if err != nil {
				return err
			}
			in := treeBytes(dir)
			for _, c := range commands {
				r, err := best(bin, c, dir, limit, len(t.Growth) > 0)
				if err != nil {
					return err
				}
				if r.killed {
					bad = true
				}
				size := "–"
				if t.Size > 0 {
					size = strconv.Itoa(n)
				}
				fmt.Printf("| %s | %s | %s | %s | %.2f | %.2f | %.1f | %.2f |\n", t.Name, size, strings.Join(c, " "),
					strings.ReplaceAll(r.outcome, "|", `\|`), r.wall, r.cpu, r.peakKB/1024, r.out/(1<<20))
				if len(t.Growth) > 0 {
					pts = append(pts, point{tree: t.Name, cmd: strings.Join(c, " "), size: n, in: in, out: r.out, cpu: r.cpu, mem: r.peakKB})
				}
			}
		}
	}
	fmt.Println()
	if !growth(pts, maxGrowth, 0.2, "cpu", "peak memory") || bad {
		return errors.New("a run did not finish in time or grew faster than allowed")
	}
	return nil
}

// treeBytes is the size of the files below dir.
func treeBytes(dir string) float64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return float64(n)
}

// result is one measured run.
type result struct {
	killed    bool
	outcome   string
	wall, cpu float64
	peakKB    float64
	out       float64
}

// best measures a command once, or for a growth series up to three times
// (runs under 20 s) keeping the least processor time and peak memory: other
// work on the machine only ever adds to them.
func best(bin string, c []string, dir string, limit time.Duration, growth bool) (result, error) {
	r, err := measure(bin, c, dir, limit)
	for i := 1; growth && err == nil && !r.killed && r.wall < 20 && i < 3; i++ {
		var again result
		if again, err = measure(bin, c, dir, limit); err == nil {
			r.cpu, r.peakKB = math.Min(r.cpu, again.cpu), math.Min(r.peakKB, again.peakKB)
		}
	}
	return r, err
}

// measure runs one command on dir under /usr/bin/time and reads its report.
// Its output goes through a pipe to a reader that counts it, checks it as
// JSON (load --json) and keeps its last line (the audit's verdict): no disk
// write of it is timed, and it is never held whole.
func measure(bin string, c []string, dir string, limit time.Duration) (result, error) {
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	report, err := os.CreateTemp("", "hostile-time-")
	if err != nil {
		return result{}, err
	}
	report.Close()
	defer os.Remove(report.Name())
	args := append([]string{"-f", "%e %U %S %M", "-o", report.Name(), bin}, append(append([]string{}, c...), dir)...)
	cmd := exec.CommandContext(ctx, "/usr/bin/time", args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return result{}, err
	}
	isJSON := len(c) == 2 && c[1] == "--json"
	type read struct {
		n    int64
		last string
		json string
	}
	got := make(chan read, 1)
	if err := cmd.Start(); err != nil {
		return result{}, err
	}
	go func() {
		var rd read
		tail := &tailWriter{}
		body := io.TeeReader(stdout, io.MultiWriter(tail, &byteCounter{&rd.n}))
		if isJSON {
			if _, err := jsonstream.Check(body); err != nil {
				rd.json = "invalid: " + err.Error()
			} else {
				rd.json = "valid UTF-8 JSON"
			}
		}
		io.Copy(io.Discard, body)
		rd.last = tail.lastLine()
		got <- rd
	}()
	rd := <-got
	runErr := cmd.Wait()
	r := result{out: float64(rd.n)}
	var exitErr *exec.ExitError
	exit := 0
	switch {
	case ctx.Err() != nil:
		r.killed, r.outcome = true, fmt.Sprintf("killed after %v", limit)
		return r, nil
	case errors.As(runErr, &exitErr):
		exit = exitErr.ExitCode()
	case runErr != nil:
		return r, runErr
	}
	data, err := os.ReadFile(report.Name())
	if err != nil {
		return r, err
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if f := strings.Fields(lines[len(lines)-1]); len(f) == 4 {
		r.wall, _ = strconv.ParseFloat(f[0], 64)
		u, _ := strconv.ParseFloat(f[1], 64)
		s, _ := strconv.ParseFloat(f[2], 64)
		r.cpu = u + s
		r.peakKB, _ = strconv.ParseFloat(f[3], 64)
	}
	r.outcome = fmt.Sprintf("exit %d", exit)
	if isJSON && exit != 2 {
		r.outcome += ", " + rd.json
	}
	if v := rd.last; c[0] == "audit" && (strings.Contains(v, "ready") || strings.Contains(v, "READY")) {
		_, v, _ = strings.Cut(v, ": ")
		r.outcome += " (" + termtext.Line(v) + ")"
	}
	first, _, _ := strings.Cut(strings.TrimSpace(stderr.String()), "\n")
	first = strings.ReplaceAll(first, dir, "DIR")
	if len(first) > 100 {
		first = first[:97] + "..."
	}
	if first != "" {
		r.outcome += ": " + termtext.Line(strings.ToValidUTF8(first, "?"))
	}
	return r, nil
}

// byteCounter counts what is written to it.
type byteCounter struct{ n *int64 }

func (c *byteCounter) Write(p []byte) (int, error) { *c.n += int64(len(p)); return len(p), nil }

// tailWriter keeps the last bytes written to it.
type tailWriter struct{ b []byte }

func (t *tailWriter) Write(p []byte) (int, error) {
	t.b = append(t.b, p...)
	if len(t.b) > 4096 {
		t.b = append(t.b[:0], t.b[len(t.b)-1024:]...)
	}
	return len(p), nil
}

func (t *tailWriter) lastLine() string {
	s := strings.TrimSpace(string(t.b))
	return s[strings.LastIndexByte(s, '\n')+1:]
}

// growth prints, for each tree and command measured at several sizes, the
// growth between consecutive sizes: of cpu per doubling of input + output,
// of memory (and allocations, when measured) per doubling of input; then
// the same from the first size to the last. It reports whether every
// memory growth is within max, and the cpu growth of every series.
// Processor time is gated over the whole series (four to ten times the
// input), not between consecutive sizes: a run is a few iterations, and on
// a shared machine one garbage collection or cache-hungry neighbour more
// moves it by 10–20 %, which a single doubling shows whole and a series
// divides by its number of doublings; an n² cost still shows as 4× per
// doubling there. Memory is counted, not timed, and gated at every step.
// cpu under floor is left out.
func growth(pts []point, max, floor float64, cpuName, memName string) bool {
	ok := true
	allocs := len(pts) > 0 && pts[0].allocs > 0
	head, rule := "", ""
	if allocs {
		head, rule = " allocs per doubling of input |", "---|"
	}
	fmt.Printf("| tree | command | sizes | %s per doubling of input + output | %s per doubling of input |%s\n", cpuName, memName, head)
	fmt.Println("|---|---|---|---|---|" + rule)
	per := func(x0, x1, w0, w1 float64) (string, bool) {
		if x0 <= 0 || x1 <= 0 || w1 <= w0 {
			return "–", true
		}
		g := math.Pow(x1/x0, 1/math.Log2(w1/w0))
		return fmt.Sprintf("%.2f×", g), g <= max
	}
	for i, b := range pts {
		var a *point
		for j := i - 1; j >= 0; j-- {
			if pts[j].tree == b.tree && pts[j].cmd == b.cmd && pts[j].size < b.size {
				a = &pts[j]
				break
			}
		}
		if a == nil {
			continue
		}
		c, cok := fmt.Sprintf("– (under %gs)", floor), true
		if a.cpu >= floor {
			c, cok = per(a.cpu, b.cpu, a.in+a.out, b.in+b.out)
		}
		m, mok := per(a.mem, b.mem, a.in, b.in)
		row := fmt.Sprintf("| %s | %s | %d → %d | %s | %s |", b.tree, b.cmd, a.size, b.size, c, m)
		if b.allocs > 0 {
			al, aok := per(a.allocs, b.allocs, a.in, b.in)
			row += " " + al + " |"
			mok = mok && aok
		}
		switch {
		case !mok:
			ok = false
			row += " **over**"
		case !cok:
			row += " over (cpu: gated over the series below)"
		}
		fmt.Println(row)
	}
	fmt.Println()
	fmt.Printf("From the first size to the last:\n\n| tree | command | sizes | %s per doubling of input + output | %s per doubling of input |\n", cpuName, memName)
	fmt.Println("|---|---|---|---|---|")
	for i, a := range pts {
		if slices.ContainsFunc(pts[:i], func(p point) bool { return p.tree == a.tree && p.cmd == a.cmd }) {
			continue // not the first of its series
		}
		var b *point
		for j := i + 1; j < len(pts); j++ {
			if pts[j].tree == a.tree && pts[j].cmd == a.cmd && pts[j].size > a.size {
				b = &pts[j] // the last one wins
			}
		}
		if b == nil {
			continue
		}
		c, cok := fmt.Sprintf("– (under %gs)", floor), true
		if a.cpu >= floor {
			c, cok = per(a.cpu, b.cpu, a.in+a.out, b.in+b.out)
		}
		m, mok := per(a.mem, b.mem, a.in, b.in)
		row := fmt.Sprintf("| %s | %s | %d → %d | %s | %s |", a.tree, a.cmd, a.size, b.size, c, m)
		if !cok || !mok {
			ok = false
			row += " **over**"
		}
		fmt.Println(row)
	}
	return ok
}

// runBench runs BenchmarkHostile and prints the growth of its medians.
func runBench(want map[string]bool, count int, benchtime, from string, maxGrowth float64) error {
	var out []byte
	var err error
	if from != "" {
		if out, err = os.ReadFile(from); err != nil {
			return err
		}
	} else if out, err = benchOutput(want, count, benchtime); err != nil {
		return err
	}
	line := regexp.MustCompile(`^BenchmarkHostile/tree=([^/]+)/size=(\d+)/read=(\w+)-\d+\s+\d+\s+(.*)$`)
	samples := map[[3]string][]map[string]float64{}
	var order [][3]string
	for _, l := range strings.Split(string(out), "\n") {
		m := line.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		k := [3]string{m[1], m[2], m[3]}
		if samples[k] == nil {
			order = append(order, k)
		}
		f := strings.Fields(m[4])
		v := map[string]float64{}
		for i := 0; i+1 < len(f); i += 2 {
			v[f[i+1]], _ = strconv.ParseFloat(f[i], 64)
		}
		samples[k] = append(samples[k], v)
	}
	// The least of the runs: other work on the machine only adds.
	least := func(vs []map[string]float64, unit string) float64 {
		var xs []float64
		for _, v := range vs {
			xs = append(xs, v[unit])
		}
		sort.Float64s(xs)
		return xs[0]
	}
	var pts []point
	for _, k := range order {
		size, _ := strconv.Atoi(k[1])
		vs := samples[k]
		pts = append(pts, point{tree: k[0], cmd: k[2], size: size, in: least(vs, "in-B"), out: least(vs, "out-B"),
			cpu: least(vs, "cpu-ns/op"), mem: least(vs, "B/op"), allocs: least(vs, "allocs/op")})
	}
	fmt.Println()
	if !growth(pts, maxGrowth, 0, "cpu-ns/op", "B/op") {
		return errors.New("a benchmark grew faster than allowed")
	}
	return nil
}

// benchOutput runs BenchmarkHostile (the trees of want, or all) and returns
// its output, which it also prints.
func benchOutput(want map[string]bool, count int, benchtime string) ([]byte, error) {
	pattern := "BenchmarkHostile"
	if len(want) > 0 {
		var names []string
		for n := range want {
			names = append(names, regexp.QuoteMeta(n))
		}
		sort.Strings(names)
		pattern += "/tree=(" + strings.Join(names, "|") + ")/"
	}
	cmd := exec.Command("go", "test", "-run", "^$", "-bench", pattern, "-benchmem", "-count", strconv.Itoa(count), "-benchtime", benchtime, "-timeout", "60m", "./bench")
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	os.Stdout.Write(out)
	if err != nil {
		return nil, fmt.Errorf("go test -bench: %w", err)
	}
	return out, nil
}
