package audit

import (
	"fmt"

	"sessiondag/checker/harness"
	"sessiondag/impl/webui"
)

// invariants are what must hold of any load, whatever the data: no row twice
// in the chain, no user row dropped by the card pass, aggregation
// conservation as the original aggregates (an assistant's own tool_calls
// and blocks, merged into its node by the original's writers, kept:
// the harness's aggregation check).
func invariants(l *webui.Loaded, agg *harness.AggregationCheck) []string {
	var out []string
	seen := map[string]bool{}
	for _, m := range l.Chain {
		if seen[m.ID] {
			out = append(out, fmt.Sprintf("row %s appears twice in the chain", m.ID))
		}
		seen[m.ID] = true
	}
	after := map[string]bool{}
	for _, m := range l.Chain {
		after[m.ID] = true
	}
	for _, m := range l.BeforeCards {
		if m.Role == "user" && !after[m.ID] {
			out = append(out, fmt.Sprintf("the card pass dropped user row %s", m.ID))
		}
	}
	if err := agg.Check(l.Messages, l.All, nil); err != nil {
		out = append(out, "aggregation: "+err.Error())
	}
	return out
}
