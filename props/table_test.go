package props

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"sessiondag/checker/campaign"
	"sessiondag/checker/gen"
	"sessiondag/checker/harness"
	"sessiondag/impl/flags"
	"sessiondag/impl/store"
)

// TestRolloutTable counts, over fixed-seed generated sessions of each kind
// of data, how many sessions each rollout step changes (loaded at their
// final head) and whether every change is a fix; it fails on any change that
// is not. Its log is the table in the README (go test ./props -run
// TestRolloutTable -v).
func TestRolloutTable(t *testing.T) {
	t.Parallel()
	const sessions, length = 300, 60
	var b strings.Builder
	fmt.Fprintf(&b, "\n| data | step | chain changed | fixes | not fixes | other views changed only |\n|---|---|---|---|---|---|\n")
	for _, kind := range harness.RolloutData {
		n := len(flags.Rollout)
		changed, fixes, others := make([]int, n), make([]int, n), make([]int, n)
		for seed := uint64(1); seed <= sessions; seed++ {
			script := gen.New(campaign.GenOptions(kind)).Script(gen.NewSeeded(seed), length)
			s, err := harness.NewSession(harness.Options{Data: kind})
			if err != nil {
				t.Fatal(err)
			}
			for _, op := range script {
				if _, err := s.Apply(op); err != nil {
					t.Fatalf("%s seed %d: %v", kind.Name, seed, err)
				}
			}
			want := s.Intended()
			for i := 1; i < n; i++ {
				prev, cur := harness.Projected(s.Load(flags.Rollout[i-1])), harness.Projected(s.Load(flags.Rollout[i]))
				switch {
				case harness.SameView(prev, cur):
					if viewBytes(t, s.Store(), flags.Rollout[i-1]) != viewBytes(t, s.Store(), flags.Rollout[i]) {
						others[i]++ // parent_id values, sibling keys: display fields only
					}
				case harness.IsFix(prev, cur, want, s.Strict()):
					changed[i]++
					fixes[i]++
				default:
					changed[i]++
					t.Errorf("%s, seed %d, step to %s: %s → %s", kind.Name, seed, flags.Rollout[i],
						harness.ViewGap(prev, want), harness.ViewGap(cur, want))
				}
			}
		}
		for i := 1; i < n; i++ {
			fmt.Fprintf(&b, "| %s | %s → %s | %d of %d | %d | %d | %d |\n", kind.Name, flags.Rollout[i-1], flags.Rollout[i],
				changed[i], sessions, fixes[i], changed[i]-fixes[i], others[i])
		}
	}
	t.Log(b.String())
}

func viewBytes(t *testing.T, st *store.Store, fl flags.Set) string {
	b, err := json.Marshal(harness.Views(st, fl))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
