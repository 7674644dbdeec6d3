// Command mutants runs the tests against each deliberately broken variant
// of the project (internal/mutants: the implementation's, against the
// property suite, ./props; the judge's — the comparisons, the generator,
// the models and the audit — against the tests of every package whose test
// binary links the code the mutant edits: no other test can see it; -list
// prints them). Each mutant is compiled in with `go test -overlay` and
// named in SESSIONDAG_MUTANT (which stops the suite saving its failures),
// and the command prints, per mutant, the row of the README's table "The
// harness tests itself": every test that failed and after how many
// generated cases (1 = the first; *example* for a test of fixed cases,
// *flaky* for a failure rapid could not reproduce, *crash* for a test that
// was running when the test binary died). It reads the tests' events (`go
// test -json`), not their text. A mutant no test catches makes it exit 1;
// a mutant whose tests do not build or run, 2. Rapid's flags go only to
// the test binaries that link rapid (go list -test), the other packages in
// a run of their own. Run it from the project root (make mutants):
//
//	go run ./scripts/mutants [-checks N] [-only a,b] [-run REGEXP] [-rapid=false] [PKG...]
//
// With -exhaust N it prints instead the small-scope curve (make
// mutants-exhaust): for each mutant the smallest op count at which
// `sessiondag exhaust` kills it, walking 1, 2, … up to N ops (exhaust.go).
// With -exhaust-dedup N it compares exhaust at N ops with and without
// deduplication, as built and with each mutant (make exhaust-dedup,
// dedup.go); exit 1 if a verdict differs.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"
)

// options are the command's flags.
type options struct {
	checks     int
	only, run  string
	shrink     time.Duration
	timeout    time.Duration
	exhaustOps int
	dedupOps   int
	list       bool
	rapidFlags bool
}

func main() {
	var o options
	flag.IntVar(&o.checks, "checks", 0, "rapid checks per property (-rapid.checks; 0: the suite's default, props.DefaultChecks)")
	flag.StringVar(&o.only, "only", "", "comma-separated mutants to run (default: all)")
	flag.StringVar(&o.run, "run", "", "run only the tests matching this regexp (go test -run)")
	flag.DurationVar(&o.shrink, "shrinktime", 5*time.Second, "rapid's time to shrink a failure (-rapid.shrinktime)")
	flag.DurationVar(&o.timeout, "timeout", 30*time.Minute, "go test -timeout per mutant")
	flag.IntVar(&o.exhaustOps, "exhaust", 0, "print the small-scope curve instead: the fewest ops (1…N) at which exhaust kills each mutant")
	flag.IntVar(&o.dedupOps, "exhaust-dedup", 0, "compare exhaust at N ops with and without deduplication instead, as built and with each mutant")
	flag.BoolVar(&o.list, "list", false, "print each mutant and the packages whose tests it runs, and exit")
	flag.BoolVar(&o.rapidFlags, "rapid", true, "pass rapid's flags to the test binaries that link rapid (false: to none)")
	flag.Parse()
	os.Exit(run(o, flag.Args()))
}

// run does what the options ask and returns the exit code.
func run(o options, pkgs []string) int {
	sc := &scoper{given: pkgs} // every mutant against these, when given
	todo, err := selected(o.only)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mutants:", err)
		return 2
	}
	tmp, err := os.MkdirTemp("", "sessiondag-mutants-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "mutants:", err)
		return 2
	}
	defer os.RemoveAll(tmp)
	switch {
	case o.list:
		if err := printScope(todo, sc); err != nil {
			fmt.Fprintln(os.Stderr, "mutants:", err)
			return 2
		}
		return 0
	case o.dedupOps > 0:
		differ, err := dedupCompare(todo, o.dedupOps, tmp)
		if err != nil {
			fmt.Fprintln(os.Stderr, "mutants:", err)
			return 2
		}
		if differ > 0 {
			fmt.Fprintf(os.Stderr, "mutants: deduplication changed the verdict on %d implementation(s)\n", differ)
			return 1
		}
		return 0
	case o.exhaustOps > 0:
		survivors, crashed, err := exhaustCurve(todo, &scoper{}, o.exhaustOps, tmp) // the walk's reach, whatever packages are given
		if err != nil {
			fmt.Fprintln(os.Stderr, "mutants:", err)
			return 2
		}
		fmt.Fprintf(os.Stderr, "mutants: %d of %d survive %d ops or are out of reach; %d walks crashed\n", survivors, len(todo), o.exhaustOps, crashed)
		return 0
	}
	return table(o, todo, sc, tmp)
}

// table prints the README's table, a row per mutant, and returns the exit
// code: 1 when a mutant survives, 2 when the tests of one did not run.
func table(o options, todo []target, sc *scoper, tmp string) int {
	fmt.Println("| mutant | the bug | caught by (checks needed; *example* = a fixed case) |")
	fmt.Println("|---|---|---|")
	r := runner{o: o, splits: map[string][2][]string{}}
	survivors, broken := 0, 0
	for _, m := range todo {
		start := time.Now()
		v, err := r.verdictOf(m, sc, tmp)
		if err != nil {
			fmt.Fprintf(os.Stderr, "mutants: %s: %v\n", m.Name, err)
			return 2
		}
		fmt.Fprintf(os.Stderr, "mutants: %s done in %s\n", m.Name, time.Since(start).Round(time.Second))
		switch {
		case v.broken != "":
			broken++
			fmt.Fprintf(os.Stderr, "mutants: %s: the package failed outside any test:\n%s\n", m.Name, v.broken)
			fmt.Printf("| `%s` | %s | **the tests did not run** |\n", m.Name, m.Bug)
		case len(v.caught) == 0:
			survivors++
			fmt.Printf("| `%s` | %s | **not caught** |\n", m.Name, m.Bug)
		default:
			by := make([]string, len(v.caught))
			for i, c := range v.caught {
				by[i] = c.String()
				if c.what != "" {
					fmt.Fprintf(os.Stderr, "mutants: %s: %s: %s\n", m.Name, c.test, c.what)
				}
			}
			fmt.Printf("| `%s` | %s | %s |\n", m.Name, m.Bug, strings.Join(by, " "))
		}
	}
	switch {
	case broken > 0:
		fmt.Fprintf(os.Stderr, "mutants: the tests did not run for %d mutant(s)\n", broken)
		return 2
	case survivors > 0:
		fmt.Fprintf(os.Stderr, "mutants: %d of %d mutant(s) not caught\n", survivors, len(todo))
		return 1
	}
	return 0
}

// runner runs a mutant's tests.
type runner struct {
	o      options
	splits map[string][2][]string // go list's answer, once per package list
}

// verdictOf runs the tests of m's packages with m compiled in.
func (r *runner) verdictOf(m target, sc *scoper, tmp string) (verdict, error) {
	runs, err := r.runsFor(m, sc)
	if err != nil {
		return verdict{}, err
	}
	build, err := m.buildFlags(tmp)
	if err != nil {
		return verdict{}, err
	}
	var v verdict
	for _, args := range runs {
		one, err := runOne(m.Name, slices.Insert(args, 1, build...))
		if err != nil {
			return verdict{}, err
		}
		v = v.and(one)
	}
	return v, nil
}

// runsFor is the go test runs of a mutant. Flags after the packages
// reach every test binary, and one that does not link rapid refuses
// rapid's ("flag provided but not defined"): the packages whose tests
// link it run with them, the rest in a run of their own.
func (r *runner) runsFor(m target, sc *scoper) ([][]string, error) {
	base := []string{"test", "-json", "-count=1", "-timeout", r.o.timeout.String()}
	if r.o.run != "" {
		base = append(base, "-run", r.o.run)
	}
	list, err := sc.packages(m)
	if err != nil {
		return nil, err
	}
	if !r.o.rapidFlags {
		return [][]string{append(slices.Clone(base), list...)}, nil
	}
	key := strings.Join(list, " ")
	sp, ok := r.splits[key]
	if !ok {
		with, without, err := rapidSplit(list)
		if err != nil {
			return nil, err
		}
		sp = [2][]string{with, without}
		r.splits[key] = sp
	}
	rapidArgs := []string{"-rapid.nofailfile", "-rapid.shrinktime=" + r.o.shrink.String()}
	if r.o.checks > 0 {
		rapidArgs = append(rapidArgs, fmt.Sprintf("-rapid.checks=%d", r.o.checks))
	}
	var runs [][]string
	if len(sp[0]) > 0 {
		runs = append(runs, append(append(slices.Clone(base), sp[0]...), rapidArgs...))
	}
	if len(sp[1]) > 0 {
		runs = append(runs, append(slices.Clone(base), sp[1]...))
	}
	return runs, nil
}

// runOne runs go test with the mutant compiled in and reads its events.
// go test's own exit status only says that something failed, which the
// events say in detail; its standard error is kept for a broken run.
func runOne(name string, args []string) (verdict, error) {
	cmd := exec.Command("go", args...)
	cmd.Env = append(os.Environ(), "SESSIONDAG_MUTANT="+name)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return verdict{}, err
	}
	if err := cmd.Start(); err != nil {
		return verdict{}, fmt.Errorf("go test: %w", err)
	}
	v, rerr := readVerdict(out)
	io.Copy(io.Discard, out) // let go test finish writing after a read error
	werr := cmd.Wait()
	if rerr != nil {
		return verdict{}, rerr
	}
	if _, exited := werr.(*exec.ExitError); werr != nil && !exited {
		return verdict{}, fmt.Errorf("go test: %w", werr)
	}
	if werr != nil && len(v.caught) == 0 && v.broken == "" {
		v.broken = stderr.String() // go test failed before any event
		if v.broken == "" {
			v.broken = werr.Error()
		}
	}
	return v, nil
}

// rapidSplit parts the packages pkgs names into those whose test binaries
// link rapid (and so define its flags) and the rest; a package without
// test files is in neither.
func rapidSplit(pkgs []string) (with, without []string, err error) {
	deps, err := testDeps(pkgs)
	if err != nil {
		return nil, nil, err
	}
	for _, pkg := range slices.Sorted(maps.Keys(deps)) {
		if slices.Contains(deps[pkg], "pgregory.net/rapid") {
			with = append(with, pkg)
		} else {
			without = append(without, pkg)
		}
	}
	return with, without, nil
}
