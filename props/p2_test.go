package props

import (
	"testing"

	"pgregory.net/rapid"

	"sessiondag/harness"
	"sessiondag/impl/flags"
)

// TestP2TargetCorrectness: with A–D on, a session written with the flags on
// loads as exactly the intended conversation (model.Target), after every op.
func TestP2TargetCorrectness(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r := newRolloutRun(t, "TestP2TargetCorrectness", writtenOn)
		t.Repeat(map[string]func(*rapid.T){"op": r.step, "": func(t *rapid.T) {
			l := loadAt(r, flags.All)
			if d := harness.TargetDiff(r.target.View(), l); d != "" {
				r.fail(t, "flags all: the loaded chain is not the intended conversation", d)
			}
		}})
	})
}
