package model_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"sessiondag/checker/gen"
	"sessiondag/model"
	"sessiondag/ops"
)

// TestRunViewIsLegacyViewOfSession: the writer's view, read through the
// index and messages it keeps as it writes, is LegacyView of a copy of its
// session, which builds everything afresh, after every op of generated
// scripts (every op kind, rewinds and updates of written nodes included).
func TestRunViewIsLegacyViewOfSession(t *testing.T) {
	seeds := 5
	if testing.Short() {
		seeds = 1
	}
	for seed := range uint64(seeds) {
		g := gen.New(gen.Options{Legacy: true, FlagFlips: seed%2 == 1})
		script := g.Script(gen.NewSeeded(seed), 120)
		r := model.NewLegacy(ops.DefaultSession)
		for i, op := range script {
			if err := r.Apply(op); err != nil {
				t.Fatalf("seed %d, op %d (%s): %v", seed, i+1, ops.Format(op), err)
			}
			got, err1 := json.Marshal(r.View())
			want, err2 := json.Marshal(model.LegacyView(r.Session()))
			if err1 != nil || err2 != nil {
				t.Fatalf("seed %d, op %d: %v %v", seed, i+1, err1, err2)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("seed %d, after op %d (%s): the writer's view differs from LegacyView of its session\nscript:\n%s\nwriter: %s\nfresh:  %s",
					seed, i+1, ops.Format(op), ops.String(script[:i+1]), got, want)
			}
		}
	}
}
