package exhaust

import (
	"encoding/binary"
	"encoding/json"
	"os"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"sessiondag/checker/harness"
	"sessiondag/impl/flags"
	"sessiondag/internal/shard"
	"sessiondag/ops"
)

// TestForkIsRebuild holds harness.Session.Fork, which the lanes take a
// sibling's session from, to a rebuild from the empty script, over every
// script of the 2-op walk (SESSIONDAG_FORK_OPS ops when set: 3 take two
// minutes) on each writers' start: a fork of the session after the prefix,
// given the last op, holds what a new session given the whole script holds
// (every side's state and every view of every config), and the session it
// was forked from still holds what the prefix left.
// TestForkIsRebuildCatches shows both halves failing.
func TestForkIsRebuild(t *testing.T) {
	max := 2
	if n, err := strconv.Atoi(os.Getenv("SESSIONDAG_FORK_OPS")); err == nil {
		max = n
	}
	for _, w := range writers {
		require.Zero(t, forkMismatch(t, w, max, (*harness.Session).Fork), "writers' start %s", w)
	}
}

// TestForkIsRebuildCatches runs the comparison of TestForkIsRebuild on
// broken forks: one that shares the models with the session it copies,
// and one that loses the writer's flags.
func TestForkIsRebuildCatches(t *testing.T) {
	shared := func(s *harness.Session) (*harness.Session, error) {
		c, err := s.Fork()
		if err == nil {
			c.Target, c.Legacy = s.Target, s.Legacy
		}
		return c, err
	}
	flagless := func(s *harness.Session) (*harness.Session, error) {
		c, err := s.Fork()
		if err == nil {
			c.Run().W.Flags = flags.Off
		}
		return c, err
	}
	require.NotZero(t, forkMismatch(t, flags.Off, 2, shared), "a fork sharing the models")
	require.NotZero(t, forkMismatch(t, flags.All, 2, flagless), "a fork that loses the flags")
}

// forkMismatch counts the scripts of at most max ops where fork differs
// from a rebuild, on the writers' start w.
func forkMismatch(t *testing.T, w flags.Set, max int, fork func(*harness.Session) (*harness.Session, error)) int {
	t.Helper()
	fresh := func(script []ops.Op) *harness.Session {
		s, err := harness.NewSession(harness.Options{Data: harness.Data{Name: "fork", Writer: w}})
		require.NoError(t, err)
		for _, op := range script {
			f, err := s.Apply(op)
			require.NoError(t, err)
			require.Nil(t, f)
		}
		return s
	}
	bad := 0
	err := Walk(max, nil, shard.Whole, func(n Node) bool {
		prefix, last := n.Script[:len(n.Script)-1], n.Script[len(n.Script)-1]
		p := fresh(prefix)
		c, err := fork(p)
		require.NoError(t, err)
		f, err := c.Apply(last)
		require.NoError(t, err)
		require.Nil(t, f)
		if got, want := encodeSession(t, c), encodeSession(t, fresh(n.Script)); got != want {
			bad++
			t.Logf("the fork after the prefix, given the last op, differs from a rebuild:\n%s", ops.String(n.Script))
		}
		if got, want := encodeSession(t, p), encodeSession(t, fresh(prefix)); got != want {
			bad++
			t.Logf("the session forked from changed with its fork:\n%s", ops.String(n.Script))
		}
		return true
	})
	require.NoError(t, err)
	return bad
}

// encodeSession is everything the checks and the walk read of a session:
// each side's state and the views of every config and both models.
func encodeSession(t *testing.T, s *harness.Session) string {
	b := s.Run().AppendState(nil)
	b = s.Legacy.AppendState(b)
	b = s.Target.AppendState(b)
	b = appendBool(appendBool(b, s.Strict()), s.LegacyWrites())
	b = binary.AppendUvarint(b, uint64(s.InForce()))
	b = s.Intended().AppendState(b)
	views := []any{s.LegacyView()}
	for _, fl := range flags.Rollout {
		views = append(views, s.Views(fl))
	}
	j, err := json.Marshal(views)
	require.NoError(t, err)
	return string(append(b, j...))
}
