// Package gen generates op scripts that are valid step by step: a small
// shadow of the writer's state decides which ops apply, and a Source of
// random choices picks among them. The same generator feeds the property
// tests (rapid draws through checker/gen/rapidsrc, so failures shrink), the
// `sessiondag gen`, `hunt` and `exhaust` commands and the benchmark
// workloads (a seeded PCG, so a seed always gives the same script). Flags
// move as the options allow (forward, or back too), up to three writers
// take turns, or a rollout plan (Rollout) decides who writes on which step.
package gen

import "math/rand/v2"

// Source supplies the generator's choices.
type Source interface {
	// IntN returns a number in [0, n).
	IntN(n int, label string) int
}

// Seeded is a Source from a fixed seed: the same seed, the same script.
type Seeded struct{ r *rand.Rand }

// NewSeeded makes a seeded Source.
func NewSeeded(seed uint64) *Seeded {
	return &Seeded{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
}

// IntN implements Source.
func (s *Seeded) IntN(n int, _ string) int { return s.r.IntN(n) }
