package gen_test

import (
	"testing"

	"sessiondag/checker/gen"
	"sessiondag/ops"
)

// Every op kind of the vocabulary (but session, which only names a script's
// session) is drawn over a fixed set of seeds and options: a kind the
// generator never draws is a kind no property ever checks.
func TestEveryKindIsDrawn(t *testing.T) {
	total := gen.NewTally()
	for _, opt := range []gen.Options{{}, {Legacy: true}, {Legacy: true, FlagFlips: true}, {Legacy: true, SyncedBrowser: true},
		{Legacy: true, FlagFlips: true, Rollback: true, Writers: 3}} {
		for seed := uint64(1); seed <= 20; seed++ {
			g := gen.New(opt)
			g.Script(gen.NewSeeded(seed), 150)
			total.Add(g.Tally)
		}
	}
	for _, kind := range ops.Kinds() {
		if kind != "session" && total.Ops[kind] == 0 {
			t.Errorf("op kind %q is never drawn", kind)
		}
	}
	if t.Failed() {
		t.Logf("drawn:\n%s", total)
	}
}
