package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"sessiondag/impl/flags"
	"sessiondag/impl/store"
	"sessiondag/impl/webui"
)

// nodeFileShapes are node files of one value again and again: small
// values, which cost far more than their bytes once parsed (a value is 56
// bytes, an object member 72) and which the store refuses past
// store.MemoryPerByte times the file's bytes; and values of the same kind
// written longer (numbers as a writer writes them, short records, words),
// which it loads. Each is a list in a user row's metadata, and the numbers
// also the output of a code row, which the view writes out as text.
var nodeFileShapes = []struct{ name, value, row string }{
	{"zeros", "0", userRow},
	{"empty-lists", "[]", userRow},
	{"empty-objects", "{}", userRow},
	{"small-objects", `{"a":1}`, userRow},
	{"short-strings", `"a"`, userRow},
	{"numbers", "1782000001.5", userRow},
	{"records", `{"role": "tool", "content": "ok, done", "n": 12}`, userRow},
	{"words", `"lorem ipsum dolor sit amet"`, userRow},
	{"numbers-code-output", "1782000001.5", codeRow},
}

// The rows a node file's list goes in: the list replaces LIST.
const (
	userRow = `{"id": "u1", "created_at": 1782000001.5, "seq": 1, "role": "user", "name": "", "input": null, "output": "x", ` +
		`"called_by": "ROOT", "reads": [], "metadata": {"source": "web", "list": LIST}}`
	codeRow = `{"id": "u1", "created_at": 1782000001.5, "seq": 1, "role": "code", "name": "f", "input": null, "output": LIST, ` +
		`"called_by": "ROOT", "reads": [], "metadata": {}}`
)

// BenchmarkNodeFileMemory is `sessiondag load` of a session of one node
// file (store.Open, then the load under flags off), the file doubled from
// 1 MiB to 16 MiB: B/op is all it allocates (the most its heap can grow
// by), alloc-x that over the file's bytes, live-x what it keeps (the store
// and the view, after a collection) over the file's bytes, refused 1 when
// the store refused the file for what it would cost in memory. A file must
// cost at most about ten times its bytes, and its cost grow with it (make
// bench-memory prints the growth per doubling).
func BenchmarkNodeFileMemory(b *testing.B) {
	for _, shape := range nodeFileShapes {
		for mib := 1; mib <= 16; mib *= 2 {
			b.Run(fmt.Sprintf("shape=%s/bytes=%d", shape.name, mib<<20), func(b *testing.B) {
				dir, size := nodeFile(b, shape.value, shape.row, mib<<20)
				// What a load keeps is measured first: the loop's last
				// load may still be reachable after it, and would count
				// as the heap before.
				kept, refused := live(b, dir)
				b.ReportAllocs()
				defer cpuPerOp(b)()
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				for b.Loop() {
					load(b, dir)
				}
				runtime.ReadMemStats(&after)
				b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/float64(size), "alloc-x")
				b.ReportMetric(kept/float64(size), "live-x")
				b.ReportMetric(float64(size), "file-B")
				b.ReportMetric(refused, "refused")
			})
		}
	}
}

// load reads the session at dir as `sessiondag load` does. The only
// problems it may have are the node file's refusal for its cost, and
// then meta.json's head naming no node; refused says whether it was.
func load(b *testing.B, dir string) (s *store.Store, l *webui.Loaded, refused bool) {
	s, err := store.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	for _, p := range s.Problems {
		switch {
		case strings.Contains(p.Error(), "in memory once parsed, over the limit"):
			refused = true
		case !refused || p.File != "meta.json":
			b.Fatal(p)
		}
	}
	return s, webui.Load(s, flags.Off), refused
}

// live is the heap a load keeps: after a collection, with and without
// what it returned; and 1 when the file was refused.
func live(b *testing.B, dir string) (float64, float64) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	s, l, refused := load(b, dir)
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(s)
	runtime.KeepAlive(l)
	if refused {
		return float64(after.HeapAlloc) - float64(before.HeapAlloc), 1
	}
	return float64(after.HeapAlloc) - float64(before.HeapAlloc), 0
}

// nodeFile writes a session of one row (a template of nodeFileShapes)
// whose list holds value again and again, the file about size bytes; it
// returns the session's directory and the file's bytes.
func nodeFile(b *testing.B, value, row string, size int) (string, int64) {
	b.Helper()
	dir := filepath.Join(b.TempDir(), "local_00000000aa")
	if err := os.MkdirAll(filepath.Join(dir, "history"), 0o755); err != nil {
		b.Fatal(err)
	}
	meta := `{"id": "local_00000000aa", "agent_id": "main", "title": "t", "source": "web", "created_at": 1782000000.0, ` +
		`"updated_at": 1782000000.0, "head_id": "u1", "status": "idle", "branches": {}, "merged_heads": []}`
	n := max(1, (size-len(row))/(len(value)+1))
	text := strings.Replace(row, "LIST", "["+strings.Repeat(value+",", n-1)+value+"]", 1) + "\n"
	file := filepath.Join(dir, "history", "0001-u-u1.json")
	if err := os.WriteFile(filepath.Join(dir, "meta.json"), []byte(meta), 0o644); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		b.Fatal(err)
	}
	return dir, int64(len(text))
}
