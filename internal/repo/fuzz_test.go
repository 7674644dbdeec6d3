package repo

import (
	"bufio"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// cfliteBuild is the script ClusterFuzzLite runs to build the fuzzers.
const cfliteBuild = ".clusterfuzzlite/build.sh"

// compileCommands are the words that start a line of build.sh building one
// target: "WORD PACKAGE FUNCTION NAME".
var compileCommands = map[string]bool{
	"build_fuzzer":                true,
	"compile_native_go_fuzzer":    true,
	"compile_native_go_fuzzer_v2": true,
}

// fuzzTarget is one native Go fuzz test: func Fuzz...(f *testing.F).
type fuzzTarget struct {
	pkg, fn string
}

func (t fuzzTarget) String() string { return t.fn + " in " + t.pkg }

// TestClusterFuzzLiteBuildsEveryFuzzTarget: every fuzz target of the
// repository has a line of .clusterfuzzlite/build.sh that builds it (its
// package path and function name on one compile line), and every such line
// names a target that exists, under a fuzzer name no other line uses.
func TestClusterFuzzLiteBuildsEveryFuzzTarget(t *testing.T) {
	root := repoRoot(t)
	targets := fuzzTargets(t, root, modulePath(t, root))
	if len(targets) == 0 {
		t.Fatal("found no fuzz target in the repository: the walk is broken")
	}
	built := map[fuzzTarget]bool{}
	names := map[string]int{}
	for _, l := range compileLines(t, filepath.Join(root, cfliteBuild)) {
		if _, ok := targets[l.target]; !ok {
			t.Errorf("%s:%d builds %v, which is not a fuzz target of the repository", cfliteBuild, l.line, l.target)
		}
		if first, ok := names[l.name]; ok {
			t.Errorf("%s:%d: fuzzer name %q is already used on line %d", cfliteBuild, l.line, l.name, first)
		} else {
			names[l.name] = l.line
		}
		built[l.target] = true
	}
	var missing []string
	for target, file := range targets {
		if !built[target] {
			missing = append(missing, fmt.Sprintf("%v (%s): add a line `build_fuzzer %s %s NAME`", target, file, target.pkg, target.fn))
		}
	}
	sort.Strings(missing)
	for _, m := range missing {
		t.Errorf("%s does not build %s", cfliteBuild, m)
	}
}

// fuzzTargets finds every func FuzzXxx(f *testing.F) in the _test.go files
// under root (skipping .git, testdata and nested modules), with the file it
// is in.
func fuzzTargets(t *testing.T, root, module string) map[fuzzTarget]string {
	t.Helper()
	found := map[fuzzTarget]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == ".git" || d.Name() == "testdata" {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil && path != root {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		file, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		pkg := module
		if dir := filepath.ToSlash(filepath.Dir(rel)); dir != "." {
			pkg += "/" + dir
		}
		for _, decl := range file.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if ok && fn.Recv == nil && isFuzzName(fn.Name.Name) && takesTestingF(fn) {
				found[fuzzTarget{pkg, fn.Name.Name}] = filepath.ToSlash(rel) + ":" + strconv.Itoa(fset.Position(fn.Pos()).Line)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return found
}

// isFuzzName: Fuzz, or Fuzz followed by a name that does not start with a
// lower-case letter (go test's rule).
func isFuzzName(name string) bool {
	rest, ok := strings.CutPrefix(name, "Fuzz")
	return ok && (rest == "" || !('a' <= rest[0] && rest[0] <= 'z'))
}

func takesTestingF(fn *ast.FuncDecl) bool {
	params := fn.Type.Params.List
	if len(params) != 1 || len(params[0].Names) > 1 {
		return false
	}
	star, ok := params[0].Type.(*ast.StarExpr)
	if !ok {
		return false
	}
	sel, ok := star.X.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	return ok && pkg.Name == "testing" && sel.Sel.Name == "F"
}

type compileLine struct {
	target fuzzTarget
	name   string
	line   int
}

// compileLines reads the lines of build.sh that build one literal target. A
// line whose arguments are shell variables (the helper passing its own
// arguments on) names no target and is skipped.
func compileLines(t *testing.T, path string) []compileLine {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []compileLine
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		text, _, _ := strings.Cut(sc.Text(), "#")
		fields := strings.Fields(text)
		if len(fields) == 0 || !compileCommands[fields[0]] {
			continue
		}
		if len(fields) != 4 {
			t.Errorf("%s:%d: want %s PACKAGE FUNCTION NAME, got %q", cfliteBuild, n, fields[0], sc.Text())
			continue
		}
		if strings.Contains(strings.Join(fields[1:], " "), "$") {
			continue
		}
		lines = append(lines, compileLine{fuzzTarget{fields[1], fields[2]}, fields[3], n})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return lines
}

// modulePath is the path on go.mod's module line.
func modulePath(t *testing.T, root string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(data)) {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
			return strings.Trim(strings.TrimSpace(rest), `"`)
		}
	}
	t.Fatal("go.mod has no module line")
	return ""
}
