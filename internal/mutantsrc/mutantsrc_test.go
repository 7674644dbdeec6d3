package mutantsrc

import (
	"go/token"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestConstants(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "names.go")
	src := "package m\n\nconst (\n\tA = \"a-name\"\n\tB, C = \"b\", `c`\n\tN = 3\n)\n\nvar D = \"d\"\n"
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := Constants(token.NewFileSet(), []string{file})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"A": "a-name", "B": "b", "C": "c", "D": "d"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("constants (-want +got):\n%s", d)
	}
}

func TestConstantsUnparsable(t *testing.T) {
	file := filepath.Join(t.TempDir(), "names.go")
	if err := os.WriteFile(file, []byte("package m\nconst A = \n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Constants(token.NewFileSet(), []string{file}); err == nil {
		t.Error("a file that does not parse gave no error")
	}
}
