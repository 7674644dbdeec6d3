package harness

import (
	"fmt"
	"strings"
)

// A Check is one property, checked after every op of a Session. It returns
// nil when the property holds (or does not apply to the data so far).
type Check struct {
	Name string // as `#! check name=…` and `replay --check` spell it
	Prop string // the property of docs/rollout.md §5 it is
	Doc  string // one line
	Run  func(*Session) *Finding
	// OnDisk is set when the check needs the implementation to write to a
	// directory (Options.Dir); Play then makes a temporary one.
	OnDisk bool
}

// Checks are every per-op check, in the order a replay runs them.
var Checks = []Check{
	// First: the columns a load keeps are filled by the first load under a
	// rule set, and that fill must be counted too.
	{"retire-d", "D", "under D no reader reads parent_id, and D changes no view", checkRetireD, false},
	{"legacy", "P1", "flags off ≡ model.Legacy in every view (data written with the flags off)", checkLegacy, false},
	{"target", "P2", "flags all ≡ model.Target (data written with the flags on)", checkTarget, false},
	{"rollout", "P3", "every change of the loaded chain along the rollout path is a fix", checkRollout, false},
	{"cutoff", "P4", "with A,B the chain is not cut off and the get_branch fallback changes nothing", checkCutoff, false},
	{"cards", "P5", "the runtime-card pass never removes a user row, in every config", checkCards, false},
	{"aggregation", "P6", "each tool row folded exactly once or kept in place; blocks are copies", checkAggregation, false},
	{"columns", "load", "what a load keeps between loads shows what a load through maps shows", checkColumns, false},
	{"persistence", "P7", "a cold load of the directory gives the live session's nodes, head and views", checkPersistence, true},
}

// CheckNamed finds a check by name.
func CheckNamed(name string) (Check, error) {
	for _, c := range Checks {
		if c.Name == name {
			return c, nil
		}
	}
	return Check{}, fmt.Errorf("no check %q (checks: %s)", name, strings.Join(CheckNames(), ", "))
}

// CheckNames lists the checks' names in order.
func CheckNames() []string {
	out := make([]string, len(Checks))
	for i, c := range Checks {
		out[i] = c.Name
	}
	return out
}
