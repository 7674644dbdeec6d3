package audit

import (
	"sessiondag/checker/harness"
	"sessiondag/impl/webui"
	"sessiondag/model"
)

// The verdict rules of docs/rollout.md §8, one small function each: the
// section names the test that fails when each is broken.

// ruleUnchanged (§8.1): a step that shows the same rows the same way at the
// same head changes nothing a user sees.
func ruleUnchanged(a, b *webui.Loaded, pa, pb []model.TargetRow) bool {
	return a.HeadID == b.HeadID && harness.SameChain(pa, pb)
}

// ruleScripted (§8.2): with the op script the intended view decides
// (harness.IsFix): closer to it on data written with the flags on; on data
// written before, no intended row lost — and an intended row the step
// moves to a branch a user reaches (moved, §8.3) is not lost: the step is
// judged as if the previous config had not shown it.
func ruleScripted(before, after, want model.TargetView, strict bool, moved map[string]bool) bool {
	if harness.IsFix(before, after, want, strict) {
		return true
	}
	if strict {
		return false
	}
	if len(moved) == 0 {
		return false
	}
	rest := before
	rest.Chain = nil
	for _, r := range before.Chain {
		if !moved[r.ID] {
			rest.Chain = append(rest.Chain, r)
		}
	}
	return harness.IsFix(rest, after, want, false)
}

// ruleLost (§8.3): a removed row that no load of the new config shows at
// any head is lost; so is one a load shows only at a head no arrow and no
// branch list leads to — unless the previous config showed it only because
// R's get_branch fallback glued another root on (glued), which a step may
// rightly take off the chain.
func ruleLost(r Row, glued bool) bool {
	switch {
	case r.Went == nil:
		return false
	case r.Went.Kind == PlaceLost:
		return true
	}
	return r.Went.Kind == PlaceHead && !glued
}

// ruleUserUnfindable (§8.3): a user's message the step removes must stay on
// the chain or on a branch a user reaches with the sibling arrows or the
// branch list, however the previous config showed it.
func ruleUserUnfindable(r Row, isConv func(string) bool) bool {
	if !isUserMessage(r, isConv) || r.Went == nil {
		return false
	}
	return r.Went.Kind != PlaceChain && r.Went.Kind != PlaceBranch
}

// ruleBrokenNoVerdict (§8.4): a session whose files could not all be read
// gets no verdict on a step that changes its view: judged on part of the
// files, a fix could hide what the rest holds.
func ruleBrokenNoVerdict(s *Session, st *Step) {
	if s.Broken() && st.Verdict != Unchanged {
		st.Verdict = Unjudged
	}
}

// ruleReady (§8.5): ready only on the whole input — something found, every
// directory read, every shard merged once, every session audited — and
// then only without a broken session, a violation or a regression.
func ruleReady(sum *Summary) bool {
	return len(sum.Problems()) == 0 && sum.Broken+sum.Violations+sum.Regressions == 0
}

// ruleAccepted (§8.6): a regression whose every finding a reviewed
// exception accepts (and that has a finding to accept) is accepted: counted
// apart, blocking nothing.
func ruleAccepted(st *Step, intended bool) {
	if st.Verdict != Regression || len(st.Accepted) == 0 {
		return
	}
	ok := map[string]bool{}
	for _, a := range st.Accepted {
		ok[a.Row] = true
	}
	rows := findings(st, intended)
	for _, r := range rows {
		if !ok[r] {
			return
		}
	}
	if len(rows) > 0 {
		st.Verdict = Accepted
	}
}
