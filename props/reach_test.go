package props

import (
	"slices"
	"testing"

	"sessiondag/checker/gen"
	"sessiondag/checker/harness"
)

// reachCases is how many seeded scripts (props.seeded: the generator's own
// draws under a swarm drawn from the seed, as a top-up draws them) must
// reach every shape a check requires on each kind of data it declares. The
// slowest shape of the suite takes 456 (a root fork answered by a row that
// records it as parent, on data of mixed writers; the test logs each
// check's slowest), most fewer than 80; a generator rule that stops
// offering a path to a shape makes that shape rarer or unreachable, and
// this test fails where the top-up of TestChecks, which tries 2,000 seeds
// after the random draws, would hide it.
const reachCases = 700

// TestGeneratorReachesEveryShape: with fixed seeds and no top-up, the
// generator's own draws reach every shape each check requires within
// reachCases scripts, on every kind of data the check declares.
func TestGeneratorReachesEveryShape(t *testing.T) {
	inProcessOnly(t, "the generator's reach, which no implementation changes")
	t.Parallel()
	for _, c := range harness.Checks {
		if c.Reach == "" {
			continue
		}
		for _, d := range c.Data {
			t.Run(c.Prop+"-"+c.Name+"/"+d.Slug, func(t *testing.T) {
				t.Parallel()
				required := gen.Requirements[c.Reach]
				first := map[string]uint64{} // the first seed that reaches each shape
				for seed := uint64(1); seed <= reachCases && len(first) < len(required); seed++ {
					_, tally := seeded(t, c, d, seed)
					for _, shape := range required {
						if _, ok := first[shape]; !ok && tally.Shapes[shape] > 0 {
							first[shape] = seed
						}
					}
				}
				var missing []string
				slowest, at := "", uint64(0)
				for _, shape := range required {
					s, ok := first[shape]
					if !ok {
						missing = append(missing, shape)
					} else if s > at {
						slowest, at = shape, s
					}
				}
				slices.Sort(missing)
				if len(missing) > 0 {
					t.Fatalf("%d seeded scripts reach none of %q", reachCases, missing)
				}
				t.Logf("every required shape within %d scripts; the slowest: %q", at, slowest)
			})
		}
	}
}
