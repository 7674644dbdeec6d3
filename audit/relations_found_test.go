package audit_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"sessiondag/audit"
	"sessiondag/internal/shard"
)

// What the metamorphic relations of cmd/sessiondag (relations_*_test.go)
// found on the audit, each reduced to its smallest tree and kept here.

// TestNotesInPathOrder: a whole run lists what the walk notes as the
// merge of its shards does — in the order of the paths, each once.
// TestAuditSplitInvariance found a tree whose links in f0/ and f0-links/
// the whole run noted in the walk's order (f0/ is walked before f0-links/)
// and the merge of its shards in sorted order ("f0-links/…" < "f0/…").
func TestNotesInPathOrder(t *testing.T) {
	root := t.TempDir()
	build(t, filepath.Join(root, "f2", "s00"), plainChat, false)
	for _, link := range []string{filepath.Join("f0", "link0"), filepath.Join("f0-links", "link1")} {
		require.NoError(t, os.MkdirAll(filepath.Join(root, filepath.Dir(link)), 0o755))
		require.NoError(t, os.Symlink(filepath.Join(root, "f2", "s00"), filepath.Join(root, link)))
	}
	whole, err := audit.Run([]string{root}, nil, nil)
	require.NoError(t, err)
	require.Len(t, whole.TreeNotes, 4, "each link followed, and its target walked once")
	require.IsNonDecreasing(t, whole.TreeNotes)
	merged := audit.NewSummary()
	for i := range 2 {
		part, err := audit.RunWith([]string{root}, audit.Options{Shard: shard.Shard{I: i, N: 2}}, nil)
		require.NoError(t, err)
		require.NoError(t, merged.Merge(part))
	}
	require.Equal(t, whole.TreeNotes, merged.TreeNotes)
}

// TestRootsInAnyOrder: roots that overlap — the tree and a folder of it, a
// folder and a session of it, one root twice — are audited in any order:
// each session once, the same sessions and notes whatever the order.
// TestAuditOrderInvariance found `audit TREE TREE/f1` refused ("TREE/f1:
// no session directory … at or below it": its one session was walked from
// TREE already) while `audit TREE/f1 TREE` audited it.
func TestRootsInAnyOrder(t *testing.T) {
	root := t.TempDir()
	s := filepath.Join(root, "f1", "s00")
	build(t, s, plainChat, false)
	folder := filepath.Join(root, "f1")
	var first *audit.Tree
	for _, roots := range [][]string{{root, folder}, {folder, root}, {folder, folder}, {s, folder, root, s}} {
		tree, err := audit.Find(roots)
		require.NoError(t, err, "%q", roots)
		require.Equal(t, []string{s}, tree.Sessions, "%q", roots)
		if first == nil {
			first = tree
		} else if len(roots) == 2 && roots[0] != roots[1] {
			require.Equal(t, first.Notes, tree.Notes, "%q", roots)
		}
	}
}
