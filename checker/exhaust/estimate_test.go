package exhaust

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"sessiondag/internal/shard"
)

// exactSizes counts the scripts of each part of a walk by walking it.
func exactSizes(t *testing.T, max int, kinds []string) []float64 {
	t.Helper()
	var out []float64
	part := -1
	require.NoError(t, Walk(max, kinds, shard.Whole, func(n Node) bool {
		if n.Part >= 0 {
			out = append(out, 0)
			part = n.Part
		}
		out[part]++
		return true
	}))
	return out
}

// sizeKinds keep the walks of these tests to seconds while every op that
// names an earlier node, reruns a turn or hands the ops to another writer
// is among them.
var sizeKinds = []string{"user", "reply", "tool", "retry", "checkout", "rewind", "flag", "writer"}

// TestSizesOneBelowAreExact: one op below the parts, a probe sees every
// choice there is, so each part's size is its count, variance 0; the parts
// above ShardDepth are one script each.
func TestSizesOneBelowAreExact(t *testing.T) {
	max := ShardDepth + 1
	want := exactSizes(t, max, sizeKinds)
	got, err := estimateSizes(max, shape{kinds: sizeKinds}, func(int) (bool, error) { return true, nil }, sizeProbes, nil)
	require.NoError(t, err)
	require.Equal(t, want, got.Scripts)
	total, se := got.Total(nil)
	require.Zero(t, se)
	require.Equal(t, sum(want), total)
}

// TestSizesEstimateTheWalk: three ops below the parts the estimate of the
// whole is within three standard errors of the count, and within 5 %; a
// shard's parts are those it owns. The probes are seeded by part, so the
// test is the same every run.
func TestSizesEstimateTheWalk(t *testing.T) {
	if testing.Short() {
		t.Skip("walks 6 ops")
	}
	max := ShardDepth + 3
	kinds := []string{"user", "reply", "retry", "checkout", "flag"}
	want := sum(exactSizes(t, max, kinds))
	got, err := estimateSizes(max, shape{kinds: kinds}, func(int) (bool, error) { return true, nil }, sizeProbes, nil)
	require.NoError(t, err)
	total, se := got.Total(nil)
	t.Logf("%.0f scripts, estimated %.0f ± %.0f", want, total, se)
	require.Positive(t, se)
	require.LessOrEqual(t, math.Abs(total-want), 3*se, "estimate %.0f ± %.0f of %.0f scripts", total, se, want)
	require.Less(t, math.Abs(total-want)/want, 0.05)

	sh := shard.Shard{I: 1, N: 3}
	own, err := estimateSizes(max, shape{kinds: kinds}, func(k int) (bool, error) { return sh.Owns(uint64(k)), nil }, sizeProbes, nil)
	require.NoError(t, err)
	for k := range own.Scripts {
		if sh.Owns(uint64(k)) {
			require.Equal(t, got.Scripts[k], own.Scripts[k], "part %d", k)
		} else {
			require.Zero(t, own.Scripts[k], "part %d", k)
		}
	}
}

// TestSizesQuit: a closed quit stops the sizing with errQuit.
func TestSizesQuit(t *testing.T) {
	quit := make(chan struct{})
	close(quit)
	_, err := estimateSizes(ShardDepth+1, shape{kinds: sizeKinds}, func(int) (bool, error) { return true, nil }, sizeProbes, quit)
	require.ErrorIs(t, err, errQuit)
}

func sum(xs []float64) float64 {
	var s float64
	for _, x := range xs {
		s += x
	}
	return s
}
