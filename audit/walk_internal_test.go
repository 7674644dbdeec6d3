package audit

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestWalkGoesOnPastAFailure: a directory that cannot be read (permission
// denied) or vanishes while the tree is walked (no such file) is a problem
// of the walk, named with the reason; the sessions beside it are found.
func TestWalkGoesOnPastAFailure(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"a/history", "b/x", "c/deeper/y", "d/history"} {
		require.NoError(t, os.MkdirAll(filepath.Join(root, d), 0o755))
	}
	fail := map[string]error{
		filepath.Join(root, "b"):           syscall.EACCES,
		filepath.Join(root, "c", "deeper"): syscall.ENOENT,
	}
	tree, err := find(context.Background(), []string{root}, func(p string) ([]os.DirEntry, error) {
		if e, ok := fail[p]; ok {
			return nil, &fs.PathError{Op: "open", Path: p, Err: e}
		}
		return os.ReadDir(p)
	}, nil)
	require.NoError(t, err)
	require.Equal(t, []string{filepath.Join(root, "a"), filepath.Join(root, "d")}, tree.Sessions)
	require.Len(t, tree.Problems, 2)
	require.Contains(t, tree.Problems[0], filepath.Join(root, "b")+": cannot read the directory: permission denied")
	require.Contains(t, tree.Problems[1], filepath.Join(root, "c", "deeper")+": cannot read the directory: no such file or directory")

	// A root whose only directory failed has no session: NOT READY with
	// the reason, not an error that hides it.
	only := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(only, "x"), 0o755))
	tree, err = find(context.Background(), []string{only}, func(p string) ([]os.DirEntry, error) {
		if p == filepath.Join(only, "x") {
			return nil, syscall.EACCES
		}
		return os.ReadDir(p)
	}, nil)
	require.NoError(t, err)
	require.Empty(t, tree.Sessions)
	require.True(t, strings.HasPrefix(tree.Problems[0], filepath.Join(only, "x")))
}
