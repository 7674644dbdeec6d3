package robust

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sessiondag/audit"
	"sessiondag/checker/gen"
	"sessiondag/impl/adapter"
	"sessiondag/impl/flags"
	"sessiondag/impl/history"
	"sessiondag/impl/node"
	"sessiondag/impl/store"
	"sessiondag/impl/webui"
	"sessiondag/model"
)

// mk is a node with the given edges; kv are metadata key/value pairs.
func mk(seq int64, id, role, calledBy string, output string, kv ...string) *node.Node {
	m := &node.Obj{}
	for i := 0; i+1 < len(kv); i += 2 {
		m.Set(kv[i], node.Str(kv[i+1]))
	}
	return &node.Node{ID: id, Seq: seq, Role: role, CalledBy: calledBy, CreatedAt: node.Num(fmt.Sprintf("%d.5", 1782000000+seq)),
		Input: node.NullV(), Output: node.Str(output), Reads: node.Arr([]node.Value{}), Metadata: m}
}

// writeDir writes nodes (under names derived from them, or given in names)
// and a meta.json with head into parent/<default id>.
func writeDir(t *testing.T, head string, nodes ...*node.Node) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "local_0000000000")
	if err := os.MkdirAll(filepath.Join(dir, "history"), 0o755); err != nil {
		t.Fatal(err)
	}
	for i, n := range nodes {
		name := store.FileName(n)
		if _, err := os.Stat(filepath.Join(dir, "history", name)); err == nil {
			name = fmt.Sprintf("%04d-%s-%s_%d.json", n.Seq, n.Role[:1], n.ID, i) // after the first in name order
		}
		if err := os.WriteFile(filepath.Join(dir, "history", name), n.Encode(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	meta := fmt.Sprintf(`{"id": "local_0000000000", "head_id": %q}`, head)
	if err := os.WriteFile(filepath.Join(dir, "meta.json"), []byte(meta), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// openClean opens dir, requiring no problems.
func openClean(t *testing.T, dir string) *store.Store {
	t.Helper()
	s, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Problems) != 0 {
		t.Fatalf("problems: %v", s.Problems)
	}
	return s
}

// sameAsModel compares the cold load's views (flags off) with the model's.
func sameAsModel(t *testing.T, dir string, s *store.Store, ignore ...string) {
	t.Helper()
	ms, err := model.ReadSessionDir(dir)
	if err != nil {
		t.Fatalf("model: %v", err)
	}
	if d := viewDiff(model.LegacyView(ms), webui.Views(s, flags.Off), ignore...); d != "" {
		t.Errorf("differs from the model at %s", d)
	}
}

// TestDuplicateIDs (legacy §6 #23): two files with one id are both kept, in
// seq order (file-name order on equal seqs); every lookup by id takes the
// later one.
func TestDuplicateIDs(t *testing.T) {
	for _, sameSeq := range []bool{false, true} {
		t.Run(fmt.Sprintf("same seq %v", sameSeq), func(t *testing.T) {
			first := mk(1, "u1", node.RoleUser, "", "first")
			second := mk(3, "u1", node.RoleUser, "", "second")
			if sameSeq {
				second.Seq = 1
			}
			reply := mk(2, "a1", node.RoleLLM, "u1", "reply", "parent_id", "u1")
			dir := writeDir(t, "a1", first, reply, second)
			s := openClean(t, dir)
			if s.Len() != 3 {
				t.Fatalf("%d nodes, want both copies kept", s.Len())
			}
			var outs []string
			for _, n := range s.Nodes() {
				if n.ID == "u1" {
					outs = append(outs, n.Output.S)
				}
			}
			if strings.Join(outs, ",") != "first,second" {
				t.Errorf("copies in order %v, want first,second", outs)
			}
			if n, _ := s.Get("u1"); n.Output.S != "second" {
				t.Errorf("lookup by id gives %q, want the later copy", n.Output.S)
			}
			for _, fl := range []flags.Set{flags.Off, flags.All} {
				msgs := webui.Load(s, fl).Messages
				if got := strings.Join(adapter.IDs(msgs), ","); strings.Count(got, "u1") != 2 {
					t.Errorf("flags %s: messages %s, want both copies", fl, got)
				}
			}
			sameAsModel(t, dir, s)
		})
	}
}

// TestCyclesTerminate (legacy §6 #25): cycles in either pointer, self loops
// included, end every walk; the execution tree of a called_by cycle is cut.
func TestCyclesTerminate(t *testing.T) {
	cases := map[string][]*node.Node{
		"parent ring": {
			mk(1, "u1", node.RoleUser, "ROOT", "x", "parent_id", "a2"),
			mk(2, "a1", node.RoleLLM, "u1", "y", "parent_id", "u1"),
			mk(3, "a2", node.RoleLLM, "a1", "z", "parent_id", "a1"),
		},
		"parent self loop": {
			mk(1, "u1", node.RoleUser, "", "x", "parent_id", "u1"),
			mk(2, "a1", node.RoleLLM, "u1", "y", "parent_id", "a1"),
		},
		"caller ring": {
			mk(1, "F", node.RoleCode, "G", "f", "status", "running"),
			mk(2, "G", node.RoleCode, "H", "g"),
			mk(3, "H", node.RoleCode, "F", "h"),
			mk(4, "a1", node.RoleLLM, "F", "y"),
		},
		"caller self loop": {
			mk(1, "F", node.RoleCode, "F", "f"),
			mk(2, "x", node.RoleLLM, "x", "y", "parent_id", "F"),
		},
		"both": {
			mk(1, "u1", node.RoleUser, "a1", "x", "parent_id", "a1"),
			mk(2, "a1", node.RoleLLM, "u1", "y", "parent_id", "u1"),
			mk(3, "t1", node.RoleCode, "t1", "z", "parent_id", "t1"),
		},
	}
	for name, nodes := range cases {
		t.Run(name, func(t *testing.T) {
			for _, n := range nodes { // the head on each node in turn
				dir := writeDir(t, n.ID, nodes...)
				s := openClean(t, dir)
				readAll(t, dir)
				within(t, 5*time.Second, "walks", func() {
					history.Branch(s, n.ID)
					history.Linear(webui.Messages(s), n.ID, history.ParentEdge)
					webui.NewTreeIndex(s).Tree(n.ID)
				})
				sameAsModel(t, dir, s)
			}
		})
	}
}

// TestDeepestLeafOnACycle: deepest_leaf meets a parent_id cycle below a
// sibling; both readers give back the sibling it started from (the
// original's rule), so next_sibling_id agrees.
func TestDeepestLeafOnACycle(t *testing.T) {
	// u1 and u2 are siblings (both parent_id ROOT); u2's subtree is a ring
	// a → b → a, so deepest_leaf(u2) meets a cycle.
	dir := writeDir(t, "u1",
		mk(1, "u1", node.RoleUser, "", "one", "parent_id", "ROOT"),
		mk(2, "u2", node.RoleUser, "", "two", "parent_id", "ROOT"),
		mk(3, "a", node.RoleLLM, "", "a", "parent_id", "b"),
		mk(4, "b", node.RoleLLM, "", "b", "parent_id", "a"),
		mk(5, "c", node.RoleLLM, "", "c", "parent_id", "u2"),
		mk(6, "a", node.RoleLLM, "", "a again", "parent_id", "c"),
	)
	s := openClean(t, dir)
	if got := webui.Views(s, flags.Off).Chain[0].Get("next_sibling_id"); got.Str() != "u2" {
		t.Errorf("next_sibling_id of u1: %s, want \"u2\"", node.Dumps(got))
	}
	sameAsModel(t, dir, s)
}

// TestUnknownHead: a stored head that no file has loads (the chain falls
// back or is empty), under every config, as the model reads it; the load
// says so (a problem of meta.json, Unsettled), after reading the directory
// again in case a writer was about to rename the node in.
func TestUnknownHead(t *testing.T) {
	dir := writeDir(t, "nowhere",
		mk(1, "u1", node.RoleUser, "ROOT", "x"),
		mk(2, "a1", node.RoleLLM, "u1", "y", "parent_id", "u1"))
	s, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Problems) != 1 || s.Problems[0].File != "meta.json" || !strings.Contains(s.Problems[0].Error(), PhraseUnknownHead) || !s.Unsettled() {
		t.Fatalf("problems %v (unsettled %v): want meta.json's head naming no node", s.Problems, s.Unsettled())
	}
	readAll(t, dir)
	for _, fl := range flags.Rollout {
		l := webui.Load(s, fl)
		if l.StoredHead != "nowhere" {
			t.Errorf("flags %s: stored head %q", fl, l.StoredHead)
		}
	}
	sameAsModel(t, dir, s)
}

// TestMissingMeta: without meta.json — a session whose first turn has not
// ended, as the original leaves it — the nodes load, the head is empty (the
// load then shows from the last message), nothing is reported, and the
// model reads the folder the same way.
func TestMissingMeta(t *testing.T) {
	dir := writeDir(t, "a1",
		mk(1, "u1", node.RoleUser, "ROOT", "x"),
		mk(2, "a1", node.RoleLLM, "u1", "y", "parent_id", "u1"))
	os.Remove(filepath.Join(dir, "meta.json"))
	s := openClean(t, dir)
	if s.Len() != 2 || s.Head() != "" {
		t.Errorf("%d nodes, head %q; want 2 and no head", s.Len(), s.Head())
	}
	if l := webui.Load(s, flags.Off); l.HeadID != webui.HeadAt("a1") || len(l.Chain) != 2 {
		t.Errorf("head %q, chain %v: want the last message and its chain", l.HeadID, adapter.IDs(l.Chain))
	}
	sameAsModel(t, dir, s)
}

// TestMissingHistory: without history/ the session has no nodes and the
// head of meta.json; without both it is not a session (an error naming the
// directory).
func TestMissingHistory(t *testing.T) {
	dir := writeDir(t, "a1", mk(1, "u1", node.RoleUser, "ROOT", "x"))
	os.RemoveAll(filepath.Join(dir, "history"))
	s, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if s.Len() != 0 || s.Head() != "a1" {
		t.Errorf("%d nodes, head %q", s.Len(), s.Head())
	}
	if len(s.Problems) != 1 || !strings.Contains(s.Problems[0].Error(), PhraseUnknownHead) {
		t.Errorf("problems %v: want the head naming no node", s.Problems)
	}
	readAll(t, dir)
	sameAsModel(t, dir, s)

	os.Remove(filepath.Join(dir, "meta.json"))
	if _, err := store.Open(dir); err == nil || !strings.Contains(err.Error(), dir) || !strings.Contains(err.Error(), "not a session directory") {
		t.Errorf("neither meta.json nor history/: %v", err)
	}
	if _, err := model.ReadSessionDir(dir); err == nil {
		t.Errorf("the model reads a folder with none of the original's files")
	}
	// context/commits/ alone: a session whose commits were written before
	// any node.
	if err := os.MkdirAll(filepath.Join(dir, "context", "commits"), 0o755); err != nil {
		t.Fatal(err)
	}
	s = openClean(t, dir)
	if s.Len() != 0 || s.Head() != "" {
		t.Errorf("context/ only: %d nodes, head %q", s.Len(), s.Head())
	}
	sameAsModel(t, dir, s)
	if _, err := store.Open(filepath.Join(dir, "no-such")); err == nil {
		t.Errorf("a missing directory opens")
	}
}

// TestProblemsNameFileAndField: every problem names the file and, for a
// field of the wrong type, the field.
func TestProblemsNameFileAndField(t *testing.T) {
	cases := []struct{ field, value, says string }{
		{"seq", `"3"`, "not an integer"},
		{"seq", `3.5`, "not an integer"},
		{"seq", `123456789012345678901234567890`, "out of range"},
		{"id", `7`, "not a string"},
		{"id", `""`, "missing or empty"},
		{"created_at", `"noon"`, "not a number"},
		{"role", `["user"]`, "not a string"},
		{"name", `{}`, "not a string"},
		{"called_by", `false`, "not a string"},
		{"metadata", `[]`, "not an object"},
	}
	for _, c := range cases {
		n := mk(3, "x", node.RoleCode, "", "out")
		o, _ := node.Parse(n.Encode())
		v, err := node.Parse([]byte(c.value))
		if err != nil {
			t.Fatal(err)
		}
		o.O.Set(c.field, v)
		dir := writeDir(t, "")
		if err := os.WriteFile(filepath.Join(dir, "history", "0003-c-x.json"), node.AppendIndent(nil, o, ""), 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := store.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Problems) != 1 {
			t.Fatalf("%s = %s: problems %v", c.field, c.value, s.Problems)
		}
		msg := s.Problems[0].Error()
		for _, want := range []string{"history/0003-c-x.json", fmt.Sprintf("field %q", c.field), c.says} {
			if !strings.Contains(msg, want) {
				t.Errorf("%s = %s: %q does not say %q", c.field, c.value, msg, want)
			}
		}
	}
	// Syntax errors give the byte offset; meta.json problems name it and
	// its field.
	dir := writeDir(t, "")
	os.WriteFile(filepath.Join(dir, "history", "0001-u-y.json"), []byte(`{"id": "y", "seq": 1,}`), 0o644)
	os.WriteFile(filepath.Join(dir, "meta.json"), []byte(`{"head_id": ["y"]}`), 0o644)
	s, _ := store.Open(dir)
	var all []string
	for _, p := range s.Problems {
		all = append(all, p.Error())
	}
	got := strings.Join(all, "\n")
	for _, want := range []string{"history/0001-u-y.json: invalid JSON at byte 21", `meta.json: field "head_id": not a string`} {
		if !strings.Contains(got, want) {
			t.Errorf("problems %q do not say %q", got, want)
		}
	}
}

// TestDeepChain: a 100k-deep conversation chain (and a 20k-deep call chain
// under one function run) loads under flags off and all: every walk is a
// loop, not a recursion that could exhaust the stack or take quadratic time.
func TestDeepChain(t *testing.T) {
	const depth = 100_000
	s := store.New("deep")
	prev := ""
	for i := 0; i < depth; i++ {
		var n *node.Node
		if i%2 == 0 {
			n = mk(-1, fmt.Sprintf("u%d", i), node.RoleUser, "ROOT", "question")
		} else {
			n = mk(-1, fmt.Sprintf("u%d_reply", i-1), node.RoleLLM, prev, "answer")
		}
		if prev != "" {
			n.Metadata.Set("parent_id", node.Str(prev))
		}
		if _, err := s.Append(n); err != nil {
			t.Fatal(err)
		}
		prev = n.ID
	}
	s.MoveHead(prev)
	for _, fl := range []flags.Set{flags.Off, flags.All} {
		var v webui.View
		within(t, 60*time.Second, "load of the deep chain under "+fl.String(), func() {
			v = webui.Views(s, fl) // the load pipeline, get_branch and render
		})
		if len(v.Chain) != depth || len(v.Branch) != depth || v.FallbackUsed {
			t.Errorf("flags %s: chain of %d rows (fallback %v), branch of %d, want %d", fl, len(v.Chain), v.FallbackUsed, len(v.Branch), depth)
		}
	}

	// A call chain: a manual run F0 whose body calls F1, which calls F2…
	// (its runtime card's execution tree is as deep).
	calls := 20_000
	if testing.Short() {
		calls = 2_000
	}
	c := store.New("calls")
	c.Append(mk(-1, "u", node.RoleUser, "ROOT", "run it"))
	for i := 0; i < calls; i++ {
		caller := fmt.Sprintf("F%d", i-1)
		if i == 0 {
			caller = "ROOT"
		}
		c.Append(mk(-1, fmt.Sprintf("F%d", i), node.RoleCode, caller, "ok", "parent_id", "u"))
	}
	c.MoveHead("F0")
	for _, fl := range []flags.Set{flags.Off, flags.All} {
		within(t, 60*time.Second, "load of the deep call chain under "+fl.String(), func() {
			webui.Load(c, fl)
			history.Branch(c, fmt.Sprintf("F%d", calls-1))
		})
	}
}

// TestReadNeverWrites: loading and auditing directories (clean and
// damaged, with links and leftovers) changes no byte, no mtime, no mode and
// creates or removes nothing.
func TestReadNeverWrites(t *testing.T) {
	root := t.TempDir()
	var dirs []string
	for i := 0; i < 6; i++ {
		dir := build(t, filepath.Join(root, fmt.Sprint(i)), gen.NewSeeded(uint64(100+i)), 30)
		if i > 0 {
			if _, err := Corrupt(dir, gen.NewSeeded(uint64(i)), nil, 2*i); err != nil {
				t.Fatal(err)
			}
		}
		dirs = append(dirs, dir)
	}
	before := snapshot(t, root)
	time.Sleep(10 * time.Millisecond) // a write now would show in mtimes
	for _, dir := range dirs {
		readAll(t, dir)
		audit.One(dir)
		model.ReadSessionDir(dir)
	}
	if _, err := audit.Run([]string{root}, nil, func(*audit.Session) {}); err != nil {
		t.Fatal(err)
	}
	if err := sameSnapshot(before, snapshot(t, root)); err != nil {
		t.Fatalf("reading wrote: %v", err)
	}
}

// TestNonFiniteDuration: a function row whose duration_seconds is NaN or
// infinite (Python's json writes both) gets no duration_ms in its runtime
// card's tree, as the model reads it; the original's int() would raise.
func TestNonFiniteDuration(t *testing.T) {
	for _, lit := range []string{"NaN", "Infinity", "-Infinity"} {
		f := mk(1, "F", node.RoleCode, "ROOT", "ok", "status", "completed")
		f.Metadata.Set("duration_seconds", node.Num(lit))
		dir := writeDir(t, "F", mk(0, "u", node.RoleUser, "ROOT", "run"), f)
		sameAsModel(t, dir, openClean(t, dir))
	}
}
