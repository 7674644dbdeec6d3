package harness

import (
	"fmt"

	"sessiondag/model"
)

// Gap is how far a view is from the intended conversation, in two parts
// compared in order: Missing first, because the rollout exists so that no
// message is lost, then Wrong (rows of another branch or rows that should
// be folded, rows shown differently, rows out of order, a wrong head).
type Gap struct {
	Missing int
	Wrong   int
}

// Less reports whether g is strictly closer to the intended view than h.
func (g Gap) Less(h Gap) bool {
	if g.Missing != h.Missing {
		return g.Missing < h.Missing
	}
	return g.Wrong < h.Wrong
}

// Zero reports whether the view is exactly the intended one.
func (g Gap) Zero() bool { return g.Missing == 0 && g.Wrong == 0 }

func (g Gap) String() string { return fmt.Sprintf("%d missing, %d wrong", g.Missing, g.Wrong) }

// ViewGap measures a projected view against the intended one.
func ViewGap(got, want model.TargetView) Gap {
	wantAt := make(map[string]int, len(want.Chain))
	for i, r := range want.Chain {
		wantAt[r.ID] = i
	}
	shown := make(map[string]bool, len(got.Chain))
	var g Gap
	last, ordered := -1, true
	for _, r := range got.Chain {
		shown[r.ID] = true
		i, ok := wantAt[r.ID]
		if !ok {
			g.Wrong++
			continue
		}
		if !sameRow(r, want.Chain[i]) {
			g.Wrong++
		}
		if i < last {
			ordered = false
		}
		last = i
	}
	for _, r := range want.Chain {
		if !shown[r.ID] {
			g.Missing++
		}
	}
	if !ordered {
		g.Wrong++
	}
	if got.HeadID != want.HeadID {
		g.Wrong++
	}
	return g
}

// intendedPart is what a view shows of the intended conversation: for each
// intended row, whether it is shown and shown right; and the head. Two views
// with the same IntendedPart differ only in rows that are wrong in both.
func intendedPart(got, want model.TargetView) string {
	at := make(map[string]model.TargetRow, len(got.Chain))
	var order []string
	for _, r := range got.Chain {
		at[r.ID] = r
	}
	wanted := make(map[string]bool, len(want.Chain))
	for _, r := range want.Chain {
		wanted[r.ID] = true
	}
	for _, r := range got.Chain {
		if wanted[r.ID] {
			order = append(order, r.ID)
		}
	}
	out := fmt.Sprintf("head=%s order=%v", got.HeadID, order)
	for _, w := range want.Chain {
		g, shown := at[w.ID]
		out += fmt.Sprintf(" %s:%t:%t", w.ID, shown, shown && sameRow(g, w))
	}
	return out
}

// keepsShownRight reports whether every intended row view a shows exactly as
// intended is still shown so by view b.
func keepsShownRight(a, b, want model.TargetView) bool {
	right := func(v model.TargetView) map[string]bool {
		at := make(map[string]model.TargetRow, len(v.Chain))
		for _, r := range v.Chain {
			at[r.ID] = r
		}
		out := map[string]bool{}
		for _, w := range want.Chain {
			if g, ok := at[w.ID]; ok && sameRow(g, w) {
				out[w.ID] = true
			}
		}
		return out
	}
	rb := right(b)
	for id := range right(a) {
		if !rb[id] {
			return false
		}
	}
	return true
}

// IsFix is the rollout rule for a step that changed the view from before to
// after. Data written with the flags on (strict) must come strictly closer
// to the intended view (Gap.Less). Data written before the rollout is held to
// the rollout's first promise, because legacy records can put a row on a
// branch its user never meant (model/README.md, "Legacy derivation"): fewer
// intended rows missing, or as many and every intended row shown right
// before still shown right.
func IsFix(before, after, want model.TargetView, strict bool) bool {
	a, b := ViewGap(before, want), ViewGap(after, want)
	if strict {
		return b.Less(a)
	}
	return b.Missing < a.Missing || b.Missing == a.Missing && keepsShownRight(before, after, want)
}

// Neutral reports whether a change from view a to view b only touched rows
// outside the intended conversation (a row of another branch shown raw,
// then aggregated, say) — every intended row shown the same way, in the
// same order, the same head — without moving the view further from it.
func Neutral(a, b, want model.TargetView) bool {
	return !ViewGap(a, want).Less(ViewGap(b, want)) && intendedPart(a, want) == intendedPart(b, want)
}
