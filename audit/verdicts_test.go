package audit_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"sessiondag/audit"
	"sessiondag/internal/shard"
)

// The totals, the merge of shards, the verdict and the page on hand-built
// sessions: each expectation is the statement of docs/rollout.md §8, not
// the audit's output.

// sessionOf is a session whose four steps have the verdicts given, in
// rollout order; broken when unreadable names a file.
func sessionOf(dir string, unreadable string, verdicts ...string) *audit.Session {
	s := &audit.Session{Dir: dir, ID: dir, Nodes: 4, Violations: []string{}, Residual: []audit.Residue{}}
	if unreadable != "" {
		s.Unreadable = []string{unreadable}
	}
	for i, v := range verdicts {
		st := audit.NewSummary().Steps[i]
		s.Steps = append(s.Steps, audit.Step{From: st.From, To: st.To, Verdict: v, Added: []audit.Row{}, Removed: []audit.Row{}})
	}
	return s
}

// twoSessions: a broken session (its changed steps unjudged, §8.4) and a
// whole one with a fix, a regression and an accepted step.
func twoSessions() []*audit.Session {
	return []*audit.Session{
		sessionOf("a", "history/0003-x.json: cut short", audit.Unchanged, audit.Unjudged, audit.Unjudged, audit.Unchanged),
		sessionOf("b", "", audit.Accepted, audit.Fix, audit.Regression, audit.Unchanged),
	}
}

// TestTotalsCountEachVerdict: each step's verdict counts in its own column
// — an unjudged step never as a fix — the regressions and the accepted
// steps in total, a broken session as broken, and the run is NOT READY
// (a broken session and a regression each block it).
func TestTotalsCountEachVerdict(t *testing.T) {
	sum := audit.NewSummary()
	sum.Found = 2
	for _, s := range twoSessions() {
		sum.Add(s)
	}
	var got [][5]int
	for _, st := range sum.Steps {
		got = append(got, [5]int{st.Unchanged, st.Fix, st.Regression, st.Unjudged, st.Accepted})
	}
	//                 unchanged fix regression unjudged accepted
	require.Equal(t, [][5]int{{1, 0, 0, 0, 1}, {0, 1, 0, 1, 0}, {0, 0, 1, 1, 0}, {2, 0, 0, 0, 0}}, got)
	require.Equal(t, 2, sum.Sessions)
	require.Equal(t, 1, sum.Broken)
	require.Equal(t, 1, sum.Regressions)
	require.Equal(t, 1, sum.Accepted)
	require.True(t, sum.Failed())
}

// TestMergeAddsEveryCount: the summaries of the two shards of a split, one
// session each, merge into the summary of the whole run: every count adds,
// and the merge is a verdict on the whole (every shard once, one tree).
func TestMergeAddsEveryCount(t *testing.T) {
	ss := twoSessions()
	whole := audit.NewSummary()
	whole.Found = len(ss)
	merged := audit.NewSummary()
	for i, s := range ss {
		whole.Add(s)
		part := audit.NewSummary()
		part.Found, part.Shard = len(ss), shard.Shard{I: i, N: len(ss)}.String()
		part.Add(s)
		require.NoError(t, merged.Merge(part))
	}
	require.Empty(t, merged.Problems())
	require.Equal(t, []string{"0/2", "1/2"}, merged.Shards)
	merged.Shards = nil
	require.Equal(t, whole, merged)
}

// TestReadyOnlyOnSomething: a summary of nothing is no verdict, and a
// whole run is ready only without a broken session, a violation or a
// regression (§8.5).
func TestReadyOnlyOnSomething(t *testing.T) {
	require.True(t, audit.NewSummary().Failed(), "nothing found: NOT READY")
	require.NotEmpty(t, audit.NewSummary().Problems())
	for _, c := range []struct {
		name  string
		set   func(*audit.Summary)
		ready bool
	}{
		{"clean", func(*audit.Summary) {}, true},
		{"broken", func(s *audit.Summary) { s.Broken = 1 }, false},
		{"violation", func(s *audit.Summary) { s.Violations = 1 }, false},
		{"regression", func(s *audit.Summary) { s.Regressions = 1 }, false},
		{"part audited", func(s *audit.Summary) { s.Found = 2 }, false},
	} {
		sum := audit.NewSummary()
		sum.Found, sum.Sessions = 1, 1
		c.set(sum)
		require.Equal(t, c.ready, !sum.Failed(), c.name)
	}
}

// TestPageListsEveryBlockingSession: a broken session blocks the rollout
// (§8.4) and is on the page's blocking list even when no step changes its
// view — whether it could not be opened or a file of it could not be
// used; a session no step changes is only counted.
func TestPageListsEveryBlockingSession(t *testing.T) {
	unopened := sessionOf("unopened", "")
	unopened.Error = "history: permission denied"
	sessions := []*audit.Session{
		unopened,
		sessionOf("unreadable", "history/0003-x.json: cut short", audit.Unchanged, audit.Unchanged, audit.Unchanged, audit.Unchanged),
		sessionOf("plain", "", audit.Unchanged, audit.Unchanged, audit.Unchanged, audit.Unchanged),
	}
	var pg audit.Page
	sum := audit.NewSummary()
	sum.Found = len(sessions)
	for _, s := range sessions {
		pg.Add(s)
		sum.Add(s)
	}
	var buf bytes.Buffer
	require.NoError(t, pg.Write(&buf, sum))
	root := parsePage(t, buf.Bytes())
	secs := root.find(func(e *elem) bool { return e.name == "section" && e.hasClass("session") })
	var got []string
	for _, s := range secs {
		got = append(got, s.attr["data-status"]+" "+strings.TrimSpace(s.find(func(e *elem) bool { return e.name == "h2" })[0].text.String()))
	}
	require.Equal(t, []string{"broken unopened", "broken unreadable"}, got)
	require.Contains(t, buf.String(), "2 blocking, 0 at risk")
	require.Contains(t, buf.String(), "Unchanged: 1 sessions")
}
