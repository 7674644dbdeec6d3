package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"sessiondag/internal/mutantsrc"
)

const (
	module   = "sessiondag/..."            // every package, from any directory of the module
	judgePkg = "sessiondag/checker/mutant" // the judge's mutant switches
)

// testDeps is, for each package of pkgs with tests, every package its test
// binary links (go list -test -deps, with the mutants' build tag). A
// package without test files has no entry.
func testDeps(pkgs []string) (map[string][]string, error) {
	args := append([]string{"list", "-tags", "mutants", "-test", "-f", "{{.ImportPath}}{{range .Deps}} {{.}}{{end}}"}, pkgs...)
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
// binaries link the code that switches it on: a test of any other package
// runs without the bug, so it cannot catch it, and leaving it out changes
// no row of the table. A mutant switched on nowhere has none (and
// internal/repo's TestEveryMutantIsWired fails).
func judgeScope() (map[string][]string, error) {
	sites, err := judgeSites()
	if err != nil {
		return nil, err
	}
	deps, err := testDeps([]string{module})
	if err != nil {
		return nil, err
	}
	return scopeOf(sites, deps), nil
}

// scopeOf is, for each mutant of sites (the packages switching it on), the
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

// judgeSites is, for each of the judge's mutants by name, the packages
// whose code (not tests) switches it on: a selector of the mutant package
// naming its constant.
func judgeSites() (map[string][]string, error) {
	out, err := goOutput("list", "-tags", "mutants", "-f", "{{.ImportPath}}\t{{.Dir}}{{range .GoFiles}}\t{{.}}{{end}}", module)
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	var names map[string]string // constant → mutant name
	type pkgFiles struct {
		path  string
		files []string
	}
	var pkgs []pkgFiles
	for line := range strings.Lines(out) {
		f := strings.Split(strings.TrimSuffix(line, "\n"), "\t")
		var files []string
		for _, name := range f[2:] {
			files = append(files, filepath.Join(f[1], name))
		}
		if f[0] == judgePkg {
			if names, err = mutantsrc.Constants(fset, files); err != nil {
				return nil, err
			}
			continue
		}
		pkgs = append(pkgs, pkgFiles{f[0], files})
	}
	if names == nil {
		return nil, fmt.Errorf("go list %s: no package %s", module, judgePkg)
	}
	sites := map[string][]string{}
	for _, p := range pkgs {
		for _, file := range p.files {
			used, err := switches(fset, file)
			if err != nil {
				return nil, err
			}
			for _, c := range used {
				if n, ok := names[c]; ok && !slices.Contains(sites[n], p.path) {
					sites[n] = append(sites[n], p.path)
				}
			}
		}
	}
	return sites, nil
}

// switches is the identifiers a file selects from the judge's mutant
// package, under whatever name it imports it.
func switches(fset *token.FileSet, file string) ([]string, error) {
	f, err := parser.ParseFile(fset, file, nil, 0)
	if err != nil {
		return nil, err
	}
	local := ""
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == judgePkg {
			local = "mutant"
			if imp.Name != nil {
				local = imp.Name.Name
			}
		}
	}
	if local == "" {
		return nil, nil
	}
	var used []string
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if x, ok := sel.X.(*ast.Ident); ok && x.Name == local {
				used = append(used, sel.Sel.Name)
			}
		}
		return true
	})
	return used, nil
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
		return nil, fmt.Errorf("no package with tests links the code that switches it on")
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
