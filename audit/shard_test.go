package audit_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"testing"

	"github.com/stretchr/testify/require"

	"sessiondag/audit"
	"sessiondag/internal/shard"
	"sessiondag/internal/verdict"
)

// TestShardsSplitAndMerge: the shards of a split are disjoint, together
// audit every session once, and their summaries merge — also after a JSON
// round trip, as `sessiondag summary` reads them — into the summary of the
// whole run (times aside).
func TestShardsSplitAndMerge(t *testing.T) {
	roots := []string{filepath.Join("..", "corpus")}
	var all []string
	whole, err := audit.Run(roots, nil, func(s *audit.Session) { all = append(all, s.Dir) })
	require.NoError(t, err)
	const n = 3
	merged := audit.NewSummary()
	var union []string
	for i := 0; i < n; i++ {
		part, err := audit.RunWith(roots, audit.Options{Shard: shard.Shard{I: i, N: n}}, func(s *audit.Session) { union = append(union, s.Dir) })
		require.NoError(t, err)
		require.False(t, part.Failed())
		require.Equal(t, verdict.PassBecause(fmt.Sprintf("no finding in shard %d/3; the verdict on the whole is the merge of every shard (sessiondag summary)", i)),
			part.Verdict(), "one shard is not the whole input: no ready")
		b, err := json.Marshal(part)
		require.NoError(t, err)
		var back audit.Summary
		require.NoError(t, json.Unmarshal(b, &back))
		require.NoError(t, merged.Merge(&back))
	}
	sort.Strings(union)
	require.Equal(t, all, union, "the shards are disjoint and cover the run")
	require.Empty(t, merged.ShardProblems())
	require.Equal(t, []string{"0/3", "1/3", "2/3"}, merged.Shards)
	require.Equal(t, verdict.Pass, merged.Verdict().Outcome, "every shard once: the whole input")
	require.Equal(t, whole.Verdict(), merged.Verdict(), "the merge says what the whole run says")
	merged.Seconds, whole.Seconds, merged.Shards = 0, 0, nil
	require.Equal(t, whole, merged)

	incomplete := audit.NewSummary()
	part, err := audit.RunWith(roots, audit.Options{Shard: shard.Shard{I: 1, N: n}}, nil)
	require.NoError(t, err)
	require.NoError(t, incomplete.Merge(part))
	require.NoError(t, incomplete.Merge(part))
	require.Equal(t, []string{"2 of 3 shards missing: 0/3, 2/3", "shard 1/3 given 2 times"}, incomplete.ShardProblems())
	require.Equal(t, verdict.Undecided, incomplete.Verdict().Outcome, "a merge that is not every shard once is no verdict")
	require.Equal(t, verdict.ExitUndecided, incomplete.Verdict().Exit())

	_, err = audit.RunWith(roots, audit.Options{Shard: shard.Shard{I: 3, N: n}}, nil)
	require.Error(t, err)
}
