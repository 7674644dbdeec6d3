package audit_test

import (
	"bytes"
	"fmt"
	"path/filepath"
	"testing"

	"sessiondag/audit"
	"sessiondag/checker/driver"
	"sessiondag/checker/gen"
	"sessiondag/impl/flags"
	"sessiondag/impl/store"
)

// genTree writes n sessions as `sessiondag gen --seed 1..n --nodes 100
// --legacy=false` writes them, without their op scripts (a real session
// directory has none), and returns the tree's root and its node count.
func genTree(b *testing.B, n int) (string, int) {
	b.Helper()
	root := b.TempDir()
	nodes := 0
	for seed := uint64(1); seed <= uint64(n); seed++ {
		script, written := gen.SessionScript(fmt.Sprintf("local_%010x", seed), seed, 100, gen.Options{Legacy: false}, "off")
		if _, err := driver.BuildWith(script, filepath.Join(root, fmt.Sprint(seed)), flags.Off, store.WriteOptions{NoSync: true}); err != nil {
			b.Fatal(err)
		}
		nodes += written
	}
	return root, nodes
}

// benchTree audits a generated tree of n sessions without scripts as
// `sessiondag audit ROOT --html PAGE` does: every session under the five
// configs, where each removed row went, the page. It reports nodes per
// second and the page's size; -benchmem gives the memory per audit. The
// audit is linear in the tree: ns/node stays put as n grows (compare the
// sizes within one run).
func benchTree(b *testing.B, n int) {
	root, nodes := genTree(b, n)
	var page int
	for b.Loop() {
		var pg audit.Page
		sum, err := audit.RunWith([]string{root}, audit.Options{Columns: true}, pg.Add)
		if err != nil {
			b.Fatal(err)
		}
		if sum.Failed() {
			b.Fatalf("not ready: %v", sum.Problems())
		}
		var buf bytes.Buffer
		if err := pg.Write(&buf, sum); err != nil {
			b.Fatal(err)
		}
		page = buf.Len()
	}
	b.ReportMetric(float64(nodes)*float64(b.N)/b.Elapsed().Seconds(), "nodes/s")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(nodes*b.N), "ns/node")
	b.ReportMetric(float64(page), "page-bytes")
}

func BenchmarkAuditTree100(b *testing.B) { benchTree(b, 100) }
func BenchmarkAuditTree300(b *testing.B) { benchTree(b, 300) }
func BenchmarkAuditTree900(b *testing.B) { benchTree(b, 900) }
