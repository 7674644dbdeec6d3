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

// nodeFileShapes are node files of small values: one user row whose
// metadata holds a list of the same small value, from a few bytes to
// tens of megabytes.
var nodeFileShapes = []struct{ name, value string }{
	{"zeros", "0"},
	{"empty-lists", "[]"},
	{"empty-objects", "{}"},
	{"small-objects", `{"a":1}`},
	{"short-strings", `"a"`},
}

// BenchmarkNodeFileMemory is `sessiondag load` of a session of one node
// file of small values (store.Open, then the load under flags off), the
// file doubled from 1 MiB to 16 MiB: B/op is all it allocates (the most
// its heap can grow by), alloc-x that over the file's bytes, live-x what
// it keeps (the store and the view, after a collection) over the file's
// bytes. A file must cost at
// most about ten times its bytes, and its cost grow with it (make
// bench-memory prints the growth per doubling).
func BenchmarkNodeFileMemory(b *testing.B) {
	for _, shape := range nodeFileShapes {
		for mib := 1; mib <= 16; mib *= 2 {
			b.Run(fmt.Sprintf("shape=%s/bytes=%d", shape.name, mib<<20), func(b *testing.B) {
				dir, size := nodeFile(b, shape.value, mib<<20)
				// What a load keeps is measured first: the loop's last
				// load may still be reachable after it, and would count
				// as the heap before.
				kept := live(b, dir)
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
			})
		}
	}
}

// load reads the session at dir as `sessiondag load` does.
func load(b *testing.B, dir string) (*store.Store, *webui.Loaded) {
	s, err := store.Open(dir)
	if err != nil || len(s.Problems) > 0 {
		b.Fatal(err, s.Problems)
	}
	return s, webui.Load(s, flags.Off)
}

// live is the heap a load keeps: after a collection, with and without
// what it returned.
func live(b *testing.B, dir string) float64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	s, l := load(b, dir)
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(s)
	runtime.KeepAlive(l)
	return float64(after.HeapAlloc) - float64(before.HeapAlloc)
}

// nodeFile writes a session of one user row whose metadata holds value
// again and again, the file about size bytes; it returns the session's
// directory and the file's bytes.
func nodeFile(b *testing.B, value string, size int) (string, int64) {
	b.Helper()
	dir := filepath.Join(b.TempDir(), "local_00000000aa")
	if err := os.MkdirAll(filepath.Join(dir, "history"), 0o755); err != nil {
		b.Fatal(err)
	}
	meta := `{"id": "local_00000000aa", "agent_id": "main", "title": "t", "source": "web", "created_at": 1782000000.0, ` +
		`"updated_at": 1782000000.0, "head_id": "u1", "status": "idle", "branches": {}, "merged_heads": []}`
	head := `{"id": "u1", "created_at": 1782000001.5, "seq": 1, "role": "user", "name": "", "input": null, "output": "x", ` +
		`"called_by": "ROOT", "reads": [], "metadata": {"source": "web", "list": [`
	n := max(1, (size-len(head))/(len(value)+1))
	text := head + strings.Repeat(value+",", n-1) + value + "]}}\n"
	file := filepath.Join(dir, "history", "0001-u-u1.json")
	if err := os.WriteFile(filepath.Join(dir, "meta.json"), []byte(meta), 0o644); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		b.Fatal(err)
	}
	return dir, int64(len(text))
}
