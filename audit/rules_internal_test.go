package audit

import (
	"testing"

	"sessiondag/impl/webui"
	"sessiondag/model"
)

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

// TestUnchangedNeedsTheSameHead: a step is unchanged only when it shows
// the same rows, shown the same way, at the same head (docs/rollout.md
// §8.1): the same rows at another head are a change to judge.
func TestUnchangedNeedsTheSameHead(t *testing.T) {
	chain := []model.TargetRow{{ID: "u1", Kind: "row"}, {ID: "u1_reply", Kind: "row"}}
	at := func(head string) *webui.Loaded { return &webui.Loaded{HeadID: webui.HeadAt(head)} }
	for _, c := range []struct {
		name   string
		a, b   *webui.Loaded
		pb     []model.TargetRow
		wanted bool
	}{
		{"same rows, same head", at("u1_reply"), at("u1_reply"), chain, true},
		{"same rows, another head", at("u1_reply"), at("u1"), chain, false},
		{"other rows, same head", at("u1_reply"), at("u1_reply"), chain[:1], false},
		{"a card for a row", at("u1_reply"), at("u1_reply"), []model.TargetRow{chain[0], {ID: "u1_reply", Kind: "card"}}, false},
	} {
		if got := ruleUnchanged(c.a, c.b, chain, c.pb); got != c.wanted {
			t.Errorf("%s: unchanged %v, want %v", c.name, got, c.wanted)
		}
	}
}

// TestScriptedRule: with the op script the intended view decides
// (docs/rollout.md §8.2). Data written with the flags on must come strictly
// closer to it; data written before is held to the first promise (no
// intended row lost, every one shown right before still shown right), and a
// step that moves an intended row to a branch is judged as if the previous
// config had not shown it — on legacy data only.
func TestScriptedRule(t *testing.T) {
	row := func(id string) model.TargetRow { return model.TargetRow{ID: id, Kind: "row"} }
	view := func(ids ...string) model.TargetView {
		v := model.TargetView{Chain: []model.TargetRow{}}
		for _, id := range ids {
			v.Chain = append(v.Chain, row(id))
		}
		if len(ids) > 0 {
			v.HeadID = ids[len(ids)-1]
		}
		return v
	}
	want := view("u1", "u1_reply", "u2", "u2_reply")
	moved := map[string]bool{"u2": true, "u2_reply": true}
	for _, c := range []struct {
		name          string
		before, after model.TargetView
		strict        bool
		moved         map[string]bool
		fix           bool
	}{
		{"flags on, an intended row added", view("u1", "u1_reply"), view("u1", "u1_reply", "u2"), true, nil, true},
		{"flags on, a stray row added", view("u1", "u1_reply"), view("u1", "u1_reply", "x"), true, nil, false},
		{"legacy, a stray row added", view("u1", "u1_reply"), view("u1", "u1_reply", "x"), false, nil, true},
		{"legacy, an intended row lost", view("u1", "u1_reply", "u2"), view("u1", "u1_reply"), false, nil, false},
		{"legacy, intended rows moved to a branch", want, view("u1", "u1_reply"), false, moved, true},
		{"flags on, intended rows moved to a branch", want, view("u1", "u1_reply"), true, moved, false},
	} {
		if got := ruleScripted(c.before, c.after, want, c.strict, c.moved); got != c.fix {
			t.Errorf("%s: fix %v, want %v", c.name, got, c.fix)
		}
	}
}
