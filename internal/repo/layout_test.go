package repo

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The top level shows the architecture: the system under test (impl), the
// reference models (model), the checker's wing (checker), the property
// suite (props), the product (audit), the measurements (bench, its gate
// included), the command (cmd), and the repository's own helpers (internal,
// scripts). A new folder of Go code, or one of the checker's packages moved
// out of its wing, fails here until the README's layout names it.
func TestLayout(t *testing.T) {
	root := repoRoot(t)
	want := []string{"audit", "bench", "checker", "cmd", "impl", "internal", "model", "ops", "props", "protocol", "scripts"}
	require(t, want, goDirs(t, root, ""), "top-level folders holding Go code")
	require(t, []string{"campaign", "driver", "exhaust", "gen", "harness", "hunt", "robust"},
		goDirs(t, root, "checker"), "packages of the checker's wing")
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	layout := section(string(readme), "## Layout")
	for _, d := range want {
		if !strings.Contains(layout, "\n"+d+"/") {
			t.Errorf("README.md's layout does not name %s/", d)
		}
	}
	for _, d := range goDirs(t, root, "checker") {
		if !strings.Contains(layout, "  "+d+"/") {
			t.Errorf("README.md's layout does not name checker/%s/", d)
		}
	}
}

// No arrow runs up: the system under test reaches nothing of the checker
// side, nor any module but the standard library; the op vocabulary
// nothing of the project, the models only the vocabulary, the repository's
// helpers only each other, the room of the implementation under test
// nothing that judges; the campaign engine reaches no driver of it.
func TestImportBoundaries(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	root := repoRoot(t)
	for _, pkg := range deps(t, root, "./impl/...") {
		if strings.Contains(pkg, ".") || strings.HasPrefix(pkg, "sessiondag/") && !strings.HasPrefix(pkg, "sessiondag/impl/") {
			t.Errorf("impl/ reaches %s", pkg)
		}
	}
	drivers := []string{"sessiondag/props", "sessiondag/checker/hunt", "sessiondag/checker/exhaust", "sessiondag/audit", "sessiondag/cmd/"}
	for _, pkg := range deps(t, root, "./checker/campaign") {
		for _, d := range drivers {
			if strings.HasPrefix(pkg, d) {
				t.Errorf("checker/campaign reaches the driver %s", pkg)
			}
		}
	}
	for _, pkg := range deps(t, root, "./model") {
		if strings.HasPrefix(pkg, "sessiondag/") && pkg != "sessiondag/model" && pkg != "sessiondag/ops" {
			t.Errorf("model/ reaches %s: it reads the op vocabulary and nothing else of the project", pkg)
		}
	}
	for _, pkg := range deps(t, root, "./ops") {
		if strings.HasPrefix(pkg, "sessiondag/") && pkg != "sessiondag/ops" {
			t.Errorf("ops/ reaches %s: the vocabulary is below the models and the checker", pkg)
		}
	}
	for _, pkg := range deps(t, root, "./internal/...") {
		if strings.HasPrefix(pkg, "sessiondag/") && !strings.HasPrefix(pkg, "sessiondag/internal/") {
			t.Errorf("internal/ reaches %s: the repository's helpers import nothing of its wings", pkg)
		}
	}
	// The room of the implementation under test is below the judge: it
	// reaches the implementation, the vocabulary, the helpers and the
	// driver that writes ops through impl/, nothing that judges.
	below := []string{"sessiondag/protocol", "sessiondag/impl/", "sessiondag/ops", "sessiondag/internal/", "sessiondag/checker/driver"}
	for _, pkg := range deps(t, root, "./protocol/...") {
		if strings.HasPrefix(pkg, "sessiondag/") && !slices.ContainsFunc(below, func(b string) bool { return strings.HasPrefix(pkg, b) }) {
			t.Errorf("protocol/ reaches %s, which judges: the implementation under test is below the judge", pkg)
		}
	}
}

func deps(t *testing.T, root, pattern string) []string {
	t.Helper()
	cmd := exec.Command("go", "list", "-deps", pattern)
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps %s: %v", pattern, err)
	}
	return strings.Fields(string(out))
}

// goDirs lists the folders directly under root/dir that hold Go files at
// any depth, sorted.
func goDirs(t *testing.T, root, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(root, dir))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") || e.Name() == "testdata" {
			continue
		}
		found := false
		_ = filepath.WalkDir(filepath.Join(root, dir, e.Name()), func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".go") {
				found = true
				return filepath.SkipAll
			}
			return nil
		})
		if found {
			out = append(out, e.Name())
		}
	}
	slices.Sort(out)
	return out
}

func require(t *testing.T, want, got []string, what string) {
	t.Helper()
	if !slices.Equal(want, got) {
		t.Errorf("%s: %v, want %v", what, got, want)
	}
}

// section is the text of a markdown section, from its heading to the next
// heading of the same level.
func section(doc, heading string) string {
	i := strings.Index(doc, "\n"+heading+"\n")
	if i < 0 {
		return ""
	}
	rest := doc[i+len(heading)+2:]
	if j := strings.Index(rest, "\n## "); j >= 0 {
		rest = rest[:j]
	}
	return rest
}
