package main

import (
	"bytes"
	"fmt"
	"maps"
	"os/exec"
	"slices"
	"strings"
)

const module = "sessiondag/..." // every package, from any directory of the module

// testDeps is, for each package of pkgs with tests, every package its test
// binary links (go list -test -deps). A package without test files has no
// entry.
func testDeps(pkgs []string) (map[string][]string, error) {
	args := append([]string{"list", "-test", "-f", "{{.ImportPath}}{{range .Deps}} {{.}}{{end}}"}, pkgs...)
	out, err := goOutput(args...)
	if err != nil {
		return nil, err
	}
	deps := map[string][]string{}
	for line := range strings.Lines(out) {
		fields := strings.Fields(line) // a test variant's "p [p.test]" splits in two: p is kept
		if len(fields) == 0 {
			continue
		}
		if pkg, ok := strings.CutSuffix(fields[0], ".test"); ok { // the test binary's main package
			deps[pkg] = fields[1:]
		}
	}
	return deps, nil
}

// judgeScope is, for each of the judge's mutants, the packages whose test
// binaries link the code it edits: a test of any other package runs
// without the bug, so it cannot catch it, and leaving it out changes no row
// of the table.
func judgeScope() (map[string][]string, error) {
	all, err := every()
	if err != nil {
		return nil, err
	}
	sites := map[string][]string{}
	for _, m := range all {
		sites[m.Name] = m.sites()
	}
	deps, err := testDeps([]string{module})
	if err != nil {
		return nil, err
	}
	return scopeOf(sites, deps), nil
}

// scopeOf is, for each mutant of sites (the packages it edits), the
// packages of deps (a test binary's links, by package) that are a site or
// link one, in import path order.
func scopeOf(sites, deps map[string][]string) map[string][]string {
	scope := map[string][]string{}
	for _, p := range slices.Sorted(maps.Keys(deps)) {
		for name, in := range sites {
			if slices.ContainsFunc(in, func(site string) bool { return p == site || slices.Contains(deps[p], site) }) {
				scope[name] = append(scope[name], p)
			}
		}
	}
	return scope
}

// goOutput runs the go command and returns its standard output.
func goOutput(args ...string) (string, error) {
	cmd := exec.Command("go", args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go %s: %w: %s", strings.Join(args, " "), err, stderr.String())
	}
	return string(out), nil
}

// scoper says which packages' tests a mutant's run needs: those given on
// the command line, else the target's own, else (a judge's mutant) those
// judgeScope finds, asked of go list once.
type scoper struct {
	given []string
	scope map[string][]string
}

func (s *scoper) packages(m target) ([]string, error) {
	switch {
	case len(s.given) > 0:
		return s.given, nil
	case len(m.pkgs) > 0:
		return m.pkgs, nil
	case s.scope == nil:
		var err error
		if s.scope, err = judgeScope(); err != nil {
			return nil, err
		}
	}
	if len(s.scope[m.Name]) == 0 {
		return nil, fmt.Errorf("no package with tests links the code it edits")
	}
	return s.scope[m.Name], nil
}

// printScope prints each mutant of todo and the packages its run tests.
func printScope(todo []target, sc *scoper) error {
	for _, m := range todo {
		list, err := sc.packages(m)
		if err != nil {
			return fmt.Errorf("%s: %w", m.Name, err)
		}
		fmt.Printf("%s\t%s\n", m.Name, strings.Join(list, " "))
	}
	return nil
}
