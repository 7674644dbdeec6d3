package props

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"sessiondag/impl/flags"
)

// TestP4NoEarlyCutoff: with A and B on the loaded chain starts at the root
// of the intended path, and the get_branch fallback never changes the result
// (so turning on C is safe). On all three kinds of data.
func TestP4NoEarlyCutoff(t *testing.T) {
	ab, abc := flags.A|flags.B, flags.A|flags.B|flags.C
	for _, kind := range dataKinds {
		t.Run(kind.name, func(t *testing.T) {
			rapid.Check(t, func(t *rapid.T) {
				r := newRolloutRun(t, "TestP4NoEarlyCutoff", kind)
				t.Repeat(map[string]func(*rapid.T){"op": r.step, "": func(t *rapid.T) {
					want := r.target.View()
					l := loadAt(r, ab)
					got := projected(l)
					if len(want.Chain) > 0 && (len(got.Chain) == 0 || got.Chain[0].ID != want.Chain[0].ID) {
						r.fail(t, "flags A,B: the chain does not start at the intended root",
							fmt.Sprintf("intended: %v\ngot: %v", rowIDs(want.Chain), rowIDs(got.Chain)))
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
