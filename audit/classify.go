package audit

import (
	"fmt"
	"strings"

	"sessiondag/checker/harness"
	"sessiondag/impl/flags"
	"sessiondag/impl/webui"
	"sessiondag/model"
)

// classify says what a rollout step did to the loaded chain and which rows
// it added and removed. With an op script the intended view decides
// (harness.IsFix). Without one (real sessions) the rule is conservative: a
// step that hides a user's message is a regression, wherever R found the
// row, unless the step moved it to the branch it continues (movedToBranch);
// so is one that loses a runtime card or any conversation row the previous
// config showed on its recorded chain. Only rows other than user messages
// that R showed because its get_branch fallback glued another root on, and
// function internals a head sat on, may go. at loads the session under to
// at another head.
func classify(from, to flags.Set, a, b *webui.Loaded, want *model.TargetView, strict bool, isConv func(string) bool, at func(head string) *webui.Loaded) Step {
	st := Step{From: from.String(), To: to.String()}
	pa, pb := harness.Project(a.Chain), harness.Project(b.Chain)
	st.Added, st.Removed = rowsOf(b, missing(pb, pa)), rowsOf(a, missing(pa, pb))
	if a.HeadID == b.HeadID && harness.SameChain(pa, pb) {
		st.Verdict = Unchanged
		return st
	}
	if want != nil {
		intended := map[string]bool{}
		for _, r := range want.Chain {
			intended[r.ID] = true
		}
		st.Hidden = hiddenUsers(st.Removed, func(id string) bool { return intended[id] })
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
	st.Hidden = hiddenUsers(st.Removed, isConv)
	var moved []Row
	var movedTo string
	st.Hidden, moved, movedTo = movedToBranch(st.Hidden, a, to, b, at)
	var lost []Row
	for _, r := range st.Removed {
		if isConv(r.ID) && r.Role != "user" {
			lost = append(lost, r)
		}
	}
	// Rows R showed only because its get_branch fallback glued an earlier
	// root on (rule 3, legacy §3.2) are not the conversation's: a step that
	// walks the recorded predecessors may drop them — unless it is the
	// user's own message, which no step may hide without a script to say
	// it was not meant to be there.
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
	switch {
	case len(st.Hidden) > 0:
		st.Verdict = Regression
		st.Detail = "hides the user's message " + joinRows(st.Hidden)
	case len(lost) > 0:
		st.Verdict = Regression
		st.Detail = fmt.Sprintf("loses %d rows the previous config showed: %s", len(lost), joinRows(lost))
	default:
		st.Verdict = Fix
		st.Detail = fmt.Sprintf("chain %d → %d rows", len(pa), len(pb))
		if unglued > 0 {
			st.Detail += fmt.Sprintf(", %d rows R's fallback glued from another root dropped", unglued)
		}
		if len(moved) > 0 {
			st.Detail += fmt.Sprintf(", moves the user's message %s, which R's fallback glued from another root, to the branch it continues (shown at head %s)", joinRows(moved), movedTo)
		}
	}
	return st
}

// hiddenUsers are the removed user messages that count (conversation rows,
// or intended ones when a script says what was intended).
func hiddenUsers(removed []Row, counts func(string) bool) []Row {
	var out []Row
	for _, r := range removed {
		if r.Role == "user" && !r.Card && counts(r.ID) {
			out = append(out, r)
		}
	}
	return out
}

// joinRows names up to five rows for a one-line detail.
func joinRows(rows []Row) string {
	const most = 5
	var parts []string
	for i, r := range rows {
		if i == most {
			parts = append(parts, fmt.Sprintf("and %d more", len(rows)-most))
			break
		}
		parts = append(parts, r.String())
	}
	return strings.Join(parts, ", ")
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

// rowsOf describes projected rows by the messages of the load they came
// from (chain order; duplicates of one id are the first message).
func rowsOf(l *webui.Loaded, rows []model.TargetRow) []Row {
	if len(rows) == 0 {
		return []Row{}
	}
	want := make(map[string]bool, len(rows))
	for _, r := range rows {
		want[r.ID] = true
	}
	out := make([]Row, 0, len(rows))
	for _, m := range l.Chain {
		if want[m.ID] {
			want[m.ID] = false
			out = append(out, rowOf(m))
		}
	}
	return out
}
