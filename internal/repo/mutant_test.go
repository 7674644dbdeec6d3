package repo

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// mutantRegistry is the one registry of the planted bugs (internal/mutants).
const mutantRegistry = "sessiondag/internal/mutants"

// TestNoMutantInProductionCode: a mutant is an edit of the source kept in
// internal/mutants and compiled in only with `go build -overlay`: no file of
// the shipped code — a non-test Go file outside the registry and the
// command that runs the mutants — imports the registry, so a normal build
// cannot hold a planted bug, whatever its flags or environment.
func TestNoMutantInProductionCode(t *testing.T) {
	root := repoRoot(t)
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			switch {
			case strings.HasPrefix(d.Name(), ".") && rel != ".", d.Name() == "testdata",
				rel == "internal/mutants", rel == "scripts/mutants":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if p == mutantRegistry || strings.HasSuffix(p, "/mutant") {
				t.Errorf("%s imports %s: production code holds no mutant (internal/mutants)", rel, p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
