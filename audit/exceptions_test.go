package audit_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sessiondag/audit"
	"sessiondag/internal/shard"
)

var day = time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)

func exceptions(t *testing.T, text string) *audit.Exceptions {
	t.Helper()
	x, err := audit.ParseExceptions([]byte(text), "exceptions.json", day)
	require.NoError(t, err)
	return x
}

// lostSession builds whereCases' "lost" session (A → A,B loses o1) in a
// tree of its own.
func lostSession(t *testing.T) string {
	root := t.TempDir()
	for _, c := range whereCases {
		if c.name == "lost" {
			build(t, filepath.Join(root, "lost"), c.script, false)
		}
	}
	return root
}

// TestExceptionsAccept: a reviewed exception turns the regression it names
// into an accepted step, counted apart, and the run is ready; an expired one
// accepts nothing; one that names no finding is reported stale.
func TestExceptionsAccept(t *testing.T) {
	root := lostSession(t)
	for _, c := range []struct {
		name    string
		file    string
		verdict string
		ready   bool
		stale   int
	}{
		{"accepts", `{"exceptions": [{"session": "lost", "step": "A → A,B", "row": "o1", "reason": "a probe row of a test client"}]}`, audit.Accepted, true, 0},
		{"by-directory", `{"exceptions": [{"session": "` + filepath.Join(root, "lost") + `", "step": "A -> A,B", "row": "o1", "reason": "r", "expires": "2026-03-10"}]}`, audit.Accepted, true, 0},
		{"expired", `{"exceptions": [{"session": "lost", "step": "A → A,B", "row": "o1", "reason": "r", "expires": "2026-03-09"}]}`, audit.Regression, false, 0},
		{"another-row", `{"exceptions": [{"session": "lost", "step": "A → A,B", "row": "u1", "reason": "r"}]}`, audit.Regression, false, 1},
		{"another-step", `{"exceptions": [{"session": "lost", "step": "A,B → A,B,C", "row": "o1", "reason": "r"}]}`, audit.Regression, false, 1},
		{"another-session", `{"exceptions": [{"session": "local_gone", "step": "A → A,B", "row": "o1", "reason": "r"}]}`, audit.Regression, false, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			var got *audit.Session
			sum, err := audit.RunWith([]string{root}, audit.Options{Exceptions: exceptions(t, c.file)}, func(s *audit.Session) { got = s })
			require.NoError(t, err)
			require.Equal(t, c.verdict, step(t, got, "A", "A,B").Verdict)
			require.Equal(t, c.ready, !sum.Failed(), "%+v", sum)
			require.Len(t, sum.Stale(), c.stale)
			require.Len(t, sum.Exceptions, 1)
			if c.verdict == audit.Accepted {
				require.Equal(t, 1, sum.Accepted)
				require.Zero(t, sum.Regressions)
				require.True(t, sum.Exceptions[0].Used)
			}
			require.Equal(t, c.name == "expired", sum.Exceptions[0].Expired)
		})
	}
}

// TestExceptionsAcrossShards: an exception of a session another shard
// audits is not stale in this shard's summary, and the merge of every
// shard knows it was used.
func TestExceptionsAcrossShards(t *testing.T) {
	root := lostSession(t)
	build(t, filepath.Join(root, "plain"), plainChat, false)
	x := exceptions(t, `{"exceptions": [{"session": "lost", "step": "A → A,B", "row": "o1", "reason": "r"}]}`)
	merged := audit.NewSummary()
	for i := 0; i < 2; i++ {
		part, err := audit.RunWith([]string{root}, audit.Options{Exceptions: x, Shard: shard.Shard{I: i, N: 2}}, nil)
		require.NoError(t, err)
		require.Empty(t, part.Stale(), "shard %d", i)
		require.NoError(t, merged.Merge(part))
	}
	require.Empty(t, merged.Stale())
	require.True(t, merged.Exceptions[0].Used)
	require.Equal(t, 1, merged.Accepted)
	require.False(t, merged.Failed(), "%v", merged.Problems())
}

// TestExceptionsFileIsChecked: a file that is not a reviewed list is
// refused, naming the exception and the field.
func TestExceptionsFileIsChecked(t *testing.T) {
	for text, want := range map[string]string{
		`{"exceptions": [{"session": "s", "step": "A → A,B", "row": "r"}]}`:                                                                               `exception 1: field "reason": missing`,
		`{"exceptions": [{"session": "s", "step": "A → B", "row": "r", "reason": "x"}]}`:                                                                  `field "step": "A → B" is no step of the rollout path`,
		`{"exceptions": [{"session": "s", "step": "A,B", "row": "r", "reason": "x"}]}`:                                                                    `field "step": "A,B": want FROM → TO`,
		`{"exceptions": [{"session": "s", "step": "A → A,B", "row": "r", "reason": "x", "expires": "2026-13-01"}]}`:                                       `field "expires": "2026-13-01" is not a date`,
		`{"exceptions": [{"session": "s", "step": "A → A,B", "row": "r", "reason": "x", "until": "2026"}]}`:                                               `unknown field "until"`,
		`{"exceptions": [{"session": "s", "step": "A → A,B", "row": "r", "reason": "x"}, {"session": "s", "step": "A->A,B", "row": "r", "reason": "y"}]}`: "exception 2 is exception 1 again",
		`{}`:         `no "exceptions" list`,
		`[not json]`: "exceptions.json",
		// A second object (two files pasted together) is not silently left
		// unread; it starts at byte 19, after the first (0-18) and a space.
		`{"exceptions": []} {"exceptions": [{"session": "s", "step": "A → A,B", "row": "r", "reason": "x"}]}`: "data after the exceptions object (at byte 19)",
		// Of several missing fields the first in the file's order is named.
		`{"exceptions": [{"step": "A → A,B"}]}`: `exception 1: field "session": missing`,
	} {
		_, err := audit.ParseExceptions([]byte(text), "exceptions.json", day)
		require.Error(t, err, text)
		require.True(t, strings.Contains(err.Error(), want), "%s: %v", text, err)
		require.True(t, strings.HasPrefix(err.Error(), "exceptions.json"), "%v", err)
	}
}

// TestExceptionsErrorIsStable: the error for an exception missing several
// fields is the same on every read (the fields are checked in a fixed
// order, not a map's).
func TestExceptionsErrorIsStable(t *testing.T) {
	text := []byte(`{"exceptions": [{"step": "A → A,B"}]}`)
	_, first := audit.ParseExceptions(text, "exceptions.json", day)
	require.Error(t, first)
	for range 50 {
		_, err := audit.ParseExceptions(text, "exceptions.json", day)
		require.EqualError(t, err, first.Error())
	}
}
