//go:build mutants

package mutant

import "os"

var active = os.Getenv("SESSIONDAG_MUTANT")

// On reports whether the named mutant is active.
func On(name string) bool { return name != "" && name == active }

// Active is the mutant switched on (SESSIONDAG_MUTANT), "" for none.
func Active() string { return active }
