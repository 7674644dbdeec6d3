//go:build unix

package store_test

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sessiondag/impl/store"
)

// TestParallelOpen: Open reading on several goroutines finds the same
// nodes in the same order and reports the same problems, in file order,
// as Open on one — on a generated session with files that cannot be used
// among the good ones (bad JSON, a wrong-typed field, a FIFO, a directory,
// a leftover temporary file).
func TestParallelOpen(t *testing.T) {
	dir := writeSession(t, t.TempDir(), 7, 120)
	hist := filepath.Join(dir, "history")
	require.NoError(t, os.WriteFile(filepath.Join(hist, "0003-u-bad.json"), []byte("{not json"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(hist, "0050-u-typed.json"), []byte(`{"id": "typed", "seq": "x"}`), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(hist, "0060-u-x.json.tmp"), []byte("{}"), 0o644))
	old := time.Now().Add(-time.Hour) // a stopped writer's, not one in progress
	require.NoError(t, os.Chtimes(filepath.Join(hist, "0060-u-x.json.tmp"), old, old))
	require.NoError(t, os.Mkdir(filepath.Join(hist, "0070-u-dir.json"), 0o755))
	require.NoError(t, syscall.Mkfifo(filepath.Join(hist, "0080-u-fifo.json"), 0o644))

	describe := func(s *store.Store) []string {
		var out []string
		for _, n := range s.Nodes() {
			out = append(out, fmt.Sprintf("%d %s", n.Seq, n.ID))
		}
		for _, p := range s.Problems {
			out = append(out, p.Error())
		}
		return out
	}
	restore := store.SetParallelRead(1 << 30)
	one, err := store.Open(dir)
	restore()
	require.NoError(t, err)
	require.Len(t, one.Problems, 5, "every unusable file is reported: %v", one.Problems)
	defer store.SetParallelRead(1)()
	many, err := store.Open(dir)
	require.NoError(t, err)
	require.Equal(t, describe(one), describe(many))
}
