package audit_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"sessiondag/audit"
	"sessiondag/checker/driver"
	"sessiondag/checker/gen"
	"sessiondag/impl/flags"
	"sessiondag/impl/store"
	"sessiondag/ops"
)

// genSession writes what `sessiondag gen --seed seed --nodes n --out DIR`
// writes (the session and its op script) and returns DIR.
func genSession(b *testing.B, seed uint64, n int, withScript bool) string {
	b.Helper()
	g := gen.New(gen.Options{Legacy: true})
	script := append([]ops.Op{ops.Session{ID: fmt.Sprintf("local_%010x", seed)}},
		g.ScriptNodes(gen.NewSeeded(seed), n)...)
	dir := filepath.Join(b.TempDir(), "session")
	if _, err := driver.BuildWith(script, dir, flags.Off, store.WriteOptions{NoSync: true}); err != nil {
		b.Fatal(err)
	}
	if withScript {
		if err := os.WriteFile(filepath.Join(dir, audit.ScriptName), []byte(ops.String(script)), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return dir
}

func benchAudit(b *testing.B, n int, withScript bool) {
	dir := genSession(b, 7, n, withScript)
	for b.Loop() {
		if s := audit.One(dir); s.Error != "" {
			b.Fatal(s.Error)
		}
	}
}

// The audit of one generated session: with its op script (the intended view
// from model.Target) and as a real session directory without one.
func BenchmarkAudit1k(b *testing.B)         { benchAudit(b, 1000, true) }
func BenchmarkAudit5k(b *testing.B)         { benchAudit(b, 5000, true) }
func BenchmarkAudit5kNoScript(b *testing.B) { benchAudit(b, 5000, false) }
