package reconstruct

import (
	"fmt"
	"os"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"sessiondag/checker/gen"
	"sessiondag/checker/harness"
	"sessiondag/impl/flags"
)

// genSeeds are the seeds of TestGeneratedSessions: 40 by default (a few
// seconds); SESSIONDAG_RECONSTRUCT_SEEDS=N checks seeds 1…N.
func genSeeds(t *testing.T) int {
	if v := os.Getenv("SESSIONDAG_RECONSTRUCT_SEEDS"); v != "" {
		n, err := strconv.Atoi(v)
		require.NoError(t, err)
		return n
	}
	return 40
}

// TestGeneratedSessions: what `sessiondag gen --seed N --nodes 100
// --legacy=false` writes, its op script removed, is reconstructed byte for
// byte or ambiguously, never unexplained or undecided; where the
// reconstruction is the only reading it means what the script that made it
// means (model.Target).
func TestGeneratedSessions(t *testing.T) {
	counts := map[string]int{}
	among := 0
	for seed := uint64(1); seed <= uint64(genSeeds(t)); seed++ {
		script, _ := gen.SessionScript(fmt.Sprintf("local_%010x", seed), seed, 100, gen.Options{Legacy: false}, "off")
		res := checkRoundTrip(t, strconv.FormatUint(seed, 10), script, flags.Off)
		require.Contains(t, []string{Reconstructed, Ambiguous}, res.Verdict, "seed %d: %v", seed, res.Open)
		counts[res.Verdict]++
		if res.Verdict == Ambiguous {
			want := viewOf(t, script)
			ok := harness.SameView(want, res.View)
			for _, a := range res.Alternatives {
				ok = ok || harness.SameView(want, a.View)
			}
			if ok {
				among++
			}
		}
	}
	t.Logf("%v; of the ambiguous, %d have the generating script's view among their readings", counts, among)
}
