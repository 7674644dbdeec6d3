package repo

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// A reference to a document of docs/, optionally followed by a section
// ("docs/legacy.md §3.1"). The character before it must not belong to a
// longer name.
var docRef = regexp.MustCompile(`(?:^|[^A-Za-z0-9_-])(docs/[A-Za-z0-9_.-]+\.md)(?: (§\d+(?:\.\d+)?))?`)

// The short form code comments use for docs/legacy.md ("legacy §2.6").
var legacyRef = regexp.MustCompile(`\blegacy (§\d+(?:\.\d+)?)`)

// A section number in a heading line of a document.
var sectionNum = regexp.MustCompile(`§\d+(?:\.\d+)?`)

// repoFile is one file of the repository.
type repoFile struct {
	name string // slash-separated, relative to the repository root
	text []byte
}

// TestDocReferencesExist: every docs/<name>.md that a file of the repository
// names is a file of the repository, and every section such a reference
// gives (docs/<name>.md §3.1, or legacy §3.1 for docs/legacy.md) is a
// heading of that document. A clone must be able to read what the project
// points to.
func TestDocReferencesExist(t *testing.T) {
	root := repoRoot(t)
	names := listFiles(t, root)
	tracked := map[string]bool{}
	for _, n := range names {
		tracked[n] = true
	}
	sections := map[string]map[string]bool{} // document → its headings' § numbers
	sectionsOf := func(doc string) map[string]bool {
		if s, ok := sections[doc]; ok {
			return s
		}
		s := map[string]bool{}
		if data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(doc))); err == nil {
			for _, line := range bytes.Split(data, []byte("\n")) {
				if bytes.HasPrefix(line, []byte("#")) {
					for _, m := range sectionNum.FindAll(line, -1) {
						s[string(m)] = true
					}
				}
			}
		}
		sections[doc] = s
		return s
	}

	var bad []string
	for _, f := range textFiles(t, root, names) {
		for i, line := range bytes.Split(f.text, []byte("\n")) {
			at := fmt.Sprintf("%s:%d", f.name, i+1)
			for _, m := range docRef.FindAllSubmatch(line, -1) {
				doc, sec := string(m[1]), string(m[2])
				switch {
				case !tracked[doc]:
					bad = append(bad, fmt.Sprintf("%s: %s does not exist in the repository", at, doc))
				case sec != "" && !sectionsOf(doc)[sec]:
					bad = append(bad, fmt.Sprintf("%s: %s has no section %s", at, doc, sec))
				}
			}
			for _, m := range legacyRef.FindAllSubmatch(line, -1) {
				const doc = "docs/legacy.md"
				if sec := string(m[1]); tracked[doc] && !sectionsOf(doc)[sec] {
					bad = append(bad, fmt.Sprintf("%s: %s has no section %s", at, doc, sec))
				}
			}
		}
	}
	for _, b := range bad {
		t.Error(b)
	}
}

// TestNoMachinePaths: no file of the repository points outside it to
// directories of the machine it was written on. A path is named where the
// directory starts a path: "/srv/work/x", which stored session data holds,
// is not the machine's /work.
func TestNoMachinePaths(t *testing.T) {
	root := repoRoot(t)
	// Spelled in pieces so that this file does not name them itself.
	forbidden := []string{".." + "/shared", "/" + "work/"}
	for _, f := range textFiles(t, root, listFiles(t, root)) {
		for i, line := range bytes.Split(f.text, []byte("\n")) {
			for _, s := range forbidden {
				if startsPath(line, s) {
					t.Errorf("%s:%d: mentions %q, a path outside the repository", f.name, i+1, s)
				}
			}
		}
	}
}

// startsPath reports whether s occurs in line where a path starts: at the
// line's start or after a byte that cannot be part of a file name.
func startsPath(line []byte, s string) bool {
	for i := 0; ; {
		j := bytes.Index(line[i:], []byte(s))
		if j < 0 {
			return false
		}
		at := i + j
		if at == 0 || !nameByte(line[at-1]) {
			return true
		}
		i = at + 1
	}
}

func nameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.'
}

// repoRoot is the nearest directory at or above the package's that holds
// go.mod.
func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod at or above the package directory")
		}
		dir = parent
	}
}

// listFiles returns the repository's files, slash-separated and relative to
// root: git's tracked files when git is available and root is in a work
// tree, else every file below root outside .git.
func listFiles(t *testing.T, root string) []string {
	t.Helper()
	if out, err := exec.Command("git", "-C", root, "ls-files", "-z").Output(); err == nil && len(out) > 0 {
		// Stat git's index so that go test's cache notices when the set
		// of tracked files changes: it records the files a test opens,
		// not what a subprocess reads (and only files inside the module,
		// so in a linked work tree, whose index lies elsewhere, use
		// -count=1 after adding files).
		if idx, err := exec.Command("git", "-C", root, "rev-parse", "--path-format=absolute", "--git-path", "index").Output(); err == nil {
			os.Stat(strings.TrimSpace(string(idx)))
		}
		return strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	}
	var names []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == ".git" {
				return filepath.SkipDir
			}
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		names = append(names, filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(names)
	return names
}

// textFiles reads the files to scan: those not under a testdata directory
// (fuzz seeds and fixtures hold arbitrary bytes) and holding no NUL byte.
// A tracked file missing from the work tree is skipped.
func textFiles(t *testing.T, root string, names []string) []repoFile {
	t.Helper()
	var out []repoFile
	for _, n := range names {
		if slices.Contains(strings.Split(path.Dir(n), "/"), "testdata") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(n)))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			// A directory (a submodule) or a file that cannot be read.
			if st, serr := os.Stat(filepath.Join(root, filepath.FromSlash(n))); serr == nil && st.IsDir() {
				continue
			}
			t.Fatalf("%s: %v", n, err)
		}
		if bytes.IndexByte(data, 0) >= 0 {
			continue
		}
		out = append(out, repoFile{name: n, text: data})
	}
	return out
}
