// Command hostile builds every hostile session tree of checker/robust at
// full size (and at its growth sizes) and runs the reading commands on each
// under /usr/bin/time: `load`, `load --json` and `audit`, one process per
// run, each with a time limit. It prints one table row per tree and command
// with the outcome (exit status and the first line of stderr), the wall
// time, the peak resident memory and the output size, then the growth of
// time and memory between sizes, as the ratio per doubling of the size.
// Run it from the project root after `make build`:
//
//	go run ./scripts/hostile [-bin bin/sessiondag] [-only a,b] [-limit 120s] [-keep DIR]
//
// It exits 1 when a run times out, is killed, or grows faster than
// -max-growth per doubling.
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"sessiondag/checker/robust"
	"sessiondag/internal/termtext"
)

func main() {
	bin := flag.String("bin", "bin/sessiondag", "the sessiondag binary to measure")
	only := flag.String("only", "", "comma-separated tree names (default: every tree)")
	limit := flag.Duration("limit", 120*time.Second, "time limit of one run")
	keep := flag.String("keep", "", "build the trees under this directory and keep them")
	maxGrowth := flag.Float64("max-growth", 2.2, "largest allowed growth of time and memory per doubling of the size")
	flag.Parse()
	if err := run(*bin, *only, *keep, *limit, *maxGrowth); err != nil {
		fmt.Fprintln(os.Stderr, "hostile:", err)
		os.Exit(1)
	}
}

// commands are the reading commands measured on each tree.
var commands = [][]string{{"load"}, {"load", "--json"}, {"audit"}}

// result is one measured run.
type result struct {
	tree, cmd string
	size      int
	exit      int
	outcome   string
	seconds   float64
	peakKB    int64
	outBytes  int64
}

func run(bin, only, keep string, limit time.Duration, maxGrowth float64) error {
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
	want := map[string]bool{}
	for _, n := range strings.Split(only, ",") {
		if n != "" {
			want[n] = true
		}
	}
	var all []result
	bad := false
	fmt.Println("| tree | size | command | outcome | time (s) | peak memory (MB) | output (MB) |")
	fmt.Println("|---|---|---|---|---|---|---|")
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
			for _, c := range commands {
				r, err := measure(bin, append(append([]string{}, c...), dir), limit)
				if err != nil {
					return err
				}
				r.tree, r.cmd, r.size = t.Name, strings.Join(c, " "), n
				if r.exit < 0 {
					bad = true
				}
				all = append(all, r)
				size := "–"
				if t.Size > 0 {
					size = strconv.Itoa(n)
				}
				fmt.Printf("| %s | %s | %s | %s | %.2f | %.1f | %.2f |\n", t.Name, size, r.cmd,
					strings.ReplaceAll(r.outcome, "|", `\|`), r.seconds, float64(r.peakKB)/1024, float64(r.outBytes)/(1<<20))
			}
		}
	}
	if !growth(all, maxGrowth) {
		bad = true
	}
	if bad {
		return errors.New("a run failed to finish or grew faster than allowed")
	}
	return nil
}

// measure runs one command under /usr/bin/time and reads its report.
func measure(bin string, args []string, limit time.Duration) (result, error) {
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	report, err := os.CreateTemp("", "hostile-time-")
	if err != nil {
		return result{}, err
	}
	defer os.Remove(report.Name())
	report.Close()
	cmd := exec.CommandContext(ctx, "/usr/bin/time", append([]string{"-f", "%e %M", "-o", report.Name(), bin}, args...)...)
	var out countWriter
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	start := time.Now()
	runErr := cmd.Run()
	var r result
	r.outBytes = out.n
	var exitErr *exec.ExitError
	switch {
	case ctx.Err() != nil:
		r.exit, r.outcome = -1, fmt.Sprintf("killed after %v", limit)
		r.seconds = time.Since(start).Seconds()
		return r, nil
	case errors.As(runErr, &exitErr):
		r.exit = exitErr.ExitCode()
	case runErr != nil:
		return r, runErr
	}
	data, err := os.ReadFile(report.Name())
	if err != nil {
		return r, err
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	f := strings.Fields(lines[len(lines)-1])
	if len(f) == 2 {
		r.seconds, _ = strconv.ParseFloat(f[0], 64)
		r.peakKB, _ = strconv.ParseInt(f[1], 10, 64)
	}
	first, _, _ := strings.Cut(strings.TrimSpace(stderr.String()), "\n")
	if len(first) > 90 {
		first = first[:87] + "..."
	}
	r.outcome = fmt.Sprintf("exit %d", r.exit)
	if first != "" {
		r.outcome += ": " + termtext.Line(strings.ToValidUTF8(first, "?"))
	}
	return r, nil
}

type countWriter struct{ n int64 }

func (w *countWriter) Write(p []byte) (int, error) { w.n += int64(len(p)); return len(p), nil }

var _ io.Writer = (*countWriter)(nil)

// growth prints, per tree and command measured at several sizes, the
// growth of time and peak memory per doubling of the size between
// consecutive sizes, and reports whether every one is within max. Times
// under 0.05 s are too coarse to compare and are left out.
func growth(all []result, max float64) bool {
	ok := true
	header := false
	for i := 1; i < len(all); i++ {
		a, b := all[i-1], all[i]
		for j := i - 1; j >= 0; j-- { // the same command at the size before
			if all[j].tree == b.tree && all[j].cmd == b.cmd && all[j].size < b.size {
				a = all[j]
				break
			}
		}
		if a.tree != b.tree || a.cmd != b.cmd || a.size >= b.size {
			continue
		}
		if !header {
			fmt.Println()
			fmt.Println("| tree | command | sizes | time per doubling | memory per doubling |")
			fmt.Println("|---|---|---|---|---|")
			header = true
		}
		doublings := math.Log2(float64(b.size) / float64(a.size))
		per := func(x, y float64) (string, bool) {
			if x <= 0 || y <= 0 {
				return "–", true
			}
			g := math.Pow(y/x, 1/doublings)
			return fmt.Sprintf("%.2f×", g), g <= max
		}
		t, tok := "– (under 0.05 s)", true
		if a.seconds >= 0.05 {
			t, tok = per(a.seconds, b.seconds)
		}
		m, mok := per(float64(a.peakKB), float64(b.peakKB))
		mark := ""
		if !tok || !mok {
			ok = false
			mark = " **over**"
		}
		fmt.Printf("| %s | %s | %d → %d | %s | %s%s |\n", b.tree, b.cmd, a.size, b.size, t, m, mark)
	}
	return ok
}
