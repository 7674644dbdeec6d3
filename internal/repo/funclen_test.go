package repo

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// maxLines is the longest a function may be: beyond it a function does
// several jobs, and a newcomer cannot see what to change.
const maxLines = 120

// TestFunctionsAreShort fails on any function of the project's packages
// (go list ./..., their non-test files) longer than maxLines, naming it and
// its length. The packages come from go list, so a package that moves
// stays under the rule; a run that finds no Go file fails.
func TestFunctionsAreShort(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	root := repoRoot(t)
	cmd := exec.Command("go", "list", "-f", `{{.Dir}}{{range .GoFiles}} {{.}}{{end}}`, "./...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	files := 0
	for line := range strings.Lines(string(out)) {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		for _, name := range f[1:] {
			files++
			for _, long := range longFuncs(t, root, filepath.Join(f[0], name)) {
				t.Errorf("%s", long)
			}
		}
	}
	if files == 0 {
		t.Fatal("go list ./... gave no Go file")
	}
}

// longFuncs lists the functions of a file longer than maxLines.
func longFuncs(t *testing.T, root, path string) []string {
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
				rel, _ := filepath.Rel(root, path)
				out = append(out, rel+": "+name+" is "+strconv.Itoa(lines)+" lines (at most "+strconv.Itoa(maxLines)+")")
			}
		}
		return true
	})
	return out
}
