package harness

import (
	"fmt"
	"slices"
	"strings"

	"sessiondag/protocol"

	"sessiondag/impl/flags"
)

// A Check is one property. It declares what it holds on and needs, and every
// driver — the property suite, hunt, exhaust, replay — computes what to run
// from Checks alone: adding a check is adding it here.
type Check struct {
	Name string // as `#! check name=…` and `replay --check` spell it
	Prop string // the property of docs/rollout.md §5 it is
	Doc  string // one line
	// Data are the kinds of data it holds on, most specific first: the
	// property suite and hunt draw scripts of each; exhaust checks a script
	// on the first kind (per writers' start) that admits it.
	Data []Data
	// Run checks the session after an op: nil when the property holds (or
	// does not apply to the data so far). A check with Damage has none. It
	// reads what the ops left — the stored data, the models' views, Strict
	// and LegacyWrites — not the ops themselves: exhaust runs a check once
	// per distinct such data, whatever script left it.
	Run func(*Session) *Finding
	// ReadsScript: Run reads Session.Script (a planted check of a test),
	// so exhaust runs it on every script, none taken as another's equal.
	ReadsScript bool
	// History: Run is about what a load keeps for the next one (the
	// columns, memos and cached predecessors), so it needs a load before
	// the last op. Exhaust runs such a check after the loads of every
	// config on the session before the last op, and every other check on
	// a session no load has touched.
	History bool
	// OnDisk: the implementation must write to a directory (Options.Dir);
	// Play then makes a temporary one. Exhaust leaves such checks out.
	OnDisk bool
	// Damage: the check reads a directory the writers wrote and then
	// damaged (Cold), after the last op, not the session after each op.
	Damage bool
	// Reach names the shapes of the generator's tally a full run of the
	// check must reach (gen.Requirements): a run that misses one fails.
	Reach string
	// Needs is what the check needs of the implementation under test, and
	// the claims that promise its property (Applies).
	Needs Needs
}

// Needs is what a check needs of the implementation under test. A check
// whose needs an implementation does not meet is not run against it, and
// is reported so, never as a pass.
type Needs struct {
	// Claims are the claims that promise the property; nil = every claim.
	Claims []protocol.Claim
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
	legacyClaims  = []protocol.Claim{protocol.ClaimLegacy, protocol.ClaimRollout}
	targetClaims  = []protocol.Claim{protocol.ClaimTarget, protocol.ClaimRollout}
	rolloutClaims = []protocol.Claim{protocol.ClaimRollout}
	abc           = flags.A | flags.B | flags.C
)

// PerOp reports whether the check runs on the session after every op.
func (c Check) PerOp() bool { return !c.Damage }

// Checks are every check, in the order a replay runs them.
var Checks = []Check{
	// First: the columns a load keeps are filled by the first load under a
	// rule set, and that fill must be counted too.
	{Name: "retire-d", Prop: "D", Doc: "under D no reader reads parent_id, and D changes no view",
		Data: RolloutData, Run: checkRetireD, Needs: Needs{Claims: rolloutClaims, InProcess: true}},
	{Name: "legacy", Prop: "P1", Doc: "flags off ≡ model.Legacy in every view (data written with the flags off)",
		Data: []Data{OffAny}, Run: checkLegacy, Reach: "legacy",
		Needs: Needs{Claims: legacyClaims, Configs: []flags.Set{flags.Off}}},
	{Name: "target", Prop: "P2", Doc: "flags all ≡ model.Target (data written with the flags on)",
		Data: []Data{WrittenOn}, Run: checkTarget, Needs: Needs{Claims: targetClaims, Configs: []flags.Set{flags.All}}},
	{Name: "rollout", Prop: "P3", Doc: "every change of the loaded chain along the rollout path is a fix",
		Data: RolloutData, Run: checkRollout, Reach: "forks", Needs: Needs{Claims: rolloutClaims, Configs: flags.Rollout}},
	{Name: "rollback", Prop: "P10", Doc: "flags off on data written on any steps ≡ model.Legacy of the same ops, but the keys flag A adds",
		Data: []Data{WrittenOn, MixedAny}, Run: checkRollback, Needs: Needs{Claims: rolloutClaims, Configs: []flags.Set{flags.Off}}},
	{Name: "cutoff", Prop: "P4", Doc: "with A,B the chain is not cut off and the get_branch fallback changes nothing",
		Data: RolloutData, Run: checkCutoff, Reach: "forks",
		Needs: Needs{Claims: targetClaims, Configs: []flags.Set{flags.A | flags.B, abc}}},
	{Name: "cards", Prop: "P5", Doc: "the runtime-card pass never removes a user row, in every config",
		Data: []Data{OffAny, WrittenOn, MixedAny}, Run: checkCards,
		Needs: Needs{Claims: targetClaims, Configs: flags.Rollout, Views: []string{protocol.ViewBeforeCards}}},
	{Name: "aggregation", Prop: "P6", Doc: "each tool row folded exactly once or kept in place; blocks are copies",
		Data: []Data{OffAny}, Run: checkAggregation, Needs: Needs{InProcess: true}},
	{Name: "columns", Prop: "load", Doc: "what a load keeps between loads shows what a load through maps and a load with no memos show",
		Data: []Data{FlippedAny, MixedAny}, Run: checkColumns, Reach: "cache", History: true, Needs: Needs{InProcess: true}},
	{Name: "fields", Prop: "A", Doc: "under every config a message is its flags-off message with at most parent_id's value changed, keys in place",
		Data: []Data{WrittenOn, FlippedAny, MixedAny}, Run: checkFields,
		Needs: Needs{Claims: rolloutClaims, Configs: flags.Rollout, Views: []string{protocol.ViewMessages, protocol.ViewAll}}},
	{Name: "persistence", Prop: "P7", Doc: "a cold load of the directory gives the live session's nodes, head and views",
		Data: []Data{OffAny}, Run: checkPersistence, OnDisk: true, Needs: Needs{Restart: true}},
	{Name: "cold", Prop: "P1", Doc: "the cold load of a damaged directory, or one as the original leaves it, ≡ the model's reader",
		Data: []Data{OffAny}, Damage: true, Reach: "cold", Needs: Needs{InProcess: true}},
}

// Validity is what every session checks before any check runs: the
// implementation and the models agree on whether each op applies
// (Session.Apply). A failure of it is saved under this name.
var Validity = Check{Name: "validity", Prop: "P1", Doc: "the implementation and the models agree on whether each op applies",
	Data: DataKinds, Run: func(*Session) *Finding { return nil }}

// Protocol is what every session of another process checks: it answers
// every request as docs/protocol.md says (Broken). A failure of it is saved
// under this name; its replay asks for the views under every config the
// implementation declares after every op, so that it makes at least the
// requests of the check that was running when the implementation broke.
var Protocol = Check{Name: "protocol", Prop: "impl", Doc: "the implementation answers every request as the protocol says, within the deadline",
	Data: DataKinds, Run: checkProtocol}

func checkProtocol(s *Session) *Finding {
	if s.about.InProcess {
		return nil
	}
	for _, c := range s.about.Configs {
		fl := flags.All // a target implementation's one config
		if c != protocol.ConfigTarget {
			var err error
			if fl, err = flags.Parse(c); err != nil {
				continue // the handshake refuses unknown configs
			}
		}
		if s.Views(fl); s.broken != nil {
			return nil // Step reports it
		}
	}
	return nil
}

// CheckNamed finds a check by name (Validity and Protocol included).
func CheckNamed(name string) (Check, error) {
	switch name {
	case Validity.Name:
		return Validity, nil
	case Protocol.Name:
		return Protocol, nil
	}
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

// Select keeps the checks named in a comma-separated list, in the order of
// Checks (every check when the list is empty).
func Select(list string) ([]Check, error) {
	if strings.TrimSpace(list) == "" {
		return Checks, nil
	}
	want := map[string]bool{}
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		if _, err := CheckNamed(name); err != nil {
			return nil, err
		}
		want[name] = true
	}
	var out []Check
	for _, c := range Checks {
		if want[c.Name] {
			out = append(out, c)
		}
	}
	return out, nil
}

// Applies reports whether the check can judge an implementation: nil, or
// an error (ErrNotApplicable) saying what it lacks.
func (c Check) Applies(a protocol.About) error {
	_, err := c.Lacks(a)
	return err
}

// Lacks is what an implementation lacks for the check to judge it, in the
// words of "not run: needs …" ("" when it has everything: err is then
// nil), and the error Applies gives.
func (c Check) Lacks(a protocol.About) (string, error) {
	if a.InProcess {
		return "", nil
	}
	n := c.Needs
	switch {
	case n.InProcess:
		return "the implementation in-process", notApplicable("check %s reads the implementation's internals: it needs the implementation in this repository, in-process", c.Name)
	case n.Claims != nil && !slices.Contains(n.Claims, a.Claim):
		return "the claim " + claimList(n.Claims), notApplicable("check %s (%s) is promised by a %s implementation; %s claims %s", c.Name, c.Prop, claimList(n.Claims), a.Name, a.Claim)
	case n.Restart && !a.Restart:
		return "restart", notApplicable("check %s restarts the implementation; %s does not support restart", c.Name, a.Name)
	}
	for _, v := range n.Views {
		if !a.Returns(v) {
			return "the view " + v, notApplicable("check %s reads the view %s, which %s does not return", c.Name, v, a.Name)
		}
	}
	for _, fl := range n.Configs {
		if _, err := a.Config(fl); err != nil {
			return "config " + fl.String(), notApplicable("check %s: %v", c.Name, err)
		}
	}
	return "", nil
}

func claimList(cs []protocol.Claim) string {
	s := make([]string, len(cs))
	for i, c := range cs {
		s[i] = string(c)
	}
	return strings.Join(s, " or ")
}
