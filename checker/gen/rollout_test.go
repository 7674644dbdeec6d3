package gen_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"sessiondag/checker/gen"
	"sessiondag/checker/harness"
	"sessiondag/model"
	"sessiondag/ops"
)

// TestRolloutText: a rollout reads back as it prints; bad phases are refused
// with the phase named.
func TestRolloutText(t *testing.T) {
	for _, text := range []string{"all", "off:10/A+off:20/A,B:5/A:10/all", "off:3/A,B+A+off:4/off"} {
		r, err := gen.ParseRollout(text)
		require.NoError(t, err, text)
		require.Equal(t, text, r.String())
	}
	r, err := gen.ParseRollout("off:10/A+off:20/A,B:5/A:10/all")
	require.NoError(t, err)
	require.Equal(t, []gen.Phase{{Steps: []int{0}, Ops: 10}, {Steps: []int{1, 0}, Ops: 20}, {Steps: []int{2}, Ops: 5},
		{Steps: []int{1}, Ops: 10}, {Steps: []int{4}}}, r.Phases)
	for _, bad := range []string{"off/A", "off:0/A", "off:x/A", "off:2/B", "off:2/A+A+A+A", "off:2/"} {
		_, err := gen.ParseRollout(bad)
		require.Error(t, err, bad)
	}
}

// TestRolloutDrives: scripts drawn under a drawn rollout are valid, their
// flags in force follow the plan phase by phase, a rollout drawn without
// rollbacks only moves forward, and one with them reaches every kind of
// move; the same rollout applied to a script written without one
// (replay --rollout) keeps every op of it, its turns each with one writer.
func TestRolloutDrives(t *testing.T) {
	var back, writers int
	for seed := uint64(1); seed <= 100; seed++ {
		src := gen.NewSeeded(seed)
		withBack := seed%2 == 0
		r := gen.DrawRollout(src, 0, withBack, 3, 60)
		g := gen.New(gen.Options{Legacy: true, Rollout: r})
		script := g.Script(src, 60)
		requireValid(t, script, r)
		requireFollows(t, script, r)
		flips := harness.FlipsFrom(0, script)
		if !withBack {
			require.LessOrEqual(t, flips, harness.Forward, "a rollout without rollbacks moved back: %s", r)
		}
		if flips == harness.Any {
			back++
		}
		if g.Tally.Shapes[gen.ShapeWriters] > 0 {
			writers++
		}
		plain := gen.New(gen.Options{Legacy: true}).Script(gen.NewSeeded(seed), 60)
		applied, left := r.Apply(plain)
		requireValid(t, applied, r)
		for _, at := range left {
			_, compact := plain[at].(ops.Compact)
			require.True(t, compact, "replay --rollout left out op %d, %s: only a compaction may not apply", at+1, ops.String(plain[at:at+1]))
		}
		plain = slices.Clone(plain)
		for j := len(left) - 1; j >= 0; j-- {
			plain = slices.Delete(plain, left[j], left[j]+1)
		}
		var kept []ops.Op
		for _, op := range applied {
			switch op.(type) {
			case ops.Flag, ops.Writer:
			default:
				kept = append(kept, op)
			}
		}
		require.Equal(t, plain, kept, "replay --rollout dropped or changed an op of the script")
	}
	require.Positive(t, back, "no drawn rollout rolled a step back")
	require.Positive(t, writers, "no drawn rollout had writers take turns")
}

func requireValid(t *testing.T, script []ops.Op, r *gen.Rollout) {
	t.Helper()
	run := model.NewLegacy(ops.DefaultSession)
	for i, op := range script {
		require.NoError(t, run.Apply(op), "rollout %s, op %d of\n%s", r, i+1, ops.String(script))
	}
}

// requireFollows: after each op the generator drew under r, the writer
// performing the ops is one of its phase's and runs that writer's step.
func requireFollows(t *testing.T, script []ops.Op, r *gen.Rollout) {
	t.Helper()
	name, step := ops.FirstWriter, 0
	for i, op := range script {
		switch op := op.(type) {
		case ops.Flag:
			step, _ = op.Step()
		case ops.Writer:
			name = op.Name
			step, _ = op.Step()
		}
		at, k := 0, 0
		for k < len(r.Phases)-1 && i >= at+r.Phases[k].Ops {
			at += r.Phases[k].Ops
			k++
		}
		var w int
		_, err := fmt.Sscanf(name, "w%d", &w)
		require.NoError(t, err)
		steps := r.Phases[k].Steps
		require.True(t, w <= len(steps) && steps[w-1] == step, "rollout %s, op %d (phase %d): writer %s on step %d\n%s",
			r, i+1, k+1, name, step, ops.String(script))
	}
}
