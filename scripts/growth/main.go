// Command growth reads `go test -bench` output on standard input and prints,
// for each benchmark whose last name part is a size (NAME/KEY=N), how each
// measurement grows per doubling of N between consecutive sizes and from
// the first size to the last: (m1/m0)^(1/log2(N1/N0)). With -gate it exits
// 1 when a gated measurement grows by more than -max per doubling between
// any two consecutive sizes (a run of a few iterations on a shared machine
// moves wall time; processor time and bytes allocated much less). Of
// several runs of one size (-count) the least of each measurement is kept:
// other work on the machine only adds.
//
//	go test -run '^$' -bench ReplayScript -benchtime 1x -benchmem ./bench | go run ./scripts/growth -gate cpu-ns/op,B/op
package main

import (
	"bufio"
	"flag"
	"fmt"
	"math"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

var line = regexp.MustCompile(`^(Benchmark\S+)/(\w+)=(\d+)(?:-\d+)?\s+\d+\s+(.*)$`)

// point is one size of a series: its measurements, the least of its runs.
type point struct {
	size float64
	m    map[string]float64
}

func main() {
	gate := flag.String("gate", "", "comma-separated measurements that must not grow faster than -max per doubling")
	maxGrowth := flag.Float64("max", 2.2, "the most a gated measurement may grow per doubling")
	flag.Parse()
	series, order, units := read()
	gated := strings.Split(*gate, ",")
	ok := true
	for _, name := range order {
		pts := series[name]
		slices.SortFunc(pts, func(a, b point) int { return int(a.size - b.size) })
		fmt.Printf("%s: growth per doubling of %s\n\n| sizes | %s |\n|---|%s\n", name, name[strings.LastIndex(name, "/")+1:],
			strings.Join(units, " | "), strings.Repeat("---|", len(units)))
		for i := 1; i < len(pts); i++ {
			row, good := rowOf(pts[i-1], pts[i], units, gated, *maxGrowth)
			ok = ok && good
			fmt.Println(row)
		}
		if len(pts) > 2 {
			row, _ := rowOf(pts[0], pts[len(pts)-1], units, nil, *maxGrowth)
			fmt.Println(row + " (first to last)")
		}
		fmt.Println()
	}
	if !ok {
		fmt.Printf("a measurement of %s grew faster than %g× per doubling\n", *gate, *maxGrowth)
		os.Exit(1)
	}
}

// read parses the benchmark lines: the series by name (the benchmark and
// the size's key), in the order first seen, and every unit measured.
func read() (map[string][]point, []string, []string) {
	series := map[string][]point{}
	var order, units []string
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		m := line.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		name := m[1] + "/" + m[2]
		size, _ := strconv.ParseFloat(m[3], 64)
		f := strings.Fields(m[4])
		vals := map[string]float64{}
		for i := 0; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				continue
			}
			vals[f[i+1]] = v
			if !slices.Contains(units, f[i+1]) {
				units = append(units, f[i+1])
			}
		}
		if _, seen := series[name]; !seen {
			order = append(order, name)
		}
		pts := series[name]
		j := slices.IndexFunc(pts, func(p point) bool { return p.size == size })
		if j < 0 {
			series[name] = append(pts, point{size, vals})
			continue
		}
		for u, v := range vals {
			if old, had := pts[j].m[u]; !had || v < old {
				pts[j].m[u] = v
			}
		}
	}
	return series, order, units
}

// rowOf is the growth per doubling of every unit from a to b, and whether
// the gated ones are within most.
func rowOf(a, b point, units, gated []string, most float64) (string, bool) {
	ok := true
	cells := []string{fmt.Sprintf("%g → %g", a.size, b.size)}
	for _, u := range units {
		x0, x1 := a.m[u], b.m[u]
		if x0 <= 0 || x1 <= 0 {
			cells = append(cells, "–")
			continue
		}
		g := math.Pow(x1/x0, 1/math.Log2(b.size/a.size))
		cell := fmt.Sprintf("%.2f×", g)
		if slices.Contains(gated, u) && g > most {
			cell += " **over**"
			ok = false
		}
		cells = append(cells, cell)
	}
	return "| " + strings.Join(cells, " | ") + " |", ok
}
