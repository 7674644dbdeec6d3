// Command mutants runs the tests against each deliberately broken variant —
// of the implementation (impl/mutant: against the property suite, ./props)
// and of the judge (checker/mutant: the comparisons, the generator, the
// models and the audit, against the tests of every package whose test
// binary links the code that switches the mutant on: no other test can see
// it; -list prints them) — built with -tags
// mutants and selected by SESSIONDAG_MUTANT, and prints, per mutant, the
// row of the README's table
// "The harness tests itself": every test that failed and after how many
// generated cases (1 = the first; *example* for a test of fixed cases,
// *flaky* for a failure rapid could not reproduce, *crash* for a test that
// was running when the test binary died). It reads the tests' events
// (`go test -json`), not their text. A mutant no test catches makes it
// exit 1; a mutant whose tests do not build or run, 2. Rapid's flags go
// only to the test binaries that link rapid (go list -test), the other
// packages in a run of their own. Run it from the project root (make
// mutants):
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

	judgemutant "sessiondag/checker/mutant"
	"sessiondag/impl/mutant"
)

func main() {
	checks := flag.Int("checks", 0, "rapid checks per property (-rapid.checks; 0: the suite's default, props.DefaultChecks)")
	only := flag.String("only", "", "comma-separated mutants to run (default: all)")
	run := flag.String("run", "", "run only the tests matching this regexp (go test -run)")
	shrink := flag.Duration("shrinktime", 5*time.Second, "rapid's time to shrink a failure (-rapid.shrinktime)")
	timeout := flag.Duration("timeout", 30*time.Minute, "go test -timeout per mutant")
	exhaustOps := flag.Int("exhaust", 0, "print the small-scope curve instead: the fewest ops (1…N) at which exhaust kills each mutant")
	dedupOps := flag.Int("exhaust-dedup", 0, "compare exhaust at N ops with and without deduplication instead, as built and with each mutant")
	list := flag.Bool("list", false, "print each mutant and the packages whose tests it runs, and exit")
	rapidFlags := flag.Bool("rapid", true, "pass rapid's flags to the test binaries that link rapid (false: to none)")
	flag.Parse()
	pkgs := flag.Args() // every mutant against these, when given
	sc := &scoper{given: pkgs}
	todo, err := selected(*only)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mutants:", err)
		os.Exit(2)
	}
	if *list {
		if err := printScope(todo, sc); err != nil {
			fmt.Fprintln(os.Stderr, "mutants:", err)
			os.Exit(2)
		}
		return
	}
	if *dedupOps > 0 {
		differ, err := dedupCompare(mutantsOf(todo), *dedupOps)
		if err != nil {
			fmt.Fprintln(os.Stderr, "mutants:", err)
			os.Exit(2)
		}
		if differ > 0 {
			fmt.Fprintf(os.Stderr, "mutants: deduplication changed the verdict on %d implementation(s)\n", differ)
			os.Exit(1)
		}
		return
	}
	if *exhaustOps > 0 {
		survivors, crashed, err := exhaustCurve(todo, &scoper{}, *exhaustOps) // the walk's reach, whatever packages are given
		if err != nil {
			fmt.Fprintln(os.Stderr, "mutants:", err)
			os.Exit(2)
		}
		fmt.Fprintf(os.Stderr, "mutants: %d of %d survive %d ops or are out of reach; %d walks crashed\n", survivors, len(todo), *exhaustOps, crashed)
		return
	}
	base := []string{"test", "-json", "-tags", "mutants", "-count=1", "-timeout", timeout.String()}
	if *run != "" {
		base = append(base, "-run", *run)
	}
	rapidArgs := []string{"-rapid.nofailfile", "-rapid.shrinktime=" + shrink.String()}
	if *checks > 0 {
		rapidArgs = append(rapidArgs, fmt.Sprintf("-rapid.checks=%d", *checks))
	}
	splits := map[string][2][]string{} // go list's answer, once per package list
	// runsFor is the go test runs of a mutant. Flags after the packages
	// reach every test binary, and one that does not link rapid refuses
	// rapid's ("flag provided but not defined"): the packages whose tests
	// link it run with them, the rest in a run of their own.
	runsFor := func(m target) ([][]string, error) {
		list, err := sc.packages(m)
		if err != nil {
			return nil, err
		}
		if !*rapidFlags {
			return [][]string{append(slices.Clone(base), list...)}, nil
		}
		key := strings.Join(list, " ")
		sp, ok := splits[key]
		if !ok {
			with, without, err := rapidSplit(list)
			if err != nil {
				return nil, err
			}
			sp = [2][]string{with, without}
			splits[key] = sp
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

	fmt.Println("| mutant | the bug | caught by (checks needed; *example* = a fixed case) |")
	fmt.Println("|---|---|---|")
	survivors, broken := 0, 0
	for _, m := range todo {
		start := time.Now()
		runs, err := runsFor(m)
		var v verdict
		for _, args := range runs {
			if err != nil {
				break
			}
			var one verdict
			one, err = runOne(m.Name, args)
			v = v.and(one)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "mutants: %s: %v\n", m.Name, err)
			os.Exit(2)
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
		os.Exit(2)
	case survivors > 0:
		fmt.Fprintf(os.Stderr, "mutants: %d of %d mutant(s) not caught\n", survivors, len(todo))
		os.Exit(1)
	}
}

// target is a mutant and the packages whose tests must catch it: none
// listed for the judge's, whose packages judgeScope finds.
type target struct {
	mutant.Mutant
	pkgs []string
}

// every lists the implementation's mutants (caught by the property suite)
// and then the judge's (caught by the tests of every package that links
// the code switching it on).
func every() []target {
	var out []target
	for _, m := range mutant.All {
		out = append(out, target{m, []string{"./props"}})
	}
	for _, m := range judgemutant.All {
		out = append(out, target{mutant.Mutant{Name: m.Name, Bug: m.Bug}, nil})
	}
	return out
}

// mutantsOf is the mutants of the targets.
func mutantsOf(ts []target) []mutant.Mutant {
	out := make([]mutant.Mutant, len(ts))
	for i, t := range ts {
		out[i] = t.Mutant
	}
	return out
}

// selected is the mutants named in only (comma-separated), in every's
// order, or all of them.
func selected(only string) ([]target, error) {
	all := every()
	if only == "" {
		return all, nil
	}
	names := strings.Split(only, ",")
	var out []target
	for _, m := range all {
		if slices.Contains(names, m.Name) {
			out = append(out, m)
		}
	}
	if len(out) != len(names) {
		known := make([]string, len(all))
		for i, m := range all {
			known[i] = m.Name
		}
		return nil, fmt.Errorf("-only %q names a mutant that does not exist (mutants: %s)", only, strings.Join(known, ", "))
	}
	return out, nil
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
