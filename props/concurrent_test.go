package props

import (
	"fmt"
	"runtime/debug"
	"sync"
	"testing"

	"pgregory.net/rapid"

	"sessiondag/checker/driver"
	"sessiondag/checker/gen"
	"sessiondag/checker/gen/rapidsrc"
	"sessiondag/checker/harness"
	"sessiondag/impl/flags"
	"sessiondag/impl/store"
	"sessiondag/impl/webui"
	"sessiondag/ops"
)

// concurrentLoaders is the number of goroutines TestConcurrentLoads loads
// on, and concurrentRounds how many loads each runs.
const concurrentLoaders, concurrentRounds = 4, 20

// TestConcurrentLoads: loads of one session that run at the same time, on
// several goroutines and under every config, each show what the load
// through maps shows: what they share — memos, columns, folded copies,
// cached predecessors, the work arrays they take from a pool — is safe to
// share (docs: one process loads a session under five configs side by
// side). Under -race it also finds the loads' data races.
func TestConcurrentLoads(t *testing.T) {
	t.Parallel()
	inProcessOnly(t, "loads of one store side by side")
	rapid.Check(t, func(t *rapid.T) {
		opt := gen.Options{Legacy: true, FlagFlips: true}
		opt.Swarm = gen.DrawSwarm(rapidsrc.Source{T: t}, opt)
		script := gen.New(opt).Script(rapidsrc.Source{T: t}, rapid.IntRange(1, 60).Draw(t, "ops"))
		r, err := driver.Build(script, "", flags.Off)
		if err != nil {
			t.Fatalf("build: %v", err)
		}
		st := r.W.S.AtPersistedHead()
		want := make([]*webui.Loaded, len(flags.Rollout))
		for i, fl := range flags.Rollout {
			want[i] = webui.LoadByMaps(st, fl)
		}
		if failure := loadTogether(st, want); failure != "" {
			t.Fatalf("%s\nscript (%d ops):\n%s", failure, len(script), ops.String(script))
		}
	})
}

// loadTogether loads st on concurrentLoaders goroutines, each cycling
// through the configs from its own, and returns what the first load that
// differs from want (by config) or panics did.
func loadTogether(st *store.Store, want []*webui.Loaded) string {
	var wg sync.WaitGroup
	var mu sync.Mutex
	var failure string
	fail := func(what string) {
		mu.Lock()
		defer mu.Unlock()
		if failure == "" {
			failure = what
		}
	}
	for g := range concurrentLoaders {
		wg.Go(func() {
			i := g % len(flags.Rollout)
			defer func() {
				if p := recover(); p != nil {
					fail(fmt.Sprintf("flags %s: a load beside others panicked: %v\n%s", flags.Rollout[i], p, debug.Stack()))
				}
			}()
			for k := range concurrentRounds {
				i = (g + k) % len(flags.Rollout)
				if d := harness.LoadDiff(want[i], webui.Load(st, flags.Rollout[i])); d != "" {
					fail(fmt.Sprintf("flags %s: a load beside others differs from the load by maps (-maps +beside):\n%s", flags.Rollout[i], d))
					return
				}
			}
		})
	}
	wg.Wait()
	return failure
}
