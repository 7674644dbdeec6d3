package hunt

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"testing"
	"time"

	"sessiondag/checker/harness"
	"sessiondag/internal/shard"
	"sessiondag/ops"
)

// holds is a check that never fails: the runs below measure what is
// played, not what is found.
var holds = []harness.Check{{Name: "holds", Run: func(*harness.Session) *harness.Finding { return nil },
	Data: []harness.Data{harness.OffAny, harness.WrittenOn}}}

func played(t *testing.T, cfg Config) []Played {
	t.Helper()
	cfg.Seed, cfg.Targets, cfg.MaxOps, cfg.Workers = 42, holds, 8, 2
	r, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if r.Scripts != len(r.Played) {
		t.Fatalf("%d scripts counted, %d played", r.Scripts, len(r.Played))
	}
	return r.Played
}

// Shards i/n over the same iterations are disjoint and their union is the
// unsharded run: every script seed once.
func TestShardsPartitionTheRun(t *testing.T) {
	const iterations, n = 90, 4
	whole := map[uint64]uint64{} // script seed → iteration
	for _, p := range played(t, Config{Iterations: iterations}) {
		whole[p.Seed] = p.Iteration
	}
	if len(whole) != iterations {
		t.Fatalf("the unsharded run played %d distinct script seeds, want %d", len(whole), iterations)
	}
	union := map[uint64]string{}
	for i := 0; i < n; i++ {
		for _, p := range played(t, Config{Iterations: iterations, Shard: shard.Shard{I: i, N: n}}) {
			if p.Iteration%n != uint64(i) {
				t.Errorf("shard %d/%d played iteration %d", i, n, p.Iteration)
			}
			if prev, ok := union[p.Seed]; ok {
				t.Errorf("script seed %d played by shard %s and shard %d/%d", p.Seed, prev, i, n)
			}
			union[p.Seed] = fmt.Sprintf("%d/%d", i, n)
			if k, ok := whole[p.Seed]; !ok || k != p.Iteration {
				t.Errorf("shard %d/%d played script seed %d (iteration %d), which the whole run does not", i, n, p.Seed, p.Iteration)
			}
		}
	}
	if len(union) != len(whole) {
		t.Errorf("the shards played %d script seeds, the whole run %d", len(union), len(whole))
	}
}

// With a time budget the iterations played are the first ones of the
// shard, none skipped: what a longer run plays extends what a shorter one
// played.
func TestBudgetPlaysTheFirstIterations(t *testing.T) {
	got := played(t, Config{Budget: 300 * time.Millisecond, Shard: shard.Shard{I: 1, N: 3}})
	if len(got) == 0 {
		t.Fatal("nothing played in 300ms")
	}
	for j, p := range got {
		if want := uint64(1 + 3*j); p.Iteration != want {
			t.Fatalf("the %d-th iteration played is %d, want %d", j+1, p.Iteration, want)
		}
	}
}

// An iteration is a function of the campaign's seed and its number: the
// same plan every time, and its script seed is ScriptSeed's.
func TestPlanIsReplayable(t *testing.T) {
	targets := Targets()
	for k := uint64(0); k < 20; k++ {
		a, err := PlanFor(7, k, targets, 30)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := PlanFor(7, k, targets, 30)
		if a.Seed != ScriptSeed(7, k) || a.Case.Check.Name != b.Case.Check.Name || a.Case.Data.Name != b.Case.Data.Name ||
			a.Swarm.String() != b.Swarm.String() || ops.String(a.Case.Script) != ops.String(b.Case.Script) ||
			fmt.Sprint(a.Case.Damage) != fmt.Sprint(b.Case.Damage) || a.Case.FirstSeq != b.Case.FirstSeq {
			t.Fatalf("iteration %d drew two different plans", k)
		}
		if c, _ := PlanFor(8, k, targets, 30); c.Seed == a.Seed {
			t.Fatalf("iteration %d has one script seed under campaign seeds 7 and 8", k)
		}
	}
}

// The summaries of the shards of a campaign merge into the counts of the
// unsharded run, and the merge says whether every shard is there once.
func TestSummariesMerge(t *testing.T) {
	run := func(i, n int) Summary {
		r, err := Run(context.Background(), Config{Seed: 9, Iterations: 40, Shard: shard.Shard{I: i, N: n},
			Targets: holds, MaxOps: 8, Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		return r.Summary()
	}
	whole := run(0, 1)
	parts := []Summary{run(0, 3), run(1, 3), run(2, 3)}
	m, complete, err := Merge(parts)
	if err != nil || !complete {
		t.Fatalf("merge: complete %v, %v", complete, err)
	}
	if !maps.Equal(m.Shapes, whole.Shapes) {
		t.Errorf("merged shapes %v, the whole run's %v", m.Shapes, whole.Shapes)
	}
	if m.Scripts != whole.Scripts || m.Ops != whole.Ops || m.Findings != whole.Findings {
		t.Errorf("merged %d scripts, %d ops, %d findings; the whole run %d, %d, %d",
			m.Scripts, m.Ops, m.Findings, whole.Scripts, whole.Ops, whole.Findings)
	}
	for i, p := range m.Properties {
		if w := whole.Properties[i]; p.Scripts != w.Scripts || p.Ops != w.Ops {
			t.Errorf("%s [%s]: merged %d scripts, %d ops; the whole run %d, %d", p.Check, p.Data, p.Scripts, p.Ops, w.Scripts, w.Ops)
		}
	}
	if _, complete, _ := Merge(parts[:2]); complete {
		t.Error("two shards of three merge as complete")
	}
	if _, complete, _ := Merge(append(parts, parts[0])); complete {
		t.Error("a shard read twice merges as complete")
	}
	other := run(0, 1)
	other.Seed = 10
	if _, _, err := Merge([]Summary{whole, other}); err == nil {
		t.Error("summaries of two campaigns merge")
	}
}

// TestShardsMergeAsOneCampaign: the merge of a campaign's shards is the
// whole campaign's summary, whatever the split: a failure two shards find,
// a rollout plan or a swarm configuration two shards draw counts once, in
// the totals and in each property's row (before, each shard's distinct
// count was summed, so the merge of four shards found more distinct
// failures than the campaign).
func TestShardsMergeAsOneCampaign(t *testing.T) {
	withPlanted(t)
	plans := harness.Check{Name: "holds-mixed", Run: func(*harness.Session) *harness.Finding { return nil },
		Data: []harness.Data{harness.MixedAny}} // draws rollout plans
	cfg := Config{Seed: 1, Iterations: 480, MaxOps: 60, Targets: []harness.Check{planted, plans}, Workers: 2}
	run := func(sh shard.Shard) Summary {
		c := cfg
		c.Shard = sh
		r, err := Run(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		return r.Summary()
	}
	norm := func(s Summary) Summary {
		s.Seconds, s.Shard, s.Merged = 0, "", nil
		for i := range s.Properties {
			s.Properties[i].Seconds = 0
		}
		return s
	}
	whole := run(shard.Whole)
	if whole.Failures < 2 || whole.Findings <= whole.Failures || whole.Rollouts >= whole.Planned {
		t.Fatalf("%d findings, %d distinct failures, %d plans of %d planned: the campaign finds no failure twice or draws no plan twice",
			whole.Findings, whole.Failures, whole.Rollouts, whole.Planned)
	}
	for _, n := range []int{2, 4} {
		var sums []Summary
		for i := range n {
			sums = append(sums, run(shard.Shard{I: i, N: n}))
		}
		merged, complete, err := Merge(sums)
		if err != nil || !complete {
			t.Fatalf("%d shards: complete %v, %v", n, complete, err)
		}
		got, err := json.Marshal(norm(merged))
		if err != nil {
			t.Fatal(err)
		}
		want, _ := json.Marshal(norm(whole))
		if !bytes.Equal(got, want) {
			m := norm(merged)
			t.Errorf("%d shards merged: %d failures, %d plans, %d swarms; the whole campaign: %d, %d, %d (or a row differs)",
				n, m.Failures, m.Rollouts, m.Swarms, whole.Failures, whole.Rollouts, whole.Swarms)
		}
	}
}
