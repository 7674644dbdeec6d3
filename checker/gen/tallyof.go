package gen

import (
	"fmt"

	"sessiondag/ops"
)

// TallyOf counts a script the generator did not draw (a session's op script,
// reconstructed from its files) as a generator that drew it would: its op
// kinds and the shapes its ops complete. The error names the first op the
// shadow cannot follow; the tally then holds the ops before it.
func TallyOf(script []ops.Op) (*Tally, error) {
	t := NewTally()
	s := newShadow(0, t)
	for i, op := range script {
		if err := op.Apply(&s); err != nil {
			return t, fmt.Errorf("op %d (%s): %w", i+1, ops.Format(op), err)
		}
		t.Op(op.Kind())
	}
	return t, nil
}

// RequiredShapes are the shapes a default run of the suite checks whatever
// it draws (every set of Requirements, topped up with seeded scripts where
// a run misses one), in Requirements' order of sets, each once.
func RequiredShapes() []string {
	var out []string
	seen := map[string]bool{}
	for _, set := range []string{"legacy", "cache", "forks", "cold"} {
		for _, s := range Requirements[set] {
			if !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
	}
	return out
}
