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
)

// maxLines is the longest a function of the checker side may be: beyond it
// a function does several jobs, and a newcomer cannot see what to change.
const maxLines = 120

// checkerDirs are the packages the limit holds for.
var checkerDirs = []string{"model", "gen", "robust", "driver", "harness", "audit", "ops", "exhaust", "hunt", "cmd/sessiondag"}

// TestCheckerFunctionsAreShort fails on any function of the checker side
// longer than maxLines, naming it and its length.
func TestCheckerFunctionsAreShort(t *testing.T) {
	root := filepath.Join("..", "..")
	for _, dir := range checkerDirs {
		err := filepath.WalkDir(filepath.Join(root, dir), func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") {
				return err
			}
			for _, f := range longFuncs(t, p) {
				t.Errorf("%s", f)
			}
			return nil
		})
		if err != nil && !strings.Contains(err.Error(), "no such file") {
			t.Fatal(err)
		}
	}
}

// longFuncs lists the functions of a file longer than maxLines.
func longFuncs(t *testing.T, path string) []string {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, 0)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		var body *ast.BlockStmt
		name := "func literal"
		switch fn := n.(type) {
		case *ast.FuncDecl:
			body, name = fn.Body, fn.Name.Name
		case *ast.FuncLit:
			body = fn.Body
		}
		if body != nil {
			lines := fset.Position(body.End()).Line - fset.Position(body.Pos()).Line + 1
			if lines > maxLines {
				rel, _ := filepath.Rel(filepath.Join("..", ".."), path)
				out = append(out, rel+": "+name+" is "+strconv.Itoa(lines)+" lines (at most "+strconv.Itoa(maxLines)+")")
			}
		}
		return true
	})
	return out
}
