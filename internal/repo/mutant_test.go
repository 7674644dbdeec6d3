package repo

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"sessiondag/impl/mutant"
)

// TestEveryMutantIsWired: each mutant of mutant.All is switched on
// somewhere in impl/ (a mutant.On(mutant.Name) call). A declared mutant that
// no code reads is caught by no test and would show as a survivor of
// `make mutants` without being a blind spot of the suite.
func TestEveryMutantIsWired(t *testing.T) {
	root := repoRoot(t)
	fset := token.NewFileSet()
	names, err := parser.ParseFile(fset, filepath.Join(root, "impl/mutant/names.go"), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	constOf := map[string]string{} // mutant name → its constant
	ast.Inspect(names, func(n ast.Node) bool {
		if vs, ok := n.(*ast.ValueSpec); ok {
			for i, id := range vs.Names {
				if i < len(vs.Values) {
					if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
						v, _ := strconv.Unquote(lit.Value)
						constOf[v] = id.Name
					}
				}
			}
		}
		return true
	})
	used := map[string]bool{}
	err = filepath.WalkDir(filepath.Join(root, "impl"), func(path string, d fs.DirEntry, err error) error {
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
	for _, m := range mutant.All {
		c, ok := constOf[m.Name]
		switch {
		case !ok:
			t.Errorf("mutant %q has no constant in impl/mutant/names.go", m.Name)
		case !used[c]:
			t.Errorf("mutant %q (mutant.%s) is declared, but no code in impl/ switches it on", m.Name, c)
		}
	}
}
