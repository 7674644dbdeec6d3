package campaign

import (
	"testing"

	"sessiondag/checker/gen"
	"sessiondag/checker/harness"
	"sessiondag/ops"
)

// TestGenOptionsDrawTheirKind: what the generator draws for a kind of data
// is data of that kind (harness.Data.Admits), under swarm configurations and,
// on data whose flags change, rollout plans: a writer that takes over on data
// flipped only forward never lowers the flags in force, say.
func TestGenOptionsDrawTheirKind(t *testing.T) {
	for _, d := range harness.DataKinds {
		for seed := uint64(1); seed <= 60; seed++ {
			src := gen.NewSeeded(seed)
			opt := GenOptions(d)
			opt.Swarm = gen.DrawSwarm(src, opt)
			if d.Flips > harness.Steady && seed%2 == 0 {
				opt.Rollout = gen.DrawRollout(src, opt.StartStep, d.Flips == harness.Any, opt.Writers, 60)
			}
			script := gen.New(opt).Script(src, 60)
			if !d.Admits(script) {
				t.Fatalf("%s, seed %d: the generator drew a script of another kind:\n%s", d.Name, seed, ops.String(script))
			}
		}
	}
}
