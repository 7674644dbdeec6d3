package props

import (
	"flag"
	"strconv"
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
	if missing := total.Missing(gen.Required); len(missing) > 0 && fullBudget() {
		t.Errorf("the generator never produced these shapes: %q\n%s", missing, total)
	}
	t.Logf("coverage:\n%s", total)
}

// fullBudget reports whether the run has at least rapid's default number of
// checks, the size at which every required shape must appear.
func fullBudget() bool {
	if testing.Short() {
		return false
	}
	f := flag.Lookup("rapid.checks")
	if f == nil {
		return true
	}
	n, err := strconv.Atoi(f.Value.String())
	return err != nil || n >= 100
}

// FuzzSessionOps runs P1's state machine from fuzzer bytes (rapid.MakeFuzz):
// `go test -fuzz FuzzSessionOps ./props` explores op sequences with
// coverage guidance; crashers land in testdata/fuzz/FuzzSessionOps.
func FuzzSessionOps(f *testing.F) {
	f.Fuzz(rapid.MakeFuzz(func(t *rapid.T) {
		p := newLegacyPair(t, "FuzzSessionOps", gen.Options{Legacy: true})
		t.Repeat(map[string]func(*rapid.T){"op": p.step, "": p.checkFidelity})
	}))
}
