//go:build unix

package audit_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sessiondag/audit"
)

// plainChat is a session without problems: a one-turn web chat.
const plainChat = "session id=local_plain00001\nuser id=u1 text=hello\nreply\nsay text=hi\ndone\n"

// within runs f and fails the test if it has not returned after a while
// (a read that blocks).
func within(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatalf("%s: still running after 20 s (a blocking read?)", what)
	}
}

// TestNothingFoundIsAnError: a folder with no session directory in it, and
// a path that does not exist, are errors, never "audited 0 sessions, ready".
func TestNothingFoundIsAnError(t *testing.T) {
	empty := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(empty, "a", "b"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(empty, "a", "notes.txt"), []byte("x"), 0o644))
	for _, root := range []string{empty, filepath.Join(empty, "no-such-dir")} {
		sum, err := audit.Run([]string{root}, nil, nil)
		require.Error(t, err, "%s: %+v", root, sum)
	}
	// One root with sessions does not excuse another without.
	good := filepath.Join(t.TempDir(), "s")
	build(t, good, plainChat, false)
	_, err := audit.Run([]string{good, empty}, nil, nil)
	require.ErrorContains(t, err, "no session directory")
}

// TestScriptThatIsNoFile: a session.ops that is a FIFO, a directory or a
// link out of the session is not read (the audit does not block on a FIFO)
// and the session is broken with the reason, never judged without it.
func TestScriptThatIsNoFile(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "elsewhere.ops")
	require.NoError(t, os.WriteFile(outside, []byte(plainChat), 0o644))
	for name, make := range map[string]func(p string) error{
		"fifo":      func(p string) error { return syscall.Mkfifo(p, 0o644) },
		"directory": func(p string) error { return os.Mkdir(p, 0o755) },
		"link":      func(p string) error { return os.Symlink(outside, p) },
	} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			dir := filepath.Join(root, "s")
			build(t, dir, plainChat, false)
			require.NoError(t, make(filepath.Join(dir, audit.ScriptName)))
			build(t, filepath.Join(root, "t"), plainChat, false) // after it in the tree
			var got []*audit.Session
			var sum *audit.Summary
			within(t, name, func() {
				var err error
				sum, err = audit.Run([]string{root}, nil, func(s *audit.Session) { got = append(got, s) })
				require.NoError(t, err)
			})
			require.Len(t, got, 2, "the session after it is audited too")
			require.True(t, got[0].Broken(), "%+v", got[0])
			require.Contains(t, strings.Join(got[0].Unreadable, "\n"), audit.ScriptName)
			require.False(t, got[1].Failed())
			require.Equal(t, 1, sum.Broken)
			require.True(t, sum.Failed())
		})
	}
}

// TestFIFOsInTheTree: a FIFO among the session directories, and one in a
// session's history/ or as its meta.json, block nothing; the damaged
// session is broken, the others audited.
func TestFIFOsInTheTree(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, syscall.Mkfifo(filepath.Join(root, "a-fifo"), 0o644))
	build(t, filepath.Join(root, "b"), plainChat, false)
	require.NoError(t, syscall.Mkfifo(filepath.Join(root, "b", "history", "0009-u-x.json"), 0o644))
	build(t, filepath.Join(root, "c"), plainChat, false)
	require.NoError(t, os.Remove(filepath.Join(root, "c", "meta.json")))
	require.NoError(t, syscall.Mkfifo(filepath.Join(root, "c", "meta.json"), 0o644))
	build(t, filepath.Join(root, "d"), plainChat, false)
	var got []*audit.Session
	within(t, "FIFOs", func() {
		_, err := audit.Run([]string{root}, nil, func(s *audit.Session) { got = append(got, s) })
		require.NoError(t, err)
	})
	require.Len(t, got, 3)
	require.True(t, got[0].Broken(), "%+v", got[0])
	require.True(t, got[1].Broken(), "%+v", got[1])
	require.False(t, got[2].Failed(), "%+v", got[2])
}

// TestLinkedSessions: a session directory that is a link is audited, as a
// root and inside the tree; a directory reached twice (a link to a session
// the tree also holds, a loop of links) is audited once, and said so.
func TestLinkedSessions(t *testing.T) {
	store := t.TempDir()
	real := filepath.Join(store, "real")
	build(t, real, plainChat, false)

	sum, err := audit.Run([]string{mustLink(t, real, filepath.Join(t.TempDir(), "link"))}, nil, nil)
	require.NoError(t, err)
	require.Equal(t, 1, sum.Sessions, "audit LINK audits the session it names")
	require.False(t, sum.Failed())

	tree := t.TempDir()
	mustLink(t, real, filepath.Join(tree, "linked"))
	build(t, filepath.Join(tree, "own"), plainChat, false)
	mustLink(t, tree, filepath.Join(tree, "loop"))
	require.NoError(t, os.MkdirAll(filepath.Join(tree, "sub"), 0o755))
	mustLink(t, real, filepath.Join(tree, "sub", "again"))
	var dirs []string
	within(t, "a loop of links", func() {
		sum, err = audit.Run([]string{tree}, nil, func(s *audit.Session) { dirs = append(dirs, s.Dir) })
		require.NoError(t, err)
	})
	require.Equal(t, []string{filepath.Join(tree, "linked"), filepath.Join(tree, "own")}, dirs)
	notes := strings.Join(sum.TreeNotes, "\n")
	require.Contains(t, notes, filepath.Join(tree, "linked")+": a link to")
	require.Contains(t, notes, filepath.Join(tree, "loop")+": the same directory as "+tree)
	require.Contains(t, notes, filepath.Join(tree, "sub", "again")+": the same directory as "+filepath.Join(tree, "linked"))
	require.False(t, sum.Failed(), "a link followed is no problem: %v", sum.Problems())
}

func mustLink(t *testing.T, target, link string) string {
	t.Helper()
	require.NoError(t, os.Symlink(target, link))
	return link
}

// TestUnreadableDirectory: a directory of the tree that cannot be read is
// reported and the rest of the tree audited; the run is NOT READY with the
// reason. (Needs a user the permissions bind: root reads everything, and
// walk_internal_test.go covers the same path with an injected failure.)
func TestUnreadableDirectory(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads a directory of mode 000")
	}
	root := t.TempDir()
	build(t, filepath.Join(root, "a"), plainChat, false)
	locked := filepath.Join(root, "b")
	require.NoError(t, os.MkdirAll(filepath.Join(locked, "inner"), 0o755))
	require.NoError(t, os.Chmod(locked, 0))
	t.Cleanup(func() { os.Chmod(locked, 0o755) })
	build(t, filepath.Join(root, "c"), plainChat, false)
	sum, err := audit.Run([]string{root}, nil, nil)
	require.NoError(t, err)
	require.Equal(t, 2, sum.Sessions)
	require.True(t, sum.Failed())
	require.Contains(t, strings.Join(sum.Problems(), "\n"), locked)
}

// TestTruncatedHistoryIsBroken: a session whose history file was cut short
// counts as broken, and no step of it is a fix (judged on part of its
// files, a step can look like a fix while it moves the view away from
// what the files meant).
func TestTruncatedHistoryIsBroken(t *testing.T) {
	dir, script := cleanSession(t, 11)
	require.NoError(t, os.WriteFile(filepath.Join(dir, audit.ScriptName), []byte(script), 0o644))
	files, err := filepath.Glob(filepath.Join(dir, "history", "*.json"))
	require.NoError(t, err)
	victim := files[len(files)/3]
	b, err := os.ReadFile(victim)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(victim, b[:len(b)/2], 0o644))
	sum, err := audit.Run([]string{dir}, nil, func(s *audit.Session) {
		require.True(t, s.Broken())
		require.Contains(t, strings.Join(s.Unreadable, "\n"), filepath.Base(victim))
		for _, st := range s.Steps {
			require.NotEqual(t, audit.Fix, st.Verdict, "%s → %s: %s", st.From, st.To, st.Detail)
		}
	})
	require.NoError(t, err)
	require.Equal(t, 1, sum.Broken)
	require.True(t, sum.Failed())
}
