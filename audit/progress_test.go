package audit_test

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sessiondag/audit"
)

// tick is a clock that moves on by step at every reading.
func tick(step time.Duration) func() time.Time {
	t := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	return func() time.Time {
		t = t.Add(step)
		return t
	}
}

// TestProgressLines: off a terminal, a plain line every few seconds while
// the tree is walked and while sessions are audited, with the sessions
// done of the total, the nodes, the rates, the time elapsed and an
// estimate of the time left; on a terminal the same line drawn over again
// and cleared at the end.
func TestProgressLines(t *testing.T) {
	root := t.TempDir()
	for _, n := range []string{"a", "b", "c"} {
		build(t, filepath.Join(root, "x", n), plainChat, false)
	}
	var plain bytes.Buffer
	_, err := audit.RunWith([]string{root}, audit.Options{Progress: &audit.Progress{W: &plain, Every: time.Second, Now: tick(time.Second)}}, nil)
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(plain.String()), "\n")
	require.Contains(t, lines[0], "audit: walking the tree: ")
	require.Contains(t, plain.String(), "directories, ")
	last := lines[len(lines)-1]
	for _, want := range []string{"audit: 3/3 sessions, 9 nodes, ", "sessions/s", "nodes/s", "about 0.0s left"} {
		require.Contains(t, last, want)
	}
	require.NotContains(t, plain.String(), "\r", "plain lines off a terminal")

	var quiet bytes.Buffer
	_, err = audit.RunWith([]string{root}, audit.Options{Progress: &audit.Progress{W: &quiet, Every: time.Hour, Now: tick(time.Second)}}, nil)
	require.NoError(t, err)
	require.Empty(t, quiet.String(), "a run shorter than the interval writes nothing")

	var term bytes.Buffer
	_, err = audit.RunWith([]string{root}, audit.Options{Progress: &audit.Progress{W: &term, Redraw: true, Now: tick(time.Second)}}, nil)
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(term.String(), "\r\033[K"))
	require.True(t, strings.HasSuffix(term.String(), "\r\033[K"), "the line is cleared at the end")
	require.NotContains(t, term.String(), "\n")
}

// TestInterruptStopsBetweenSessions: a run whose context ends stops before
// the next session and says so; its summary counts what it audited and is
// no verdict.
func TestInterruptStopsBetweenSessions(t *testing.T) {
	root := t.TempDir()
	for _, n := range []string{"a", "b", "c"} {
		build(t, filepath.Join(root, n), plainChat, false)
	}
	ctx, cancel := context.WithCancel(context.Background())
	seen := 0
	sum, err := audit.RunWith([]string{root}, audit.Options{Context: ctx}, func(*audit.Session) {
		seen++
		cancel()
	})
	require.True(t, errors.Is(err, audit.ErrInterrupted), "%v", err)
	require.Equal(t, 1, seen)
	require.Equal(t, 1, sum.Sessions)
	require.Equal(t, 3, sum.Found)
	require.True(t, sum.Failed(), "part of the run is no verdict")

	_, err = audit.RunWith([]string{root}, audit.Options{Context: ctx}, nil)
	require.True(t, errors.Is(err, audit.ErrInterrupted), "interrupted while walking: %v", err)
}
