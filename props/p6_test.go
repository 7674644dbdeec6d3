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

// TestP6AggregationConservation: aggregation, as the load runs it, folds
// each tool row exactly once into the assistant it names, or keeps it in
// place as an orphan; nothing is lost, duplicated or reordered, and blocks
// are copies (a change to one does not reach what the store holds).
func TestP6AggregationConservation(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := newImplSession(t, "TestP6AggregationConservation", "", gen.Options{Legacy: true}, flags.Off)
		t.Repeat(map[string]func(*rapid.T){"op": s.step, "": func(t *rapid.T) {
			l := webui.Load(s.run.W.S, flags.Off)
			msgs, all := l.Messages, l.All
			reread := func() []*adapter.Message { return webui.Aggregate(webui.Messages(s.run.W.S)) }
			if err := harness.CheckAggregation(msgs, all, reread); err != nil {
				report(t, s.name, s.script, "aggregation broke conservation", err.Error())
			}
		}})
	})
}
