package repo

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	judge "sessiondag/checker/mutant"
	"sessiondag/impl/mutant"
	"sessiondag/internal/mutantsrc"
)

// TestEveryMutantIsWired: each mutant is switched on somewhere in the code
// it breaks (a mutant.On(mutant.Name) call): those of impl/mutant in impl/,
// the judge's (checker/mutant) in the checker, the models, the audit, the
// comparison or the command. A declared mutant that no code reads is caught
// by no test and would show as a survivor of `make mutants` without being a
// blind spot of the suite. Names are unique across both.
func TestEveryMutantIsWired(t *testing.T) {
	root := repoRoot(t)
	var implNames, judgeNames []string
	for _, m := range mutant.All {
		implNames = append(implNames, m.Name)
	}
	for _, m := range judge.All {
		judgeNames = append(judgeNames, m.Name)
	}
	wired(t, root, "impl/mutant/names.go", implNames, "impl")
	wired(t, root, "checker/mutant/names.go", judgeNames, "ops", "checker", "model", "audit", "internal/jsoncmp", "cmd")
	seen := map[string]bool{}
	for _, n := range append(implNames, judgeNames...) {
		if seen[n] {
			t.Errorf("two mutants are named %q", n)
		}
		seen[n] = true
	}
}

// wired checks that every name declared in the registry file is switched on
// in one of the trees.
func wired(t *testing.T, root, registry string, names []string, trees ...string) {
	t.Helper()
	fset := token.NewFileSet()
	consts, err := mutantsrc.Constants(fset, []string{filepath.Join(root, registry)})
	if err != nil {
		t.Fatal(err)
	}
	constOf := map[string]string{} // mutant name → its constant
	for id, v := range consts {
		constOf[v] = id
	}
	used := map[string]bool{}
	for _, tree := range trees {
		err := filepath.WalkDir(filepath.Join(root, tree), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == "mutant" {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			f, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				return err
			}
			ast.Inspect(f, func(n ast.Node) bool {
				if sel, ok := n.(*ast.SelectorExpr); ok {
					if x, ok := sel.X.(*ast.Ident); ok && x.Name == "mutant" {
						used[sel.Sel.Name] = true
					}
				}
				return true
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, n := range names {
		c, ok := constOf[n]
		switch {
		case !ok:
			t.Errorf("mutant %q has no constant in %s", n, registry)
		case !used[c]:
			t.Errorf("mutant %q (mutant.%s) is declared, but no code in %v switches it on", n, c, trees)
		}
	}
}
