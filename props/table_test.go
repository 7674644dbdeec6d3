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
)

// TestRolloutTable counts, over 300 fixed-seed generated sessions of each
// kind of data (30 in -short), how many sessions each rollout step changes (loaded at their
// final head) and whether every change is a fix; it fails on any change that
// is not. Its log is the table in the README (go test ./props -run
// TestRolloutTable -v).
func TestRolloutTable(t *testing.T) {
	t.Parallel()
	judges(t, []harness.Check{check("rollout")})
	draw := budget.begin(t)
	sessions, length := uint64(300), 60
	if testing.Short() {
		sessions = 30
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n| data | step | chain changed | fixes | not fixes | other views changed only |\n|---|---|---|---|---|---|\n")
	for _, kind := range harness.RolloutData {
		if err := harness.TakesData(about(), kind); err != nil {
			t.Logf("not run: %v", err)
			continue
		}
		n := len(flags.Rollout)
		changed, fixes, others := make([]int, n), make([]int, n), make([]int, n)
		seed := uint64(1)
		for ; seed <= sessions && draw.more(); seed++ {
			script := gen.New(drawnFor(campaign.GenOptions(kind))).Script(gen.NewSeeded(seed), length)
			if underTest != nil {
				script = campaign.Taken(about(), script) // cut before an op it does not take
			}
			s, err := harness.NewSession(harness.Options{Data: kind, Impl: underTest})
			if err != nil {
				t.Fatal(err)
			}
			for _, op := range script {
				f, err := s.Apply(op)
				if err != nil {
					t.Fatalf("%s seed %d: %v", kind.Name, seed, err)
				}
				if f != nil {
					t.Fatalf("%s seed %d: %s", kind.Name, seed, campaign.Report(campaign.Case{Check: harness.Validity, Data: kind, Script: s.Script, Impl: underTest}, f, ""))
				}
			}
			want := s.Intended()
			for i := 1; i < n; i++ {
				prev, cur := harness.Projected(s.Load(flags.Rollout[i-1])), harness.Projected(s.Load(flags.Rollout[i]))
				switch {
				case harness.SameView(prev, cur):
					if viewBytes(t, s, flags.Rollout[i-1]) != viewBytes(t, s, flags.Rollout[i]) {
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
			s.Close()
		}
		for i := 1; i < n; i++ {
			fmt.Fprintf(&b, "| %s | %s → %s | %d of %d | %d | %d | %d |\n", kind.Name, flags.Rollout[i-1], flags.Rollout[i],
				changed[i], seed-1, fixes[i], changed[i]-fixes[i], others[i])
		}
	}
	t.Log(b.String())
	if underTest != nil {
		if draw.count() == 0 {
			undecided(t, fmt.Sprintf("no session checked within its share (%s)", draw))
		}
		covered(t, fmt.Sprintf("%s of %d sessions per kind of data", draw, sessions))
	}
}

func viewBytes(t *testing.T, s *harness.Session, fl flags.Set) string {
	b, err := json.Marshal(s.Views(fl))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
