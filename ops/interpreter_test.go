package ops_test

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"sessiondag/ops"
)

// recorder is an Interpreter that notes which method an op reached.
type recorder struct{ got string }

func (r *recorder) note(op ops.Op) error { r.got = reflect.TypeOf(op).Name(); return nil }

func (r *recorder) Session(o ops.Session) error                 { return r.note(o) }
func (r *recorder) UserWeb(o ops.UserWeb) error                 { return r.note(o) }
func (r *recorder) UserDispatch(o ops.UserDispatch) error       { return r.note(o) }
func (r *recorder) ForkRoot(o ops.ForkRoot) error               { return r.note(o) }
func (r *recorder) Reply(o ops.Reply) error                     { return r.note(o) }
func (r *recorder) Think(o ops.Think) error                     { return r.note(o) }
func (r *recorder) Say(o ops.Say) error                         { return r.note(o) }
func (r *recorder) Tool(o ops.Tool) error                       { return r.note(o) }
func (r *recorder) Task(o ops.Task) error                       { return r.note(o) }
func (r *recorder) Done(o ops.Done) error                       { return r.note(o) }
func (r *recorder) Cancel(o ops.Cancel) error                   { return r.note(o) }
func (r *recorder) ErrorFolded(o ops.ErrorFolded) error         { return r.note(o) }
func (r *recorder) ErrorStandalone(o ops.ErrorStandalone) error { return r.note(o) }
func (r *recorder) Crash(o ops.Crash) error                     { return r.note(o) }
func (r *recorder) Fn(o ops.Fn) error                           { return r.note(o) }
func (r *recorder) Manual(o ops.Manual) error                   { return r.note(o) }
func (r *recorder) Exec(o ops.Exec) error                       { return r.note(o) }
func (r *recorder) Ask(o ops.Ask) error                         { return r.note(o) }
func (r *recorder) End(o ops.End) error                         { return r.note(o) }
func (r *recorder) Retry(o ops.Retry) error                     { return r.note(o) }
func (r *recorder) Edit(o ops.Edit) error                       { return r.note(o) }
func (r *recorder) Checkout(o ops.Checkout) error               { return r.note(o) }
func (r *recorder) Reload(o ops.Reload) error                   { return r.note(o) }
func (r *recorder) Spawn(o ops.Spawn) error                     { return r.note(o) }
func (r *recorder) Script(o ops.Script) error                   { return r.note(o) }
func (r *recorder) LegacyUser(o ops.LegacyUser) error           { return r.note(o) }
func (r *recorder) LegacyReply(o ops.LegacyReply) error         { return r.note(o) }
func (r *recorder) Orphan(o ops.Orphan) error                   { return r.note(o) }
func (r *recorder) Message(o ops.Message) error                 { return r.note(o) }
func (r *recorder) Rewind(o ops.Rewind) error                   { return r.note(o) }
func (r *recorder) Drop(o ops.Drop) error                       { return r.note(o) }
func (r *recorder) Flag(o ops.Flag) error                       { return r.note(o) }
func (r *recorder) Writer(o ops.Writer) error                   { return r.note(o) }
func (r *recorder) Clock(o ops.Clock) error                     { return r.note(o) }
func (r *recorder) Merge(o ops.Merge) error                     { return r.note(o) }
func (r *recorder) Run(o ops.Run) error                         { return r.note(o) }
func (r *recorder) Compact(o ops.Compact) error                 { return r.note(o) }

// Every op reaches the Interpreter method named after its type, and every
// kind has its own first word.
func TestApplyReachesItsOwnMethod(t *testing.T) {
	seen := map[string]bool{}
	for _, op := range ops.All {
		var r recorder
		if err := op.Apply(&r); err != nil {
			t.Fatal(err)
		}
		if want := reflect.TypeOf(op).Name(); r.got != want {
			t.Errorf("%T.Apply calls the %s method", op, r.got)
		}
		if seen[op.Kind()] {
			t.Errorf("kind %q used twice", op.Kind())
		}
		seen[op.Kind()] = true
	}
}

// Every op type declared in the package is listed in ops.All (so parsing,
// printing and the generator's completeness tests see it).
func TestAllListsEveryKind(t *testing.T) {
	var listed []string
	for _, op := range ops.All {
		listed = append(listed, reflect.TypeOf(op).Name())
	}
	for _, name := range opTypesDeclared(t) {
		if !slices.Contains(listed, name) {
			t.Errorf("op type %s is not in ops.All", name)
		}
	}
}

// opTypesDeclared lists the types of package ops that have a sealed method.
func opTypesDeclared(t *testing.T) []string {
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Name.Name != "sealed" || fn.Recv == nil {
				continue
			}
			if id, ok := fn.Recv.List[0].Type.(*ast.Ident); ok {
				out = append(out, id.Name)
			}
		}
	}
	slices.Sort(out)
	return out
}

// TestNewKindNeedsEveryInterpreter adds a dummy op kind to a copy of the
// package (through the go command's -overlay, leaving the files alone) and
// checks that the module then fails to build, naming every interpreter that
// does not handle it: the implementation's driver, both reference models and
// the generator's shadow. This is what makes an op kind one unit: it exists
// only once every interpreter says what it means.
func TestNewKindNeedsEveryInterpreter(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the module")
	}
	root := moduleRoot(t)
	opGo, err := os.ReadFile(filepath.Join(root, "ops", "op.go"))
	if err != nil {
		t.Fatal(err)
	}
	patched := strings.Replace(string(opGo), "\tClock(Clock) error\n", "\tClock(Clock) error\n\tDummy(Dummy) error\n", 1)
	if patched == string(opGo) {
		t.Fatal("could not find the end of the Interpreter interface in ops/op.go")
	}
	dummy := `package ops

type Dummy struct{}

func (Dummy) Kind() string                 { return "dummy" }
func (o Dummy) Apply(in Interpreter) error { return in.Dummy(o) }
func (Dummy) Span() Span                   { return Flat }
func (Dummy) sealed()                      {}
`
	dir := t.TempDir()
	files := map[string]string{filepath.Join(root, "ops", "op.go"): "op.go", filepath.Join(root, "ops", "dummy.go"): "dummy.go"}
	replace := map[string]string{}
	for real, name := range files {
		content := patched
		if name == "dummy.go" {
			content = dummy
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		replace[real] = p
	}
	overlay, _ := json.Marshal(map[string]any{"Replace": replace})
	ov := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(ov, overlay, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "build", "-overlay", ov, "./checker/driver", "./model", "./checker/gen")
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("the module builds with an op kind no interpreter handles")
	}
	t.Logf("go build with a dummy op kind:\n%s", out)
	for _, want := range []string{"driver", "legacyOps", "targetOps", "shadow"} {
		if !strings.Contains(string(out), want) || !strings.Contains(string(out), "missing method Dummy") {
			t.Errorf("the build error does not name %s as missing the new kind's method:\n%s", want, out)
		}
	}
}

func moduleRoot(t *testing.T) string {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}").Output()
	if err != nil {
		t.Fatalf("go list -m: %v", err)
	}
	return strings.TrimSpace(string(out))
}
