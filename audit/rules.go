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
// (harness.IsFix): closer to it on data written with the flags on, no
// intended row lost on data written before.
func ruleScripted(before, after, want model.TargetView, strict bool) bool {
	return harness.IsFix(before, after, want, strict)
}

// ruleLost (§8.3): a removed row that no load of the new config shows, at
// any head, is lost.
func ruleLost(r Row) bool { return r.Went != nil && r.Went.Kind == PlaceLost }

// ruleUserUnfindable (§8.3): a user's message the step removes must stay on
// the chain or on a branch a user reaches with the sibling arrows or the
// branch list; shown only at a head nothing leads to, or nowhere, is a
// regression.
func ruleUserUnfindable(r Row, isConv func(string) bool) bool {
	if !isUserMessage(r, isConv) || r.Went == nil {
		return false
	}
	return r.Went.Kind != PlaceChain && r.Went.Kind != PlaceBranch
}
