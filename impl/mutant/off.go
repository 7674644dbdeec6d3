//go:build !mutants

// Package mutant lets the test harness re-introduce historic bugs into the
// implementation, to show that each property can fail. In a normal build On
// is a constant false that the compiler removes; only a build with
// `-tags mutants` reads SESSIONDAG_MUTANT (see scripts/mutants).
package mutant

// On reports whether the named mutant is active.
func On(name string) bool { return false }

// Active is the mutant compiled in and switched on: none in a normal build.
func Active() string { return "" }
