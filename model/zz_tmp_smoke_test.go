package model

import (
	"testing"

	"sessiondag/gen"
)

func TestZZTmpSmoke(t *testing.T) {
	for seed := uint64(0); seed < 1500; seed++ {
		g := gen.New(gen.Options{Legacy: seed%2 == 0, FlagFlips: true})
		script := g.Script(gen.NewSeeded(seed), 150)
		script = append(script, g.Finish()...)
		r := NewTarget(DefaultSessionID)
		for i, op := range script {
			if err := r.Apply(op); err != nil {
				t.Fatalf("seed %d op %d: %v", seed, i, err)
			}
			v := r.View()
			seen := map[string]bool{}
			for _, row := range v.Chain {
				if seen[row.ID] {
					t.Fatalf("seed %d op %d dup %s", seed, i, row.ID)
				}
				seen[row.ID] = true
			}
			if v.HeadID != "" && !r.rewound[v.HeadID] && !seen[v.HeadID] {
				t.Fatalf("seed %d op %d head %s not in chain %v", seed, i, v.HeadID, v.Chain)
			}
		}
	}
}
