package props

import (
	"testing"

	"pgregory.net/rapid"

	"sessiondag/checker/harness"
)

// TestP2TargetCorrectness: with A–D on, a session written with the flags on
// loads as exactly the intended conversation (model.Target), after every op.
func TestP2TargetCorrectness(t *testing.T) {
	t.Parallel()
	judges(t, []harness.Check{check("target")}, harness.WrittenOn)
	rapid.Check(t, func(t *rapid.T) {
		machine(t, "TestP2TargetCorrectness", harness.WrittenOn, harness.Options{}, check("target"))
	})
}
