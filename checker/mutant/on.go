//go:build mutants

package mutant

import "os"

var active = os.Getenv("SESSIONDAG_MUTANT")

// On reports whether the named mutant is active.
func On(name string) bool { return name != "" && name == active }
