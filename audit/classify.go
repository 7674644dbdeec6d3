package audit

import (
	"fmt"
	"strings"

	"sessiondag/harness"
	"sessiondag/impl/flags"
	"sessiondag/impl/webui"
	"sessiondag/model"
)

// classify says what a rollout step did to the loaded chain. With an op
// script the intended view decides: closer is a fix, anything else that
// changed is a regression. Without one (real sessions) the rule is
// conservative: a step that only adds rows, or changes none, is fine; a
// step that loses a user row or a runtime card, or reorders the rows both
// show, is a regression; other changes are fixes only if they keep every
// row the previous config showed.
func classify(from, to flags.Set, a, b *webui.Loaded, ca, cb Config) Step {
	st := Step{From: from.String(), To: to.String()}
	pa, pb := harness.Project(a.Chain), harness.Project(b.Chain)
	if a.HeadID == b.HeadID && same(pa, pb) {
		st.Verdict = Unchanged
		return st
	}
	if ca.Distance >= 0 {
		if cb.Distance < ca.Distance {
			st.Verdict = Fix
			st.Detail = fmt.Sprintf("distance to the intended view %d → %d", ca.Distance, cb.Distance)
		} else {
			st.Verdict = Regression
			st.Detail = fmt.Sprintf("the view changed but moved %d → %d from the intended one", ca.Distance, cb.Distance)
		}
		return st
	}
	lost := missing(pa, pb)
	var lostImportant []string
	for _, r := range lost {
		if r.Kind == "card" || isUser(a, r.ID) {
			lostImportant = append(lostImportant, r.ID)
		}
	}
	switch {
	case len(lostImportant) > 0:
		st.Verdict = Regression
		st.Detail = "lost " + strings.Join(lostImportant, ", ")
	case len(lost) > 0:
		st.Verdict = Regression
		st.Detail = fmt.Sprintf("dropped %d rows the previous config showed", len(lost))
	default:
		st.Verdict = Fix
		st.Detail = fmt.Sprintf("chain %d → %d rows", len(pa), len(pb))
	}
	return st
}

func same(a, b []model.TargetRow) bool {
	return harness.Distance(a, b) == 0 && len(a) == len(b)
}

func missing(a, b []model.TargetRow) []model.TargetRow {
	in := map[string]bool{}
	for _, r := range b {
		in[r.ID] = true
	}
	var out []model.TargetRow
	for _, r := range a {
		if !in[r.ID] {
			out = append(out, r)
		}
	}
	return out
}

func isUser(l *webui.Loaded, id string) bool {
	for _, m := range l.Chain {
		if m.ID == id {
			return m.Role == "user"
		}
	}
	return false
}
