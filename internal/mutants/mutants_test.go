package mutants

import (
	"go/format"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestEveryMutantApplies: each mutant's hunks are in the code once each,
// and the files they give are Go that gofmt leaves as it is — a mutant
// whose place in the code moved fails here, not as a survivor of `make
// mutants`. Each edits a file of its side.
func TestEveryMutantApplies(t *testing.T) {
	all, err := All()
	require.NoError(t, err)
	require.NotEmpty(t, all)
	for _, m := range all {
		files, err := Apply("../..", m)
		if err != nil {
			t.Error(err)
			continue
		}
		for _, f := range m.Files() {
			if strings.HasSuffix(f, "_test.go") {
				t.Errorf("mutant %s edits a test (%s): a mutant breaks the code the tests judge", m.Name, f)
			}
			if (m.Side == Impl) != strings.HasPrefix(f, "impl/") {
				t.Errorf("mutant %s of the %s side edits %s", m.Name, m.Side, f)
			}
			src := files[f]
			formatted, err := format.Source([]byte(src))
			switch {
			case err != nil:
				t.Errorf("mutant %s: %s does not parse: %v", m.Name, f, err)
			case string(formatted) != src:
				t.Errorf("mutant %s: %s is not as gofmt writes it", m.Name, f)
			}
		}
	}
}

func TestParse(t *testing.T) {
	text := "# a comment\n\n=== one\nbug: it breaks\n--- a/b.go\n@@\n \tkeep\n-\told\n+\tnew\n \n@@\n+\tadded\n \tanchor\n\n=== two\nbug: another\n--- c.go\n@@\n-x\n+y\n--- d.go\n@@\n-z\n"
	got, err := Parse("f", Judge, text)
	require.NoError(t, err)
	require.Equal(t, []Mutant{
		{Name: "one", Side: Judge, Bug: "it breaks", Edits: []Edit{
			{File: "a/b.go", Old: "\tkeep\n\told\n\n", New: "\tkeep\n\tnew\n\n", Line: 6},
			{File: "a/b.go", Old: "\tanchor\n", New: "\tadded\n\tanchor\n", Line: 11},
		}},
		{Name: "two", Side: Judge, Bug: "another", Edits: []Edit{
			{File: "c.go", Old: "x\n", New: "y\n", Line: 18},
			{File: "d.go", Old: "z\n", New: "", Line: 22},
		}},
	}, got)
	require.Equal(t, []string{"a/b.go"}, got[0].Files())
	require.Equal(t, []string{"c.go", "d.go"}, got[1].Files())
}

func TestParseRefuses(t *testing.T) {
	for name, text := range map[string]string{
		"no bug":           "=== a\n--- a.go\n@@\n-x\n+y\n",
		"no edit":          "=== a\nbug: b\n",
		"no change":        "=== a\nbug: b\n--- a.go\n@@\n x\n",
		"nothing to find":  "=== a\nbug: b\n--- a.go\n@@\n+y\n",
		"hunk before file": "=== a\nbug: b\n@@\n-x\n",
		"not go":           "=== a\nbug: b\n--- a.txt\n@@\n-x\n+y\n",
		"outside":          "=== a\nbug: b\n--- ../a.go\n@@\n-x\n+y\n",
		"bad line":         "=== a\nbug: b\n--- a.go\n@@\n*x\n",
		"line after hunk":  "=== a\nbug: b\n--- a.go\n@@\n-x\n+y\n\n-z\n",
		"two words":        "=== a b\nbug: b\n--- a.go\n@@\n-x\n+y\n",
		"before mutant":    "bug: b\n",
	} {
		_, err := Parse("f", Impl, text)
		require.Error(t, err, name)
		require.Contains(t, err.Error(), "f:", name)
	}
}

// TestApplyRefuses: a hunk not in the file, or in it twice, is an error
// naming the mutant, the file and the hunk's line.
func TestApplyRefuses(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(root, "a.go"), []byte("x\nx\ny\n"), 0o644))
	_, err := Apply(root, Mutant{Name: "m", Edits: []Edit{{File: "a.go", Old: "z\n", New: "w\n", Line: 7}}})
	require.ErrorContains(t, err, "mutant m: a.go: the hunk at line 7 of its registry is not in the file")
	_, err = Apply(root, Mutant{Name: "m", Edits: []Edit{{File: "a.go", Old: "x\n", New: "w\n", Line: 3}}})
	require.ErrorContains(t, err, "in the file 2 times")
	got, err := Apply(root, Mutant{Name: "m", Edits: []Edit{{File: "a.go", Old: "y\n", New: "w\n"}, {File: "a.go", Old: "x\nx\n", New: "x\n"}}})
	require.NoError(t, err)
	require.Equal(t, map[string]string{"a.go": "x\nw\n"}, got)
}

// TestOverlay: the overlay file maps each edited file of the repository to
// its mutated copy.
func TestOverlay(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(root, "p"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(root, "p", "a.go"), []byte("package p\n\nconst X = 1\n"), 0o644))
	m := Mutant{Name: "m", Edits: []Edit{{File: "p/a.go", Old: "X = 1", New: "X = 2"}}}
	ov, err := Overlay(root, m, t.TempDir())
	require.NoError(t, err)
	b, err := os.ReadFile(ov)
	require.NoError(t, err)
	abs, _ := filepath.Abs(filepath.Join(root, "p", "a.go"))
	require.Contains(t, string(b), abs)
	to := filepath.Join(filepath.Dir(ov), "p", "a.go")
	got, err := os.ReadFile(to)
	require.NoError(t, err)
	require.Equal(t, "package p\n\nconst X = 2\n", string(got))
}
