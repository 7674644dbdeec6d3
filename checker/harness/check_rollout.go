package harness

import (
	"fmt"

	"sessiondag/impl/flags"
	"sessiondag/impl/lane"
)

// checkRollout is P3: along off → A → A,B → A–C → A–D every change of the
// loaded chain between neighbouring configs is a fix (IsFix), or neutral:
// only rows that are wrong either way changed. The finding names the step.
func checkRollout(s *Session) *Finding {
	want := s.Intended()
	for i := 1; i < len(flags.Rollout); i++ {
		from, to := flags.Rollout[i-1], flags.Rollout[i]
		la, lb := s.Load(from), s.Load(to)
		a, b := Projected(la), Projected(lb)
		if SameView(a, b) || IsFix(a, b, want, s.Strict()) || Neutral(a, b, want) {
			continue
		}
		return s.finding("rollout",
			fmt.Sprintf("step %s → %s changes the view but not towards the intended one (%s → %s)",
				from, to, ViewGap(a, want), ViewGap(b, want)),
			fmt.Sprintf("intended: %v\n%s: %s\n%s: %s", RowIDs(want.Chain), from, describe(la), to, describe(lb)))
	}
	return nil
}

// checkCutoff is P4: with A and B on the loaded chain is not cut off, and the
// get_branch fallback never changes the result (so turning on C is safe).
// Data written with the flags on starts at the root of the intended path;
// data written before the rollout starts at a root of the recorded
// conversation: its first row's predecessor is ROOT, never a pointer the walk
// could not follow. (Whether that recorded root is the intended one is not
// always knowable from legacy data: model/README.md, "Legacy derivation".)
// The walk needs the implementation's store: across the protocol only the
// root of strict data and the fallback are checked.
func checkCutoff(s *Session) *Finding {
	ab, abc := flags.A|flags.B, flags.A|flags.B|flags.C
	want := s.Intended()
	l := s.Load(ab)
	got := Projected(l)
	switch {
	case len(want.Chain) == 0:
	case s.Strict():
		if len(got.Chain) == 0 || got.Chain[0].ID != want.Chain[0].ID {
			return s.finding("cutoff", "flags A,B: the chain does not start at the intended root",
				fmt.Sprintf("intended: %v\ngot: %v", RowIDs(want.Chain), RowIDs(got.Chain)))
		}
	case s.Store() == nil:
		// Data written before the rollout: the walk over the pointers the
		// data holds needs the implementation's store, which another
		// process does not show; the fallback is checked below.
	default:
		preds := lane.NewPreds(s.Store())
		walk := preds.Walk(l.HeadID.ID())
		var first string
		if len(walk) > 0 {
			first, _ = preds.Of(walk[0])
		}
		if len(walk) > 0 && first != "ROOT" {
			return s.finding("cutoff", "flags A,B: the walk stopped at a pointer it could not follow",
				fmt.Sprintf("walk %v; first row's predecessor %q", walk, first))
		}
	}
	if l.FallbackUsed || !SameView(got, Projected(s.Load(abc))) {
		return s.finding("cutoff", "flags A,B: the get_branch fallback changed the result",
			fmt.Sprintf("A,B: %s\nA,B,C: %s", describe(l), describe(s.Load(abc))))
	}
	return nil
}
