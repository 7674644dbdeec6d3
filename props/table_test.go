package props

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"sessiondag/driver"
	"sessiondag/gen"
	"sessiondag/harness"
	"sessiondag/impl/flags"
	"sessiondag/impl/store"
	"sessiondag/impl/webui"
	"sessiondag/model"
)

// TestRolloutTable counts, over fixed-seed generated sessions of each kind
// of data, how many sessions each rollout step changes (loaded at their
// final head) and whether every change is a fix; it fails on any change that
// is not. Its log is the table in the README (go test ./props -run
// TestRolloutTable -v).
func TestRolloutTable(t *testing.T) {
	const sessions, length = 300, 60
	var b strings.Builder
	fmt.Fprintf(&b, "\n| data | step | chain changed | fixes | not fixes | other views changed only |\n|---|---|---|---|---|---|\n")
	for _, kind := range dataKinds {
		changed := make([]int, len(flags.Rollout))
		fixes := make([]int, len(flags.Rollout))
		others := make([]int, len(flags.Rollout))
		for seed := uint64(1); seed <= sessions; seed++ {
			script := gen.New(kind.opt).Script(gen.NewSeeded(seed), length)
			run, err := driver.Build(script, "", kind.writer)
			if err != nil {
				t.Fatalf("%s seed %d: %v", kind.name, seed, err)
			}
			views, err := model.Target(script)
			if err != nil {
				t.Fatalf("%s seed %d: model.Target: %v", kind.name, seed, err)
			}
			want := views[len(views)-1]
			st := run.W.S.AtPersistedHead()
			prev := projected(webui.Load(st, flags.Off))
			prevAll := viewBytes(t, st, flags.Off)
			for i, fl := range flags.Rollout[1:] {
				cur := projected(webui.Load(st, fl))
				curAll := viewBytes(t, st, fl)
				if sameView(prev, cur) && curAll != prevAll {
					others[i+1]++ // parent_id values, sibling keys: display fields only
				}
				prevAll = curAll
				if !sameView(prev, cur) {
					changed[i+1]++
					if harness.IsFix(prev, cur, want, !kind.legacy) {
						fixes[i+1]++
					} else {
						t.Errorf("%s, seed %d, step to %s: %s → %s", kind.name, seed, fl, harness.ViewGap(prev, want), harness.ViewGap(cur, want))
					}
				}
				prev = cur
			}
		}
		for i := 1; i < len(flags.Rollout); i++ {
			fmt.Fprintf(&b, "| %s | %s → %s | %d of %d | %d | %d | %d |\n", kind.name, flags.Rollout[i-1], flags.Rollout[i],
				changed[i], sessions, fixes[i], changed[i]-fixes[i], others[i])
		}
	}
	t.Log(b.String())
}

func viewBytes(t *testing.T, st *store.Store, fl flags.Set) string {
	b, err := json.Marshal(webui.Views(st, fl))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
