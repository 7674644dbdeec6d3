package audit

import "testing"

// TestAcceptedNeedsEveryFinding: a regression stays one while a finding of
// it is not accepted; with every one accepted it is accepted; a step with
// no finding to name (nothing lost, nothing hidden) is never accepted.
func TestAcceptedNeedsEveryFinding(t *testing.T) {
	lost := []Row{{ID: "a"}, {ID: "b"}}
	for _, c := range []struct {
		name     string
		step     Step
		intended bool
		want     string
	}{
		{"one of two", Step{Verdict: Regression, Lost: lost, Accepted: []Acceptance{{Row: "a"}}}, false, Regression},
		{"both", Step{Verdict: Regression, Lost: lost, Accepted: []Acceptance{{Row: "a"}, {Row: "b"}}}, false, Accepted},
		{"hidden user", Step{Verdict: Regression, Hidden: []Row{{ID: "u"}}, Accepted: []Acceptance{{Row: "u"}}}, false, Accepted},
		{"scripted, removed", Step{Verdict: Regression, Removed: lost, Accepted: []Acceptance{{Row: "a"}, {Row: "b"}}}, true, Accepted},
		{"no finding", Step{Verdict: Regression, Accepted: []Acceptance{{Row: "a"}}}, false, Regression},
		{"a fix", Step{Verdict: Fix, Lost: lost, Accepted: []Acceptance{{Row: "a"}, {Row: "b"}}}, false, Fix},
	} {
		st := c.step
		ruleAccepted(&st, c.intended)
		if st.Verdict != c.want {
			t.Errorf("%s: %s, want %s", c.name, st.Verdict, c.want)
		}
	}
}
