package props

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"sessiondag/harness"
	"sessiondag/impl/flags"
	"sessiondag/impl/webui"
)

// TestP3RolloutSafety: along off → A → A,B → A–C → A–D, every change of the
// loaded view between neighbouring configs moves it strictly closer to the
// intended conversation (harness.Gap: fewer missing rows, or as many and
// fewer wrong ones); a change that is not a fix is a regression of that
// step. The one change let through is a neutral one: only rows that are
// wrong in both configs changed. Checked after every op, on all three kinds
// of data; data written before the rollout is judged by the rollout's first
// promise only (see dataKind.legacy): fewer intended rows missing, or as
// many and every intended row the previous config showed right still shown
// right (rows the legacy records put on another branch are not judged).
func TestP3RolloutSafety(t *testing.T) {
	for _, kind := range dataKinds {
		t.Run(kind.name, func(t *testing.T) {
			rapid.Check(t, func(t *rapid.T) {
				r := newRolloutRun(t, "TestP3RolloutSafety", kind)
				t.Repeat(map[string]func(*rapid.T){"op": r.step, "": r.checkRollout})
			})
		})
	}
}

func (r *rolloutRun) checkRollout(t *rapid.T) {
	want := r.target.View()
	loads := r.loads()
	for i := 1; i < len(loads); i++ {
		a, b := projected(loads[i-1]), projected(loads[i])
		if sameView(a, b) {
			continue
		}
		if harness.StepOK(a, b, want, !r.kind.legacy) {
			continue
		}
		da, db := harness.ViewGap(a, want), harness.ViewGap(b, want)
		step := fmt.Sprintf("%s → %s", flags.Rollout[i-1], flags.Rollout[i])
		r.fail(t, fmt.Sprintf("step %s changes the view but not towards the intended one (%s → %s)", step, da, db),
			fmt.Sprintf("intended: %v\n%s: %v\n%s: %v", rowIDs(want.Chain), flags.Rollout[i-1], describe(loads[i-1]), flags.Rollout[i], describe(loads[i])))
	}
}

func loadAt(r *rolloutRun, fl flags.Set) *webui.Loaded {
	return webui.Load(r.impl.W.S.AtPersistedHead(), fl)
}

func describe(l *webui.Loaded) string {
	v := projected(l)
	fb := ""
	if l.FallbackUsed {
		fb = " (get_branch fallback)"
	}
	return fmt.Sprintf("head %s%s chain %v", v.HeadID, fb, rowIDs(v.Chain))
}
