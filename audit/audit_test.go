package audit_test

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/stretchr/testify/require"

	"sessiondag/audit"
)

// snapshot records every file's bytes, mode and modification time below
// root, and every directory's mode and time.
func snapshot(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	require.NoError(t, filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		sum := ""
		if d.Type().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			sum = fmt.Sprintf("%x", sha256.Sum256(b))
		}
		out[p] = fmt.Sprintf("%v %v %s", fi.Mode(), fi.ModTime().UnixNano(), sum)
		return nil
	}))
	return out
}

func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	require.NoError(t, filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	}))
}

// TestAuditNeverWrites: auditing a tree of session directories leaves every
// byte, mode and timestamp of it unchanged, broken sessions included.
func TestAuditNeverWrites(t *testing.T) {
	root := t.TempDir()
	copyTree(t, filepath.Join("..", "corpus", "conformance", "sessions"), filepath.Join(root, "conformance"))
	copyTree(t, filepath.Join("..", "corpus", "sessions"), filepath.Join(root, "generated"))
	broken := filepath.Join(root, "broken", "local_broken")
	require.NoError(t, os.MkdirAll(filepath.Join(broken, "history"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(broken, "history", "0000-u-x.json"), []byte(`{"id": "x", "seq": "one"`), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(broken, "history", "0001-u-y.json.tmp"), []byte(`{`), 0o644))
	before := snapshot(t, root)

	var seen []string
	sum, err := audit.Run([]string{root}, nil, func(s *audit.Session) { seen = append(seen, s.Dir) })
	require.NoError(t, err)
	require.Equal(t, before, snapshot(t, root), "the audit changed the audited tree")
	require.True(t, sort.StringsAreSorted(seen), "sessions are reported in a stable order")
	require.Greater(t, sum.Sessions, 100)
	require.Equal(t, 1, sum.Broken, "the broken session's unreadable files are reported")
	require.True(t, sum.Failed())
}

// TestAuditReportsBrokenAndGoesOn: an unreadable session is reported with
// the file and the field, and the sessions after it are still audited.
func TestAuditReportsBrokenAndGoesOn(t *testing.T) {
	root := t.TempDir()
	bad := filepath.Join(root, "a_bad")
	require.NoError(t, os.MkdirAll(filepath.Join(bad, "history"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(bad, "history", "0000-u-x.json"), []byte(`{"id": "x", "seq": "one"}`), 0o644))
	copyTree(t, filepath.Join("..", "corpus", "sessions", "01-plain-web-chat"), filepath.Join(root, "b_good"))

	var got []*audit.Session
	_, err := audit.Run([]string{root}, nil, func(s *audit.Session) { got = append(got, s) })
	require.NoError(t, err)
	require.Len(t, got, 2)
	require.True(t, got[0].Broken())
	require.Contains(t, got[0].Unreadable[0], "history/0000-u-x.json")
	require.Contains(t, got[0].Unreadable[0], `field "seq"`)
	require.False(t, got[1].Failed(), "%+v", got[1])
	require.True(t, got[1].Intended)
}

// TestAuditCorpusIsReady: the bundled corpus has no regression and no
// violation (what `make demo` shows).
func TestAuditCorpusIsReady(t *testing.T) {
	sum, err := audit.Run([]string{filepath.Join("..", "corpus")}, nil, func(s *audit.Session) {
		if s.Failed() {
			t.Errorf("%s: %+v", s.Dir, s)
		}
	})
	require.NoError(t, err)
	require.False(t, sum.Failed())
	require.GreaterOrEqual(t, sum.Sessions, 100)
}
