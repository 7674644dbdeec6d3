package props

import (
	"testing"

	"pgregory.net/rapid"

	"sessiondag/gen"
	"sessiondag/harness"
	"sessiondag/impl/adapter"
	"sessiondag/impl/flags"
	"sessiondag/impl/webui"
)

// TestP6AggregationConservation: aggregation folds each tool row exactly
// once into the assistant it names, or keeps it in place as an orphan;
// nothing is lost, duplicated or reordered, and blocks are copies.
func TestP6AggregationConservation(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := newImplSession(t, "TestP6AggregationConservation", "", gen.Options{Legacy: true}, flags.Off)
		t.Repeat(map[string]func(*rapid.T){"op": s.step, "": func(t *rapid.T) {
			msgs := webui.Messages(s.run.W.S)
			all := webui.Aggregate(msgs)
			reread := func() []*adapter.Message { return webui.Aggregate(webui.Messages(s.run.W.S)) }
			if err := harness.CheckAggregation(msgs, all, reread); err != nil {
				report(t, s.name, s.script, "aggregation broke conservation", err.Error())
			}
		}})
	})
}
