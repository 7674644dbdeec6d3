package shard

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Shard
		ok   bool
	}{
		{"0/1", Shard{0, 1}, true}, {"3/8", Shard{3, 8}, true}, {" 1/2 ", Shard{1, 2}, true},
		{"8/8", Shard{}, false}, {"-1/2", Shard{}, false}, {"1/0", Shard{}, false},
		{"1", Shard{}, false}, {"a/b", Shard{}, false}, {"", Shard{}, false}, {"1/2/3", Shard{}, false},
	} {
		got, err := Parse(tc.in)
		if tc.ok {
			require.NoError(t, err, tc.in)
			require.Equal(t, tc.want, got, tc.in)
		} else {
			require.Error(t, err, tc.in)
		}
	}
}

// TestPartsOwnEachItemOnce: the n shards of a split own every item exactly
// once, and splitting a shard further keeps its items and no other.
func TestPartsOwnEachItemOnce(t *testing.T) {
	const n, k, items = 3, 4, 200
	for item := uint64(0); item < items; item++ {
		owners := 0
		for i := range n {
			s := Shard{i, n}
			if !s.Owns(item) {
				continue
			}
			owners++
			sub := 0
			for j := range k {
				if s.Split(k, j).Owns(item) {
					sub++
				}
			}
			require.Equal(t, 1, sub, "item %d of shard %v", item, s)
		}
		require.Equal(t, 1, owners, "item %d", item)
	}
	require.True(t, Shard{}.Owns(7))
	require.True(t, Shard{}.IsWhole())
	require.Equal(t, "0/1", Shard{}.String())
}

func TestCoverage(t *testing.T) {
	require.Empty(t, Coverage([]string{"1/3", "0/3", "2/3"}))
	require.Empty(t, Coverage([]string{"0/1"}))
	require.Equal(t, []string{"no shard was given"}, Coverage(nil))
	require.Equal(t, []string{"1 of 3 shards missing: 1/3"}, Coverage([]string{"0/3", "2/3"}))
	require.Equal(t, []string{"1 of 3 shards missing: 2/3", "shard 1/3 given 2 times"},
		Coverage([]string{"0/3", "1/3", "1/3"}))
	require.Equal(t, []string{"1 of 2 shards missing: 1/2", "shards of different splits (/2 and /3)"},
		Coverage([]string{"0/2", "1/3"}))
	require.Len(t, Coverage([]string{"x"}), 1)
}

// TestCoverageOfAHugeSplit: a shard name of a split into two billion parts
// (a hostile or mistyped summary record) is judged at the cost of the names
// given, naming the first missing parts and counting the rest.
func TestCoverageOfAHugeSplit(t *testing.T) {
	got := Coverage([]string{"0/2000000000", "2/2000000000"})
	require.Len(t, got, 1)
	require.True(t, strings.HasPrefix(got[0], "1999999998 of 2000000000 shards missing: 1/2000000000, 3/2000000000, "), got[0])
	require.True(t, strings.HasSuffix(got[0], ", 21/2000000000, … (1999999978 more)"), got[0])
}
