package exhaust

import (
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"testing"

	"sessiondag/checker/harness"
	"sessiondag/impl/flags"
	"sessiondag/impl/store"
	"sessiondag/internal/shard"
)

// tableKinds are the op kinds of the README's table of the walk (every kind
// but flag and writer, which 7b337ef, its baseline, did not have).
const tableKinds = "user,dispatch,reply,think,say,tool,done,error-folded,error-standalone,cancel,crash,fn,manual," +
	"exec,ask,end,retry,edit,checkout,reload,fork-root,spawn,task,script,legacy-user,legacy-reply,orphan,rewind,clock"

// floorSample walks one shard of the walk of max ops of the table's kinds
// with the table's checks and keeps, unloaded, the implementation's store
// of each data a lane checks, once per distinct store over both lanes.
func floorSample(tb testing.TB, max int, sh shard.Shard) []*store.Store {
	tb.Helper()
	checks, err := harness.Select("legacy,target,rollout,cutoff,cards")
	if err != nil {
		tb.Fatal(err)
	}
	seen := map[Fingerprint]bool{}
	var stores []*store.Store
	for _, l := range newLanes(checks, nil, max, true, 1<<30, true, nil) {
		if err := l.start(); err != nil {
			tb.Fatal(err)
		}
		err := Walk(max, strings.Split(tableKinds, ","), sh, func(n Node) bool {
			if _, err := l.goTo(n.Script); err != nil {
				tb.Fatal(err)
			}
			if c, _ := l.planFor(l.flips(n), n.Synced); n.Owned && len(c) > 0 {
				if k := l.storeKey(); !seen[k] {
					seen[k] = true
					st, err := l.scout.Store().Fork()
					if err != nil {
						tb.Fatal(err)
					}
					stores = append(stores, st)
				}
			}
			return true
		})
		if err != nil {
			tb.Fatal(err)
		}
		l.close()
	}
	return stores
}

// floor5 is BenchmarkFloor5's sample, taken once for its runs.
var floor5 struct {
	once   sync.Once
	stores []*store.Store
}

// BenchmarkFloor5 is what no deduplication takes off a walk: the
// implementation's own loads, under each config of the rollout path on
// memos no load filled (as every check makes them), of a distinct store
// among the data the 5-op walk of the README's table checks. An op is the
// five loads of one store; the stores are those of one shard of that walk
// (SESSIONDAG_FLOOR_SHARD, default 7/1000), each once. Times the distinct
// stores a whole walk checks (TestFingerprintCounts), it is the processor
// time the walk spends in the implementation's loads whatever else it
// saves: the README sets the speed targets against it.
func BenchmarkFloor5(b *testing.B) {
	floor5.once.Do(func() {
		sh := shard.Shard{I: 7, N: 1000}
		if s := os.Getenv("SESSIONDAG_FLOOR_SHARD"); s != "" {
			var err error
			if sh, err = shard.Parse(s); err != nil {
				b.Fatal(err)
			}
		}
		floor5.stores = floorSample(b, 5, sh)
	})
	sample := floor5.stores
	if len(sample) == 0 {
		b.Fatal("no store in the sample")
	}
	// Each op loads a fork of its store: the memos of the sample's own
	// stores would otherwise be filled by the first pass.
	forks := make([]*store.Store, b.N)
	for i := range forks {
		var err error
		if forks[i], err = sample[i%len(sample)].Fork(); err != nil {
			b.Fatal(err)
		}
	}
	// The collector as `sessiondag exhaust` sets it.
	defer debug.SetGCPercent(debug.SetGCPercent(1600))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(768 << 20))
	runtime.GC() // the sample's walk leaves garbage a timed load would help collect
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, fl := range flags.Rollout {
			harness.Load(forks[i], fl)
		}
	}
	b.ReportMetric(float64(len(sample)), "stores")
}
