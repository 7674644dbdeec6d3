package exhaust

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestMerge: shard summaries add up; a missing or repeated shard, or runs
// of different sizes, are reported.
func TestMerge(t *testing.T) {
	a := Summary{MaxOps: 2, Shard: "0/2", Scripts: 3, ByLength: []int64{1, 2}, Runs: 5, Seconds: 2, CPUSeconds: 1}
	b := Summary{MaxOps: 2, Shard: "1/2", Scripts: 4, ByLength: []int64{2, 2}, Runs: 7, Seconds: 3, CPUSeconds: 2}
	m, complete, err := Merge([]Summary{a, b})
	require.NoError(t, err)
	require.True(t, complete)
	require.Equal(t, Summary{MaxOps: 2, Shard: "merged 2", Merged: []string{"0/2", "1/2"}, Scripts: 7,
		ByLength: []int64{3, 4}, Runs: 12, Seconds: 3, CPUSeconds: 3}, m)
	again, complete, err := Merge([]Summary{m})
	require.NoError(t, err)
	require.True(t, complete)
	require.Equal(t, m.Scripts, again.Scripts)
	_, complete, err = Merge([]Summary{a})
	require.NoError(t, err)
	require.False(t, complete, "shard 1/2 is missing")
	_, complete, err = Merge([]Summary{a, a})
	require.NoError(t, err)
	require.False(t, complete, "shard 0/2 twice")
	_, _, err = Merge([]Summary{a, {MaxOps: 3, Shard: "1/2"}})
	require.Error(t, err)
}
