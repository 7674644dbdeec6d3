package exhaust

import (
	"testing"

	"sessiondag/checker/campaign"
	"sessiondag/checker/gen"
	"sessiondag/checker/harness"
	"sessiondag/ops"
)

// TestGeneratedLegacyDataIsSynced: the generator's legacy data kinds
// (harness.WrittenOff and Flipped, gen.Options.SyncedBrowser) and the
// walk's rule for where legacy data holds its intent (Synced) are one
// definition written twice; every script the generator draws for those
// kinds, under a swarm configuration or not, must be Synced.
func TestGeneratedLegacyDataIsSynced(t *testing.T) {
	seeds := uint64(300)
	if testing.Short() {
		seeds = 60
	}
	for _, data := range []harness.Data{harness.WrittenOff, harness.Flipped} {
		for seed := uint64(1); seed <= seeds; seed++ {
			opt := campaign.GenOptions(data)
			if seed%2 == 0 {
				opt.Swarm = gen.DrawSwarm(gen.NewSeeded(seed), opt)
			}
			script := gen.New(opt).Script(gen.NewSeeded(seed), 60)
			if !harness.IntentInData(script) {
				t.Fatalf("%s, seed %d: the generator drew a script whose intent is not in the data (harness.IntentInData):\n%s",
					data.Name, seed, ops.String(script))
			}
		}
	}
}
