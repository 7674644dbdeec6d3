package audit_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"sessiondag/audit"
)

// TestFindTakesFoldersAsTheOriginalLeavesThem: a session folder is found
// by any of the original's session files — history/ without meta.json (no
// turn has ended yet), meta.json without history/, context/commits/ alone —
// and named by the folder; a directory with none of them, or with only
// other files, is not a session, and the search does not descend into a
// session it found.
func TestFindTakesFoldersAsTheOriginalLeavesThem(t *testing.T) {
	root := t.TempDir()
	for _, p := range []string{
		"no-meta/history/0000-u-n0.json",
		"meta-only/meta.json",
		"commits-only/context/commits/c1.json",
		"deeper/group/s1/history/0000-u-n0.json",
		"not-a-session/notes.txt",
		"not-a-session/context/other.json",
		"meta-only/nested/history/0000-u-n0.json",
	} {
		full := filepath.Join(root, p)
		require.NoError(t, os.MkdirAll(filepath.Dir(full), 0o755))
		require.NoError(t, os.WriteFile(full, []byte("{}"), 0o644))
	}
	got, err := audit.Find([]string{root})
	require.NoError(t, err)
	var rel []string
	for _, d := range got.Sessions {
		r, err := filepath.Rel(root, d)
		require.NoError(t, err)
		rel = append(rel, r)
	}
	require.Equal(t, []string{"commits-only", "deeper/group/s1", "meta-only", "no-meta"}, rel)

	s := audit.One(filepath.Join(root, "commits-only"))
	require.Empty(t, s.Error)
	require.Equal(t, "commits-only", s.ID)
}
