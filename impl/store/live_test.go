//go:build linux

package store_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sessiondag/impl/node"
	"sessiondag/impl/store"
)

// writeNodeFile renames a node file into history/ as the original's writer
// does, and (head set) rewrites meta.json with that head.
func writeNodeFile(t *testing.T, dir string, n *node.Node, head string) {
	t.Helper()
	p := filepath.Join(dir, "history", store.FileName(n))
	require.NoError(t, store.WriteFileAtomic(p, n.Encode(), store.WriteOptions{NoSync: true}))
	if head != "" {
		meta := fmt.Sprintf("{\n  \"id\": \"local_0000000000\",\n  \"head_id\": %q\n}\n", head)
		require.NoError(t, store.WriteFileAtomic(filepath.Join(dir, "meta.json"), []byte(meta), store.WriteOptions{NoSync: true}))
	}
}

func userNode(id string, seq int64, parent string) *node.Node {
	return &node.Node{ID: id, Seq: seq, Role: node.RoleUser, CalledBy: node.RootID, CreatedAt: node.Num("1782000000.5"),
		Input: node.NullV(), Output: node.Str("typed during the read"), Reads: node.Arr([]node.Value{}),
		Metadata: &node.Obj{M: []node.Member{{Key: "parent_id", Val: node.Str(parent)}}}}
}

// opened runs Open with a time limit: nothing it opens may block it.
func opened(t *testing.T, dir string) *store.Store {
	t.Helper()
	type res struct {
		s   *store.Store
		err error
	}
	done := make(chan res, 1)
	go func() {
		s, err := store.Open(dir)
		done <- res{s, err}
	}()
	select {
	case r := <-done:
		require.NoError(t, r.err)
		return r.s
	case <-time.After(10 * time.Second):
		t.Fatalf("Open(%s) did not return", dir)
		return nil
	}
}

// TestOpenReadsAgainWhenTheWriterRenamesIn: a node renamed into history/
// after the listing, and the head moved onto it before meta.json is read,
// is found by a second read: the view is the writer's new state, not an
// empty chain.
func TestOpenReadsAgainWhenTheWriterRenamesIn(t *testing.T) {
	dir := writeSession(t, t.TempDir(), 3, 20)
	s0 := opened(t, dir)
	calls := 0
	defer store.SetAfterListing(func() {
		calls++
		if calls == 1 {
			writeNodeFile(t, dir, userNode("late0001", s0.NextSeq(), s0.PersistedHead()), "late0001")
		}
	})()
	s := opened(t, dir)
	require.Empty(t, s.Problems)
	require.False(t, s.Unsettled())
	require.Equal(t, "late0001", s.Head())
	_, ok := s.Get("late0001")
	require.True(t, ok, "the node renamed in during the read is loaded")
	require.Equal(t, s0.Len()+1, s.Len())
	require.GreaterOrEqual(t, calls, 2, "read again")
}

// TestOpenSaysWhenTheSessionKeepsChanging: a directory that changes during
// every read is read a bounded number of times, then reported as changing.
func TestOpenSaysWhenTheSessionKeepsChanging(t *testing.T) {
	dir := writeSession(t, t.TempDir(), 4, 12)
	s0 := opened(t, dir)
	calls := 0
	defer store.SetAfterListing(func() {
		calls++
		writeNodeFile(t, dir, userNode(fmt.Sprintf("busy%04d", calls), s0.NextSeq()+int64(calls), ""), "")
	})()
	start := time.Now()
	s := opened(t, dir)
	require.Less(t, time.Since(start), 5*time.Second)
	require.True(t, s.Unsettled())
	var said bool
	for _, p := range s.Problems {
		said = said || p.File == "history/" && strings.Contains(p.Error(), "kept changing")
	}
	require.True(t, said, "problems %v", s.Problems)
	require.Equal(t, 10, calls, "read a bounded number of times")
}

// TestOpenOfAQuietSessionReadsOnce: a session nobody writes is read once,
// whether it was last written long ago or a moment ago (then every file is
// looked at a second time instead of read again).
func TestOpenOfAQuietSessionReadsOnce(t *testing.T) {
	dir := writeSession(t, t.TempDir(), 5, 12)
	for _, aged := range []bool{false, true} {
		if aged {
			old := time.Now().Add(-time.Hour)
			require.NoError(t, os.Chtimes(filepath.Join(dir, "history"), old, old))
		}
		calls := 0
		restore := store.SetAfterListing(func() { calls++ })
		s := opened(t, dir)
		restore()
		require.Empty(t, s.Problems)
		require.Equal(t, 1, calls, "aged %v", aged)
	}
}

// TestTemporaryFileByAge: a young *.json.tmp is a write in progress (a
// note), an old one a leftover (a problem); neither is loaded.
func TestTemporaryFileByAge(t *testing.T) {
	dir := writeSession(t, t.TempDir(), 6, 12)
	s0 := opened(t, dir)
	tmp := filepath.Join(dir, "history", store.FileName(userNode("tmp00001", s0.NextSeq(), ""))+".tmp")
	require.NoError(t, os.WriteFile(tmp, userNode("tmp00001", s0.NextSeq(), "").Encode(), 0o644))
	s := opened(t, dir)
	require.Empty(t, s.Problems)
	require.Len(t, s.Notes, 1)
	require.Contains(t, s.Notes[0], "write in progress")
	require.Equal(t, s0.Len(), s.Len())

	old := time.Now().Add(-time.Hour)
	require.NoError(t, os.Chtimes(tmp, old, old))
	s = opened(t, dir)
	require.Empty(t, s.Notes)
	require.Len(t, s.Problems, 1)
	require.Contains(t, s.Problems[0].Error(), "leftover temporary file")
}

// TestOnlyRegularFilesAreOpened: a FIFO named as a node file, as meta.json,
// linked from history/, or in place of history/ blocks nothing and is
// refused by name.
func TestOnlyRegularFilesAreOpened(t *testing.T) {
	for _, tc := range []struct{ where, file, phrase string }{
		{"history/0999-u-fifo.json", "history/0999-u-fifo.json", "not a regular file (a named pipe)"},
		{"meta.json", "meta.json", "not a regular file (a named pipe)"},
		{"history", "history/", "not a directory (a named pipe)"},
		{"elsewhere.fifo", "history/0998-u-link.json", "not a regular file"},
	} {
		t.Run(tc.where, func(t *testing.T) {
			dir := writeSession(t, t.TempDir(), 7, 8)
			p := filepath.Join(dir, tc.where)
			require.NoError(t, os.RemoveAll(p))
			require.NoError(t, syscall.Mkfifo(p, 0o644))
			if tc.where == "elsewhere.fifo" {
				require.NoError(t, os.Symlink("../elsewhere.fifo", filepath.Join(dir, tc.file)))
			}
			s := opened(t, dir)
			var found bool
			for _, pr := range s.Problems {
				found = found || pr.File == tc.file && strings.Contains(pr.Error(), tc.phrase)
			}
			require.True(t, found, "problems %v: want %s refused (%s)", s.Problems, tc.file, tc.phrase)
		})
	}
}

// TestHardLinkReadOnce: two names of one node file give one node.
func TestHardLinkReadOnce(t *testing.T) {
	dir := writeSession(t, t.TempDir(), 8, 10)
	s0 := opened(t, dir)
	first := filepath.Join(dir, "history", store.FileName(s0.Nodes()[1]))
	require.NoError(t, os.Link(first, filepath.Join(dir, "history", "0000-a-alias.json")))
	s := opened(t, dir)
	require.Equal(t, s0.Len(), s.Len())
	require.Len(t, s.Problems, 1)
	// The name first in order is kept when neither is a symbolic link.
	require.Equal(t, "history/"+filepath.Base(first), s.Problems[0].File)
	require.Contains(t, s.Problems[0].Error(), "same file as history/0000-a-alias.json (a hard link to it)")
}
