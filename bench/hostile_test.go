package bench

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"sessiondag/audit"
	"sessiondag/checker/robust"
	"sessiondag/impl/flags"
	"sessiondag/impl/node"
	"sessiondag/impl/store"
	"sessiondag/impl/webui"
)

// BenchmarkHostile reads each hostile session tree of checker/robust that
// has a growth series, at each of its sizes, the way the reading commands
// do:
//
//	BenchmarkHostile/tree=T/size=N/read=load   store.Open, webui.Load under off and all, and the view under off written out (load --json)
//	BenchmarkHostile/tree=T/size=N/read=audit  audit.One (five loads, the invariants, the residual)
//
// in-B is the tree's size in bytes, out-B the view's when written out
// (which runtime cards of nested runs make quadratic in their depth, as the
// original's is). Beside ns/op (wall time, which other work on a shared machine stretches)
// each reports cpu-ns/op, the process's processor time per op. Every read
// must be linear in the tree's size: scripts/hostile.sh -bench runs this
// and prints the growth of cpu-ns/op per doubling of in-B + out-B and of
// B/op and allocs/op per doubling of in-B (each at most 2.2×).
func BenchmarkHostile(b *testing.B) {
	for _, t := range robust.Trees() {
		for _, n := range t.Growth {
			b.Run(fmt.Sprintf("tree=%s/size=%d", t.Name, n), func(b *testing.B) {
				dir, in := hostileFixture(b, t, n)
				b.Run("read=load", func(b *testing.B) {
					b.ReportAllocs()
					defer cpuPerOp(b)()
					var out counter
					for b.Loop() {
						s, err := store.Open(dir)
						if err != nil {
							b.Fatal(err)
						}
						l := webui.Load(s, flags.Off)
						webui.Load(s, flags.All)
						out = 0
						if err := node.WriteView(&out, node.Arr(rowsOf(l))); err != nil {
							b.Fatal(err)
						}
					}
					b.ReportMetric(float64(in), "in-B")
					b.ReportMetric(float64(out), "out-B")
				})
				b.Run("read=audit", func(b *testing.B) {
					b.ReportAllocs()
					defer b.ReportMetric(float64(in), "in-B")
					defer cpuPerOp(b)()
					for b.Loop() {
						if rep := audit.One(dir); rep.Error != "" {
							b.Fatal(rep.Error)
						}
					}
				})
			})
		}
	}
}

// hostileFixture builds a tree and dates its history/ back: a directory
// changed within the last second is read with a second look at every file
// (store.Open), which would time the fixture's age instead of the read. It
// returns the directory and the bytes of its files.
func hostileFixture(b *testing.B, t robust.Tree, n int) (string, int64) {
	b.Helper()
	dir, err := t.Build(b.TempDir(), n)
	if err != nil {
		b.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(filepath.Join(dir, "history"), old, old); err != nil {
		b.Fatal(err)
	}
	var size int64
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				size += fi.Size()
			}
		}
		return nil
	})
	return dir, size
}

// counter counts the bytes written to it.
type counter int64

func (c *counter) Write(p []byte) (int, error) { *c += counter(len(p)); return len(p), nil }

func rowsOf(l *webui.Loaded) []node.Value {
	out := make([]node.Value, 0, len(l.Chain)+len(l.All))
	for _, m := range l.Chain {
		out = append(out, node.ObjV(m.F))
	}
	for _, m := range l.All {
		out = append(out, node.ObjV(m.F))
	}
	return out
}
