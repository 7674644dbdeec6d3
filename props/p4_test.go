package props

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"sessiondag/impl/flags"
	"sessiondag/impl/lane"
)

// TestP4NoEarlyCutoff: with A and B on the loaded chain is not cut off, and
// the get_branch fallback never changes the result (so turning on C is
// safe). On data written with the flags on the chain starts at the root of
// the intended path. On data written before the rollout it starts at a root
// of the recorded conversation: its first row's predecessor is ROOT, never a
// pointer the walk could not follow. (Whether that recorded root is the
// intended one is not always knowable from legacy data: model/README.md,
// "Legacy derivation".)
func TestP4NoEarlyCutoff(t *testing.T) {
	ab, abc := flags.A|flags.B, flags.A|flags.B|flags.C
	for _, kind := range dataKinds {
		t.Run(kind.name, func(t *testing.T) {
			rapid.Check(t, func(t *rapid.T) {
				r := newRolloutRun(t, "TestP4NoEarlyCutoff", kind)
				t.Repeat(map[string]func(*rapid.T){"op": r.step, "": func(t *rapid.T) {
					want := r.target.View()
					st := r.impl.W.S.AtPersistedHead()
					l := loadAt(r, ab)
					got := projected(l)
					switch {
					case len(want.Chain) == 0:
					case !kind.legacy:
						if len(got.Chain) == 0 || got.Chain[0].ID != want.Chain[0].ID {
							r.fail(t, "flags A,B: the chain does not start at the intended root",
								fmt.Sprintf("intended: %v\ngot: %v", rowIDs(want.Chain), rowIDs(got.Chain)))
						}
					default:
						preds := lane.NewPreds(st)
						walk := preds.Walk(l.HeadID.ID())
						if len(walk) > 0 {
							if p, _ := preds.Of(walk[0]); p != "ROOT" {
								r.fail(t, "flags A,B: the walk stopped at a pointer it could not follow",
									fmt.Sprintf("walk %v; first row's predecessor %q", walk, p))
							}
						}
					}
					if l.FallbackUsed || !sameView(got, projected(loadAt(r, abc))) {
						r.fail(t, "flags A,B: the get_branch fallback changed the result",
							fmt.Sprintf("A,B: %s\nA,B,C: %s", describe(l), describe(loadAt(r, abc))))
					}
				}})
			})
		})
	}
}
