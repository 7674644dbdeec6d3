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
// script the intended view decides (harness.IsFix). Without one (real
// sessions) the rule is conservative: a step that loses a conversation row
// the previous config showed on its recorded chain is a regression (a user
// row or a runtime card named as such); rows R showed only because its
// get_branch fallback glued another root on, and function internals a head
// sat on, may go.
func classify(from, to flags.Set, a, b *webui.Loaded, want *model.TargetView, strict bool, isConv func(string) bool) Step {
	st := Step{From: from.String(), To: to.String()}
	pa, pb := harness.Project(a.Chain), harness.Project(b.Chain)
	if a.HeadID == b.HeadID && harness.SameChain(pa, pb) {
		st.Verdict = Unchanged
		return st
	}
	if want != nil {
		va, vb := project(a), project(b)
		st.Verdict = Regression
		st.Detail = fmt.Sprintf("gap to the intended view %s → %s", harness.ViewGap(va, *want), harness.ViewGap(vb, *want))
		if harness.IsFix(va, vb, *want, strict) {
			st.Verdict = Fix
		}
		return st
	}
	// Only conversation rows count: a head on a function internal (an
	// exec call, an ask_user row) showed that internal as a row at R; a
	// step that shows the conversation row it belongs to instead loses
	// nothing.
	var lost []model.TargetRow
	for _, r := range missing(pa, pb) {
		if isConv(r.ID) {
			lost = append(lost, r)
		}
	}
	// Rows R showed only because its get_branch fallback glued an earlier
	// root on (rule 3, legacy §3.2) are not the conversation's: a step that
	// walks the recorded predecessors and drops them is fixing the view.
	var unglued int
	if a.FallbackUsed {
		onLinear := map[string]bool{}
		for _, m := range a.Linear {
			onLinear[m.ID] = true
		}
		kept := lost[:0]
		for _, r := range lost {
			if onLinear[r.ID] {
				kept = append(kept, r)
			} else {
				unglued++
			}
		}
		lost = kept
	}
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
		if unglued > 0 {
			st.Detail += fmt.Sprintf(", %d rows R's fallback glued from another root dropped", unglued)
		}
	}
	return st
}

// missing lists the rows of a that b neither shows nor folds into a row it
// shows.
func missing(a, b []model.TargetRow) []model.TargetRow {
	in := map[string]bool{}
	for _, r := range b {
		in[r.ID] = true
		for _, c := range r.Calls {
			in[c] = true
		}
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
