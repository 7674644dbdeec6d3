package ops_test

import (
	"encoding/json"
	"testing"

	"sessiondag/checker/gen"
	"sessiondag/model"
	"sessiondag/ops"
)

// TestCanonicalKeepsMeaning: a generated script (generator ids, rows that
// name ids a later op writes, dangling names) and its canonical form give
// the same views in both reference models after every op, once the
// script's ids in the views are renamed. A renaming that loses a reference
// (an orphan's caller, a parent written later) shows up as a view that
// differs.
func TestCanonicalKeepsMeaning(t *testing.T) {
	later := 0
	for seed := range uint64(6) {
		g := gen.New(gen.Options{Legacy: true, FlagFlips: seed%2 == 1})
		script := g.Script(gen.NewSeeded(seed), 120)
		later += g.Tally.Shapes[gen.ShapeCallerLater] + g.Tally.Shapes[gen.ShapeAdapterLater]
		canon := ops.Canonical(script)
		r := ops.NewRenamer(script)
		for _, m := range []struct {
			name string
			run  func([]ops.Op) (any, error)
		}{
			{"legacy", func(s []ops.Op) (any, error) { return model.Legacy(s) }},
			{"target", func(s []ops.Op) (any, error) { return model.Target(s) }},
		} {
			want, err1 := m.run(script)
			got, err2 := m.run(canon)
			if err1 != nil || err2 != nil {
				t.Fatalf("seed %d, %s model: %v / canonical: %v", seed, m.name, err1, err2)
			}
			w, _ := json.Marshal(want)
			c, _ := json.Marshal(got)
			if r.String(string(w)) != string(c) {
				t.Errorf("seed %d: the %s views of the canonical script differ from the script's, renamed\nscript:\n%s\ncanonical:\n%s",
					seed, m.name, ops.String(script), ops.String(canon))
			}
		}
	}
	if later == 0 {
		t.Error("no generated row names an id a later op writes: the test does not cover forward references")
	}
}
