package audit_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"sessiondag/audit"
	"sessiondag/checker/driver"
	"sessiondag/checker/gen"
	"sessiondag/checker/robust"
	"sessiondag/impl/flags"
	"sessiondag/impl/store"
)

// TestExplainsCorruptData: damaged sessions (dangling pointers, cycles in
// either pointer, duplicate ids and seqs, torn files, …) are audited with
// their rows listed and their residual named, without a panic, and the page
// stays well-formed (corrupt text included).
func TestExplainsCorruptData(t *testing.T) {
	root := t.TempDir()
	for i := 0; i < 40; i++ {
		dir := filepath.Join(root, fmt.Sprintf("s%02d", i))
		script := gen.New(gen.Options{Legacy: true}).Script(gen.NewSeeded(uint64(700+i)), 40)
		_, err := driver.BuildWith(script, dir, flags.Off, store.WriteOptions{NoSync: true})
		require.NoError(t, err)
		_, err = robust.Corrupt(dir, gen.NewSeeded(uint64(i)), nil, 1+i%4)
		require.NoError(t, err)
	}
	require.NoError(t, os.WriteFile(filepath.Join(root, "s00", "history", "9999-u-bad.json"),
		[]byte("{\"id\": \"bad\", \"created_at\": 1.0, \"seq\": 9999, \"role\": \"user\", \"name\": \"\", \"input\": null, \"output\": \"a\\u0000b\\ud800\", \"called_by\": \"ROOT\", \"reads\": [], \"metadata\": {}}"), 0o644))
	var pg audit.Page
	sum, err := audit.RunWith([]string{root}, audit.Options{Columns: true}, func(s *audit.Session) {
		pg.Add(s)
		for _, r := range s.Residual {
			require.NotEmpty(t, r.Cause, "%s: %+v", s.Dir, r)
		}
	})
	require.NoError(t, err)
	require.Equal(t, 40, sum.Sessions)
	var buf bytes.Buffer
	require.NoError(t, pg.Write(&buf, sum))
	parsePage(t, buf.Bytes())
}
