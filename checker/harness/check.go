package harness

import (
	"fmt"
	"slices"
	"strings"

	"sessiondag/impl/flags"
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
	// Needs is what the check needs of the implementation under test, and
	// the claims that promise its property (Applies).
	Needs Needs
}

// Needs is what a check needs of the implementation under test. A check
// whose needs an implementation does not meet is not run against it, and
// is reported so, never as a pass.
type Needs struct {
	// Claims are the claims that promise the property; nil = every claim.
	Claims []Claim
	// Configs are the flag sets the check loads under: a rollout
	// implementation must declare each (a target one loads as one config).
	Configs []flags.Set
	// Views are the views beyond the load that the check reads.
	Views []string
	// InProcess is set when the check reads the implementation's internals
	// (its store, the load's columns, its counters, its directory cold):
	// only the implementation in this repository, in-process, has them.
	InProcess bool
	// Restart is set when the check restarts the implementation.
	Restart bool
}

var (
	anyClaim      []Claim
	legacyClaims  = []Claim{ClaimLegacy, ClaimRollout}
	targetClaims  = []Claim{ClaimTarget, ClaimRollout}
	rolloutClaims = []Claim{ClaimRollout}
	abc           = flags.A | flags.B | flags.C
)

// Checks are every per-op check, in the order a replay runs them.
var Checks = []Check{
	// First: the columns a load keeps are filled by the first load under a
	// rule set, and that fill must be counted too.
	{Name: "retire-d", Prop: "D", Doc: "under D no reader reads parent_id, and D changes no view", Run: checkRetireD,
		Needs: Needs{Claims: rolloutClaims, InProcess: true}},
	{Name: "legacy", Prop: "P1", Doc: "flags off ≡ model.Legacy in every view (data written with the flags off)", Run: checkLegacy,
		Needs: Needs{Claims: legacyClaims, Configs: []flags.Set{flags.Off}}},
	{Name: "target", Prop: "P2", Doc: "flags all ≡ model.Target (data written with the flags on)", Run: checkTarget,
		Needs: Needs{Claims: targetClaims, Configs: []flags.Set{flags.All}}},
	{Name: "rollout", Prop: "P3", Doc: "every change of the loaded chain along the rollout path is a fix", Run: checkRollout,
		Needs: Needs{Claims: rolloutClaims, Configs: flags.Rollout}},
	{Name: "cutoff", Prop: "P4", Doc: "with A,B the chain is not cut off and the get_branch fallback changes nothing", Run: checkCutoff,
		Needs: Needs{Claims: targetClaims, Configs: []flags.Set{flags.A | flags.B, abc}}},
	{Name: "cards", Prop: "P5", Doc: "the runtime-card pass never removes a user row, in every config", Run: checkCards,
		Needs: Needs{Claims: targetClaims, Configs: flags.Rollout, Views: []string{ViewBeforeCards}}},
	{Name: "aggregation", Prop: "P6", Doc: "each tool row folded exactly once or kept in place; blocks are copies", Run: checkAggregation,
		Needs: Needs{InProcess: true}},
	{Name: "columns", Prop: "load", Doc: "what a load keeps between loads shows what a load through maps shows", Run: checkColumns,
		Needs: Needs{InProcess: true}},
	{Name: "persistence", Prop: "P7", Doc: "a cold load of the directory gives the live session's nodes, head and views", Run: checkPersistence,
		OnDisk: true, Needs: Needs{Claims: anyClaim, Restart: true}},
}

// Applies reports whether the check can judge an implementation: nil, or
// an error (ErrNotApplicable) saying what it lacks.
func (c Check) Applies(a About) error {
	if a.InProcess {
		return nil
	}
	n := c.Needs
	switch {
	case n.InProcess:
		return notApplicable("check %s reads the implementation's internals: it needs the implementation in this repository, in-process", c.Name)
	case n.Claims != nil && !slices.Contains(n.Claims, a.Claim):
		return notApplicable("check %s (%s) is promised by a %s implementation; %s claims %s", c.Name, c.Prop, claimList(n.Claims), a.Name, a.Claim)
	case n.Restart && !a.Restart:
		return notApplicable("check %s restarts the implementation; %s does not support restart", c.Name, a.Name)
	}
	for _, v := range n.Views {
		if !a.Returns(v) {
			return notApplicable("check %s reads the view %s, which %s does not return", c.Name, v, a.Name)
		}
	}
	for _, fl := range n.Configs {
		if _, err := a.Config(fl); err != nil {
			return notApplicable("check %s: %v", c.Name, err)
		}
	}
	return nil
}

func claimList(cs []Claim) string {
	s := make([]string, len(cs))
	for i, c := range cs {
		s[i] = string(c)
	}
	return strings.Join(s, " or ")
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
