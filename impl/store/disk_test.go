package store_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sessiondag/checker/driver"
	"sessiondag/checker/gen"
	"sessiondag/impl/flags"
	"sessiondag/impl/node"
	"sessiondag/impl/store"
	"sessiondag/impl/webui"
	"sessiondag/ops"
)

// writeSession builds a generated session under parent/<default id> and
// returns its directory.
func writeSession(t *testing.T, parent string, seed uint64, nops int) string {
	t.Helper()
	dir := filepath.Join(parent, ops.DefaultSession)
	script := gen.New(gen.Options{Legacy: true}).Script(gen.NewSeeded(seed), nops)
	if _, err := driver.Build(script, dir, flags.Off); err != nil {
		t.Fatalf("build: %v", err)
	}
	return dir
}

// copyTree copies a session directory (regular files and directories).
func copyTree(t *testing.T, dst, src string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		to := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(to, data, 0o644)
	})
	if err != nil {
		t.Fatalf("copy: %v", err)
	}
}

// state is what a cold load of a directory shows: every view under flags
// off and all, and the problems.
type state struct {
	views    string
	problems []string
	notes    []string
}

func load(t *testing.T, dir string) state {
	t.Helper()
	s, err := store.Open(dir)
	if err != nil {
		t.Fatalf("open %s: %v", dir, err)
	}
	var st state
	for _, fl := range []flags.Set{flags.Off, flags.All} {
		b, err := json.Marshal(webui.Views(s, fl))
		if err != nil {
			t.Fatalf("marshal: %v", err)
		}
		st.views += string(b) + "\n"
	}
	for _, p := range s.Problems {
		st.problems = append(st.problems, p.Error())
	}
	st.notes = s.Notes
	return st
}

// mutation is one write through the store of a cold-opened session.
type mutation struct {
	name string
	do   func(s *store.Store) error
	tmp  string // the temporary file the write uses, relative to the session
}

var mutations = []mutation{
	{"append", func(s *store.Store) error {
		n := &node.Node{ID: "crash-new", Seq: -1, Role: node.RoleUser, CreatedAt: node.Num("1782999999.0"),
			Input: node.NullV(), Output: node.Str("typed just before the crash"), Reads: node.Arr([]node.Value{}),
			Metadata: &node.Obj{M: []node.Member{{Key: "parent_id", Val: node.Str(s.Head())}}}}
		_, err := s.Append(n)
		return err
	}, ""}, // tmp depends on the next seq; found by listing
	{"update", func(s *store.Store) error {
		return s.Update(s.Nodes()[len(s.Nodes())-1].ID, func(n *node.Node) {
			n.Output = node.Str("rewritten just before the crash")
			n.Metadata.Set("status", node.Str("completed"))
		})
	}, ""},
	{"set-head", func(s *store.Store) error { return s.SetHead(s.Nodes()[0].ID) }, "meta.json.tmp"},
}

// TestCrashSafeWrites stops each kind of write after each step of the atomic
// write, as a crash (the temporary file stays) and as a failed step (it is
// removed), and checks that the directory then loads as exactly the old or
// the new state: before the rename the old one (a leftover temporary file
// reported as a problem, never loaded), after it the new one.
func TestCrashSafeWrites(t *testing.T) {
	root := t.TempDir()
	base := writeSession(t, filepath.Join(root, "base"), 7, 40)
	old := load(t, base)
	if len(old.problems) != 0 {
		t.Fatalf("the written session has problems: %v", old.problems)
	}
	for mi, m := range mutations {
		// The new state: the same write without a crash.
		newDir := filepath.Join(root, fmt.Sprintf("new%d", mi), ops.DefaultSession)
		copyTree(t, newDir, base)
		s, err := store.Open(newDir)
		if err != nil {
			t.Fatal(err)
		}
		if err := m.do(s); err != nil {
			t.Fatalf("%s without a crash: %v", m.name, err)
		}
		want := load(t, newDir)
		if want.views == old.views {
			t.Fatalf("%s changes nothing a load shows: the test cannot tell old from new", m.name)
		}
		for _, step := range []string{"write", "sync", "rename"} {
			for _, crash := range []bool{true, false} {
				name := fmt.Sprintf("%s/%s/crash=%v", m.name, step, crash)
				t.Run(name, func(t *testing.T) {
					dir := filepath.Join(root, strings.ReplaceAll(name, "/", "_"), ops.DefaultSession)
					copyTree(t, dir, base)
					s, err := store.Open(dir)
					if err != nil {
						t.Fatal(err)
					}
					var stepErr error = errors.New("disk full")
					if crash {
						stepErr = &store.Crash{Step: step}
					}
					s.Writes.CrashAfter = func(at string) error {
						if at == step {
							return stepErr
						}
						return nil
					}
					err = m.do(s)
					s.Writes.CrashAfter = nil
					if !errors.Is(err, stepErr) {
						t.Fatalf("the write did not stop with the injected error: %v", err)
					}
					leftovers := tmpFiles(t, dir)
					got := load(t, dir)
					switch {
					case step == "rename":
						if got.views != want.views {
							t.Errorf("crash after the rename: the directory does not load as the new state")
						}
						if len(got.problems) != 0 || len(leftovers) != 0 {
							t.Errorf("crash after the rename: problems %v, leftovers %v", got.problems, leftovers)
						}
					default:
						if got.views != old.views {
							t.Errorf("crash before the rename: the directory does not load as the old state")
						}
						if !crash {
							if len(leftovers) != 0 || len(got.problems) != 0 {
								t.Errorf("a failed step must clean up: leftovers %v, problems %v", leftovers, got.problems)
							}
							return
						}
						if len(leftovers) != 1 {
							t.Fatalf("a crash leaves its temporary file: found %v", leftovers)
						}
						if m.tmp != "" && leftovers[0] != m.tmp {
							t.Errorf("leftover %s, want %s", leftovers[0], m.tmp)
						}
						// Just written, it cannot be told from a write in
						// progress: a note, not a problem.
						if len(got.problems) != 0 || len(got.notes) != 1 || !strings.HasPrefix(got.notes[0], leftovers[0]+": ") ||
							!strings.Contains(got.notes[0], "write in progress") {
							t.Errorf("fresh leftover %s: problems %q, notes %q, want one note of a write in progress", leftovers[0], got.problems, got.notes)
						}
						// Once it is older than any write takes, it is a
						// stopped writer's.
						age(t, filepath.Join(dir, leftovers[0]))
						got = load(t, dir)
						if len(got.problems) != 1 || !strings.HasPrefix(got.problems[0], leftovers[0]+": ") ||
							!strings.Contains(got.problems[0], "temporary file") {
							t.Errorf("leftover %s: problems %q, want one naming it as a temporary file", leftovers[0], got.problems)
						}
						// A crash in the middle of the data: the same.
						p := filepath.Join(dir, leftovers[0])
						data, _ := os.ReadFile(p)
						if err := os.WriteFile(p, data[:len(data)/2], 0o644); err != nil {
							t.Fatal(err)
						}
						age(t, p)
						if half := load(t, dir); half.views != old.views || len(half.problems) != 1 {
							t.Errorf("half-written temporary file: views changed or problems %q", half.problems)
						}
					}
				})
			}
		}
	}
}

// age sets a file's times an hour back: a temporary file a writer left
// that long ago is no write in progress.
func age(t *testing.T, p string) {
	t.Helper()
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(p, old, old); err != nil {
		t.Fatal(err)
	}
}

// tmpFiles lists the *.tmp files of a session directory (relative paths).
func tmpFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".tmp") {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	return out
}

var badIDs = []string{"../x", "a/b", "x\x00y", "..", ".", "", `a\b`, "/abs", strings.Repeat("i", 201)}

// TestAppendRefusesUnsafeIDs: an id that cannot safely be a file name is
// refused before anything is written.
func TestAppendRefusesUnsafeIDs(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "s")
	s := store.New("s")
	s.Dir = dir
	for _, id := range badIDs {
		if store.ValidateID(id) == nil {
			t.Errorf("ValidateID(%q) accepts it", id)
		}
		n := &node.Node{ID: id, Seq: -1, Role: node.RoleUser, Metadata: &node.Obj{}}
		if ok, err := s.Append(n); err == nil || ok {
			t.Errorf("Append(%q) = %v, %v; want an error", id, ok, err)
		}
	}
	if s.Len() != 0 {
		t.Errorf("refused nodes were indexed: %d", s.Len())
	}
	for _, id := range []string{"u1", "6d2c7ddf743f_reply_t_toolu_01Ab", "ROOT", "café", strings.Repeat("i", 200)} {
		if err := store.ValidateID(id); err != nil {
			t.Errorf("ValidateID(%q): %v", id, err)
		}
	}
	var files []string
	filepath.WalkDir(parent, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, p)
		}
		return nil
	})
	if len(files) != 0 {
		t.Errorf("refused appends wrote %v", files)
	}
}

// TestUpdateRefusesLoadedUnsafeID: a node read from a hostile directory may
// carry any id; rewriting it must not turn that id into a path.
func TestUpdateRefusesLoadedUnsafeID(t *testing.T) {
	for _, id := range []string{"../../../escaped", "a/b", "..", "x\x00y"} {
		parent := t.TempDir()
		dir := filepath.Join(parent, "deep", "s")
		if err := os.MkdirAll(filepath.Join(dir, "history"), 0o755); err != nil {
			t.Fatal(err)
		}
		n := &node.Node{ID: id, Seq: 0, Role: node.RoleUser, CreatedAt: node.Num("1.0"), Input: node.NullV(),
			Output: node.Str("x"), Reads: node.Arr([]node.Value{}), Metadata: &node.Obj{}}
		if err := os.WriteFile(filepath.Join(dir, "history", "0000-u-hostile.json"), n.Encode(), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "meta.json"), []byte(`{"head_id": ""}`), 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := store.Open(dir)
		if err != nil || s.Len() != 1 {
			t.Fatalf("%q: open: %v, %d nodes", id, err, s.Len())
		}
		err = s.Update(id, func(n *node.Node) { n.Output = node.Str("y") })
		if err == nil {
			t.Errorf("Update of a node with id %q was written", id)
		}
		var files []string
		filepath.WalkDir(parent, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				files = append(files, p)
			}
			return nil
		})
		if len(files) != 2 {
			t.Errorf("%q: files after the refused update: %v", id, files)
		}
	}
}

// TestLinksStayInside: a link in history/ to a file outside the session,
// and a history/ that is itself a link outside, are refused with a problem
// naming them; a link to a file inside is read.
func TestLinksStayInside(t *testing.T) {
	root := t.TempDir()
	dir := writeSession(t, filepath.Join(root, "a"), 3, 10)
	s0, _ := store.Open(dir)
	nodes := s0.Len()
	outside := filepath.Join(root, "secret.json")
	other := &node.Node{ID: "secret", Seq: 7000, Role: node.RoleUser, CreatedAt: node.Num("1.0"), Input: node.NullV(),
		Output: node.Str("not yours"), Reads: node.Arr([]node.Value{}), Metadata: &node.Obj{}}
	if err := os.WriteFile(outside, other.Encode(), 0o644); err != nil {
		t.Fatal(err)
	}
	evil := filepath.Join(dir, "history", "7000-u-secret.json")
	if err := os.Symlink(outside, evil); err != nil {
		t.Fatal(err)
	}
	s, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if s.Len() != nodes {
		t.Errorf("%d nodes, want %d: the link outside was followed", s.Len(), nodes)
	}
	if _, ok := s.Get("secret"); ok {
		t.Errorf("the node outside the session was loaded")
	}
	if len(s.Problems) != 1 || s.Problems[0].File != "history/7000-u-secret.json" ||
		!strings.Contains(s.Problems[0].Error(), "outside the session directory") {
		t.Errorf("problems %v, want one naming history/7000-u-secret.json as a link outside", s.Problems)
	}

	// A link to another node file inside is not read as a second copy of
	// that node: it is refused, naming the file it leads to.
	os.Remove(evil)
	roots, _ := filepath.Glob(filepath.Join(dir, "history", "*-u-ROOT.json"))
	if len(roots) != 1 {
		t.Fatalf("the generated session has %d ROOT files, want 1", len(roots))
	}
	if err := os.Symlink(filepath.Base(roots[0]), filepath.Join(dir, "history", "9999-u-alias.json")); err != nil {
		t.Fatal(err)
	}
	if s, err = store.Open(dir); err != nil || s.Len() != nodes || len(s.Problems) != 1 ||
		s.Problems[0].File != "history/9999-u-alias.json" || !strings.Contains(s.Problems[0].Error(), "same file as history/"+filepath.Base(roots[0])) {
		t.Errorf("link inside: %v, %d nodes, problems %v", err, s.Len(), s.Problems)
	}

	// history/ itself a link out of the session.
	dir2 := filepath.Join(root, "b", "s")
	os.MkdirAll(dir2, 0o755)
	os.WriteFile(filepath.Join(dir2, "meta.json"), []byte(`{"head_id": ""}`), 0o644)
	if err := os.Symlink(filepath.Join(dir, "history"), filepath.Join(dir2, "history")); err != nil {
		t.Fatal(err)
	}
	s, err = store.Open(dir2)
	if err != nil {
		t.Fatal(err)
	}
	if s.Len() != 0 || len(s.Problems) != 1 || s.Problems[0].File != "history/" ||
		!strings.Contains(s.Problems[0].Error(), "outside the session directory") {
		t.Errorf("history/ linked outside: %d nodes, problems %v", s.Len(), s.Problems)
	}
}

// TestMaxFileSize: a file over the limit is refused with an error naming it
// and the limit, without being read into memory.
func TestMaxFileSize(t *testing.T) {
	dir := writeSession(t, t.TempDir(), 5, 12)
	s0, _ := store.Open(dir)
	old := store.MaxFileSize
	defer func() { store.MaxFileSize = old }()
	// The limit just above every file the writers wrote, so only the big
	// one is over it.
	entries, err := os.ReadDir(filepath.Join(dir, "history"))
	if err != nil {
		t.Fatal(err)
	}
	var largest int64
	for _, e := range entries {
		if fi, err := e.Info(); err == nil {
			largest = max(largest, fi.Size())
		}
	}
	store.MaxFileSize = largest + 1
	limit := fmt.Sprintf("exceeds the limit of %d", store.MaxFileSize)
	big := strings.Repeat("x", int(largest)+100)
	n := &node.Node{ID: "big", Seq: 500, Role: node.RoleCode, CreatedAt: node.Num("1.0"), Input: node.NullV(),
		Output: node.Str(big), Reads: node.Arr([]node.Value{}), Metadata: &node.Obj{}}
	if err := os.WriteFile(filepath.Join(dir, "history", "0500-c-big.json"), n.Encode(), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	var named bool
	for _, p := range s.Problems {
		if p.File == "history/0500-c-big.json" {
			named = strings.Contains(p.Error(), limit)
		}
	}
	if !named {
		t.Errorf("problems %v: want history/0500-c-big.json refused: %s", s.Problems, limit)
	}
	if _, ok := s.Get("big"); ok {
		t.Errorf("the file over the limit was loaded")
	}
	if s.Len()+len(s.Problems) != s0.Len()+1 {
		t.Errorf("%d nodes + %d problems for %d files: %v", s.Len(), len(s.Problems), s0.Len()+1, s.Problems)
	}
	// meta.json over the limit too.
	store.MaxFileSize = 10
	s, err = store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range s.Problems {
		if p.File == "meta.json" && strings.Contains(p.Error(), "exceeds the limit of 10") {
			return
		}
	}
	t.Errorf("meta.json over the limit: problems %v", s.Problems)
}
