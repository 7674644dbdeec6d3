package exhaust

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"sessiondag/checker/gen"
	"sessiondag/internal/shard"
	"sessiondag/ops"
)

// shaped walks max ops of shape s whole: each script's text, and whether
// the walk marked it Between. A script walked twice (a variant written
// plain offered again beside the op it is) fails.
func shaped(t *testing.T, max int, s shape) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	require.NoError(t, walkWith(max, s, shard.Whole, visitFunc(func(n Node) bool {
		text := ops.String(n.Script)
		_, twice := out[text]
		require.False(t, twice, "walked twice:\n%s", text)
		out[text] = n.Between
		return true
	})))
	return out
}

// TestTogetherShape: with user+reply written in one step, the walk is the
// plain walk's scripts in which every user op but a last one is followed
// by a reply op (worked out from the plain walk, not by the shaped one),
// and exactly those ending in a user op are Between. It fails if the walk
// offers any op after a user op but reply (an extra script), stops below a
// script ending between the pair (a missing one), or marks the wrong ones.
func TestTogetherShape(t *testing.T) {
	const max = 3
	got := shaped(t, max, shape{together: [][2]string{{"user", "reply"}}})
	want := map[string]bool{}
	require.NoError(t, Walk(max, nil, shard.Whole, func(n Node) bool {
		for i, op := range n.Script[:len(n.Script)-1] {
			if op.Kind() == "user" && n.Script[i+1].Kind() != "reply" {
				return false // and so is everything below
			}
		}
		want[ops.String(n.Script)] = n.Script[len(n.Script)-1].Kind() == "user"
		return true
	}))
	require.Equal(t, want, got)
	between := 0
	for _, b := range got {
		if b {
			between++
		}
	}
	require.NotZero(t, between)
	t.Logf("%d scripts, %d of them between", len(got), between)
}

// TestWithoutShape: without rooted, object and end-duration, no op of the
// walk carries them; every script of the plain walk with none of them is
// walked; and each walked script is one of the plain walk with its ends
// given their duration back (the plain end is the only op the walk offers
// in place of a variant: a rooted dispatch and an object tool written
// plain are ops it offers already). It fails if a variant is offered, if a
// script is lost, or if the variants are written as anything else.
func TestWithoutShape(t *testing.T) {
	const max = 3
	got := shaped(t, max, shape{without: []string{"rooted", "object", "end-duration"}})
	plain := shaped(t, max, shape{})
	variant := func(op ops.Op) bool {
		switch o := op.(type) {
		case ops.UserDispatch:
			return o.Rooted
		case ops.Tool:
			return o.Object
		case ops.End:
			return o.Duration != ""
		}
		return false
	}
	require.NotZero(t, walkedBut(t, max, got, variant))
	for text := range got {
		script, err := ops.ParseString(text)
		require.NoError(t, err)
		require.False(t, slices.ContainsFunc(script, variant), "a variant walked:\n%s", text)
		for i, op := range script {
			if e, ok := op.(ops.End); ok {
				e.Duration = duration
				script[i] = e
			}
		}
		_, ok := plain[ops.String(script)]
		require.True(t, ok, "not a plain script with its ends' durations back:\n%s", text)
	}
}

// TestWithoutDrawKinds: without tool-legacy and fn-via-exec (draw kinds an
// op's fields make: R's adapter declares both), no script of the walk holds
// a legacy tool edge or a function entered from an exec's tool loop, and
// every script of the plain walk with neither is walked.
func TestWithoutDrawKinds(t *testing.T) {
	const max = 3
	without := []string{"tool-legacy", "fn-via-exec"}
	got := shaped(t, max, shape{without: without})
	held := func(op ops.Op) bool { return gen.Held(op, without) != "" }
	require.NotZero(t, walkedBut(t, max, got, held), "the plain walk holds no legacy tool edge: nothing left out")
	for text := range got {
		script, err := ops.ParseString(text)
		require.NoError(t, err)
		require.False(t, slices.ContainsFunc(script, held), "a held draw kind walked:\n%s", text)
	}
}

// walkedBut requires every script of the plain walk of at most max ops
// with no op out to be in got, and counts those with one.
func walkedBut(t *testing.T, max int, got map[string]bool, out func(ops.Op) bool) int {
	t.Helper()
	n := 0
	require.NoError(t, Walk(max, nil, shard.Whole, func(nd Node) bool {
		if slices.ContainsFunc(nd.Script, out) {
			n++
			return true
		}
		_, ok := got[ops.String(nd.Script)]
		require.True(t, ok, "lost:\n%s", ops.String(nd.Script))
		return true
	}))
	return n
}
