package store_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"sessiondag/impl/node"
	"sessiondag/impl/store"
)

// TestFileMemoryBound: a history file that would cost more than
// store.MemoryPerByte times its bytes (and store.MemorySlack) in memory
// once parsed is refused by a cold load before any of it is built, with an
// error naming the file, its size, its cost and the limit: a list of small
// numbers, of small objects, or one held as JSON in a string (a reader
// parses a message's extra); the other nodes load. A file of as many bytes
// of text, or of numbers written out, loads, and so does one nested 5,000
// deep (an earlier count of the first pass's stack refused it: found by
// checker/robust's TestCorruptedLoad). meta.json and a context commit
// are bounded alike (the commit is then not found, as one too large).
func TestFileMemoryBound(t *testing.T) {
	dir := writeSession(t, t.TempDir(), 5, 12)
	s0, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	const size = 256 << 10
	list := func(v string) node.Value {
		lv, err := node.ParseString("[" + strings.Repeat(v+",", size/(len(v)+1)) + v + "]")
		if err != nil {
			t.Fatal(err)
		}
		return lv
	}
	deep := func(n int) node.Value {
		v, err := node.ParseString(strings.Repeat("[", n) + "0" + strings.Repeat("]", n))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	files := []struct {
		name    string
		output  node.Value
		extra   node.Value
		refused bool
	}{
		{"0500-c-zeros.json", list("0"), node.Value{}, true},
		{"0501-c-objects.json", list(`{"a": 0}`), node.Value{}, true},
		{"0502-c-extra.json", node.Str("done"), node.Str(node.Dumps(list("0"))), true},
		{"0503-c-text.json", node.Str(strings.Repeat("some text ", size/10)), node.Value{}, false},
		{"0504-c-floats.json", list("1782000001.5"), node.Value{}, false},
		// Nested as deep as checker/robust nests an output (its arrays,
		// the first pass's stack: some 0.7 MiB for 10 KB), within the slack.
		{"0505-c-deep.json", deep(5000), node.Value{}, false},
	}
	for i, f := range files {
		md := &node.Obj{}
		if f.extra.IsSet() {
			md.Set("extra", f.extra)
		}
		n := &node.Node{ID: strings.TrimSuffix(f.name[7:], ".json"), Seq: int64(500 + i), Role: node.RoleCode, Name: "f",
			CreatedAt: node.Num("1.0"), Input: node.NullV(), Output: f.output, Reads: node.Arr([]node.Value{}), Metadata: md}
		// Written without indentation, as a file need not be.
		v, err := node.Parse(n.Encode())
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "history", f.name), []byte(node.Dumps(v)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	problems := map[string]string{}
	for _, p := range s.Problems {
		problems[p.File] = p.Err.Error()
	}
	loaded := 0
	for _, f := range files {
		id := strings.TrimSuffix(f.name[7:], ".json")
		_, ok := s.Get(id)
		msg, named := problems["history/"+f.name]
		switch {
		case f.refused && (ok || !named):
			t.Errorf("%s: loaded %v, problem %q: want it refused for its cost", f.name, ok, msg)
		case f.refused:
			fi, err := os.Stat(filepath.Join(dir, "history", f.name))
			if err != nil {
				t.Fatal(err)
			}
			limit := node.MiB(store.MemoryPerByte*fi.Size() + store.MemorySlack)
			for _, want := range []string{strconv.FormatInt(fi.Size(), 10) + " bytes", "in memory once parsed", "over the limit of " + limit} {
				if !strings.Contains(msg, want) {
					t.Errorf("%s: %q: want %q", f.name, msg, want)
				}
			}
		case !ok || named:
			t.Errorf("%s: loaded %v, problem %q: want it loaded", f.name, ok, msg)
		default:
			loaded++
		}
	}
	if s.Len() != s0.Len()+loaded {
		t.Errorf("%d nodes, want the %d of the session and the %d loaded", s.Len(), s0.Len(), loaded)
	}

	// meta.json: a field of small values.
	meta, err := os.ReadFile(filepath.Join(dir, "meta.json"))
	if err != nil {
		t.Fatal(err)
	}
	big := strings.TrimSuffix(strings.TrimSpace(string(meta)), "}") + `, "list": ` + node.Dumps(list("0")) + "}"
	if err := os.WriteFile(filepath.Join(dir, "meta.json"), []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err = store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	var metaRefused bool
	for _, p := range s.Problems {
		metaRefused = metaRefused || p.File == "meta.json" && strings.Contains(p.Err.Error(), "in memory once parsed, over the limit")
	}
	if !metaRefused {
		t.Errorf("meta.json of small values: problems %v, want it refused for its cost", s.Problems)
	}

	// A context commit: the costly one is not found, the other is.
	commits := filepath.Join(dir, "context", "commits")
	if err := os.MkdirAll(commits, 0o755); err != nil {
		t.Fatal(err)
	}
	for id, v := range map[string]node.Value{"zeros": list("0"), "text": node.Str(strings.Repeat("x", size))} {
		if err := os.WriteFile(filepath.Join(commits, id+".json"), []byte(node.Dumps(v)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, ok := s.ContextCommit("zeros"); ok {
		t.Errorf("a commit of small values over the bound was read")
	}
	if _, ok := s.ContextCommit("text"); !ok {
		t.Errorf("a commit of text was not found")
	}
}
