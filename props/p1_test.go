package props

import (
	"sync"
	"testing"

	"pgregory.net/rapid"

	"sessiondag/gen"
)

// TestP1LegacyFidelity: with every flag off the implementation shows exactly
// what the original (model.Legacy) shows, in every view, after every op of
// every generated session. It also requires the generator to have reached
// every shape of legacy §5/§6 that the rollout is about.
func TestP1LegacyFidelity(t *testing.T) {
	total := gen.NewTally()
	var mu sync.Mutex
	rapid.Check(t, func(t *rapid.T) {
		p := newLegacyPair(t, "TestP1LegacyFidelity", gen.Options{Legacy: true})
		t.Repeat(map[string]func(*rapid.T){"op": p.step, "": p.checkFidelity})
		mu.Lock()
		total.Add(p.gen.Tally)
		mu.Unlock()
	})
	if missing := total.Missing(gen.Required); len(missing) > 0 && !testing.Short() {
		t.Errorf("the generator never produced these shapes: %q\n%s", missing, total)
	}
	t.Logf("coverage:\n%s", total)
}
