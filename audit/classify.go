package audit

import (
	"fmt"
	"strings"

	"sessiondag/checker/harness"
	"sessiondag/impl/flags"
	"sessiondag/impl/webui"
	"sessiondag/model"
)

// classify says what a rollout step did to the loaded chain, which rows it
// added and removed, and where each removed row went (place.go). With an
// op script the intended view decides (ruleScripted). Without one (real
// sessions) the step is a regression when it loses a row (ruleLost) or
// puts a user's message where no user finds it (ruleUserUnfindable); a
// user's message moved to a branch a user reaches is named as moved.
func classify(from, to flags.Set, a, b *webui.Loaded, want *model.TargetView, strict bool, isConv func(string) bool, pl *placer) Step {
	st := Step{From: from.String(), To: to.String()}
	pa, pb := harness.Project(a.Chain), harness.Project(b.Chain)
	st.Added, st.Removed = rowsOf(b, missing(pb, pa)), rowsOf(a, missing(pa, pb))
	if ruleUnchanged(a, b, pa, pb) {
		st.Verdict = Unchanged
		return st
	}
	for i := range st.Removed {
		p := pl.place(st.Removed[i].ID)
		st.Removed[i].Went = &p
	}
	userMsg := func(r Row) bool { return isUserMessage(r, isConv) }
	if want != nil {
		intended := map[string]bool{}
		for _, r := range want.Chain {
			intended[r.ID] = true
		}
		st.Hidden = filter(st.Removed, func(r Row) bool { return isUserMessage(r, func(id string) bool { return intended[id] }) })
		st.Moved = filter(st.Removed, func(r Row) bool { return userMsg(r) && !intended[r.ID] && movedToBranch(r) })
		va, vb := project(a), project(b)
		st.Verdict = Regression
		st.Detail = fmt.Sprintf("gap to the intended view %s → %s", harness.ViewGap(va, *want), harness.ViewGap(vb, *want))
		moved := map[string]bool{}
		for _, r := range st.Removed {
			if intended[r.ID] && movedToBranch(r) {
				moved[r.ID] = true
			}
		}
		if ruleScripted(va, vb, *want, strict, moved) {
			st.Verdict = Fix
			if !harness.IsFix(va, vb, *want, strict) {
				st.Detail += fmt.Sprintf(", %s of the intended conversation moved to a branch a user reaches", plural(len(moved), "row"))
			}
		}
		return st
	}
	glued := gluedOn(a)
	st.Hidden = filter(st.Removed, func(r Row) bool { return ruleUserUnfindable(r, isConv) })
	st.Lost = filter(st.Removed, func(r Row) bool { return !ruleUserUnfindable(r, isConv) && ruleLost(r, glued[r.ID]) })
	st.Moved = filter(st.Removed, func(r Row) bool { return userMsg(r) && movedToBranch(r) })
	switch {
	case len(st.Hidden) > 0:
		st.Verdict = Regression
		st.Detail = "puts the user's message where no user finds it: " + joinRows(st.Hidden)
		if len(st.Lost) > 0 {
			st.Detail += "; loses " + plural(len(st.Lost), "row")
		}
	case len(st.Lost) > 0:
		st.Verdict = Regression
		st.Detail = fmt.Sprintf("loses %s no user finds under %s: %s", plural(len(st.Lost), "row"), st.To, joinRows(st.Lost))
	default:
		st.Verdict = Fix
		st.Detail = fmt.Sprintf("chain %d → %d rows", len(pa), len(pb))
		if n := count(st.Removed, func(r Row) bool { return movedToBranch(r) }); n > 0 {
			st.Detail += fmt.Sprintf(", %s moved to other branches", plural(n, "row"))
		}
		if len(st.Moved) > 0 {
			st.Detail += ", the user's message moved: " + joinRows(st.Moved)
		}
	}
	return st
}

// gluedOn are the rows a load shows only because R's get_branch fallback
// replaced its chain: rows the walk from the head (Linear) does not reach.
func gluedOn(l *webui.Loaded) map[string]bool {
	if !l.FallbackUsed {
		return nil
	}
	linear := make(map[string]bool, len(l.Linear))
	for _, m := range l.Linear {
		linear[m.ID] = true
	}
	out := map[string]bool{}
	for _, m := range l.Chain {
		if !linear[m.ID] {
			out[m.ID] = true
		}
	}
	return out
}

// isUserMessage: a row a user typed (a user row of the conversation, not a
// card, not a function's ask_user question).
func isUserMessage(r Row, counts func(string) bool) bool {
	return r.Role == "user" && !r.Card && counts(r.ID)
}

// movedToBranch: a removed row a user finds on another branch.
func movedToBranch(r Row) bool {
	return r.Went != nil && r.Went.Kind == PlaceBranch
}

func filter(rows []Row, keep func(Row) bool) []Row {
	var out []Row
	for _, r := range rows {
		if keep(r) {
			out = append(out, r)
		}
	}
	return out
}

// plural is "1 row", "2 rows".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func count(rows []Row, keep func(Row) bool) int { return len(filter(rows, keep)) }

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
