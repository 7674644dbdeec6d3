package harness

import (
	"fmt"

	"sessiondag/driver"
	"sessiondag/impl/flags"
	"sessiondag/impl/webui"
	"sessiondag/model"
	"sessiondag/ops"
)

// StepOK is the rollout rule for one step between neighbouring configs that
// changed the view from before to after: a fix (IsFix), or a neutral change,
// where only rows that are wrong in both views changed (a row of another
// branch shown raw, then aggregated, say).
func StepOK(before, after, want model.TargetView, strict bool) bool {
	if IsFix(before, after, want, strict) {
		return true
	}
	a, b := ViewGap(before, want), ViewGap(after, want)
	return !a.Less(b) && IntendedPart(before, want) == IntendedPart(after, want)
}

// ReplayMigration builds a session from a script through the writers with
// every flag off (a flag op in the script still flips them, as data written
// across the rollout does) and after every op loads it under each config of
// the rollout path: every step that changes the view must pass StepOK as
// data written before the rollout.
func ReplayMigration(script []ops.Op) (*Mismatch, error) {
	var first ops.Op
	if len(script) > 0 {
		first = script[0]
	}
	run, err := driver.Start(first, "", flags.Off)
	if err != nil {
		return nil, err
	}
	tgt := model.NewTarget(run.W.S.ID)
	for i, op := range script {
		if err := run.Apply(op); err != nil {
			return nil, fmt.Errorf("op %d (%s): %w", i+1, ops.Format(op), err)
		}
		if err := tgt.Apply(op); err != nil {
			return nil, fmt.Errorf("op %d (%s): model.Target refuses it: %w", i+1, ops.Format(op), err)
		}
		if mm := rolloutSteps(run, tgt.View()); mm != nil {
			mm.Step, mm.Op = i+1, ops.Format(op)
			return mm, nil
		}
	}
	return nil, nil
}

// rolloutSteps checks each step of the rollout path at the persisted head.
func rolloutSteps(run *driver.Run, want model.TargetView) *Mismatch {
	st := run.W.S.AtPersistedHead()
	prev := projectLoad(webui.Load(st, flags.Rollout[0]))
	for i, fl := range flags.Rollout[1:] {
		cur := projectLoad(webui.Load(st, fl))
		if !(prev.HeadID == cur.HeadID && SameChain(prev.Chain, cur.Chain)) && !StepOK(prev, cur, want, false) {
			return &Mismatch{Against: "model.Target", Section: "chain", Diff: fmt.Sprintf(
				"written with the flags off, step %s → %s is not a fix (%s → %s)\nintended %v\nbefore   %v\nafter    %v",
				flags.Rollout[i], fl, ViewGap(prev, want), ViewGap(cur, want), rowIDs(want), rowIDs(prev), rowIDs(cur))}
		}
		prev = cur
	}
	return nil
}

func projectLoad(l *webui.Loaded) model.TargetView {
	return model.TargetView{HeadID: l.HeadID, Chain: Project(l.Chain)}
}

func rowIDs(v model.TargetView) []string {
	out := make([]string, len(v.Chain))
	for i, r := range v.Chain {
		out[i] = r.ID
		if r.Kind == "card" {
			out[i] += "(card)"
		}
	}
	return out
}
