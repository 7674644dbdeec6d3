package hunt

import (
	"fmt"
	"slices"
	"strings"

	"sessiondag/checker/gen"
	"sessiondag/checker/harness"
	"sessiondag/impl/flags"
)

// A Target is one property with the kinds of data it is meant for: each
// iteration picks a target, then one of its kinds.
type Target struct {
	Check harness.Check // harness.ColdCheck for the cold load of a damaged directory
	Data  []harness.Data
}

// Cold reports whether the target is the cold check, which plays through
// harness.Cold rather than a Session.
func (t Target) Cold() bool { return t.Check.Name == harness.ColdCheck.Name }

// legacyData is data written with every flag off, every legacy shape
// included and no browser rule: what the implementation's invariants (and
// flags-off fidelity) hold on, as the property suite draws it.
var legacyData = harness.Data{Name: "written with the flags off", Slug: "migration", Writer: flags.Off,
	Gen: gen.Options{Legacy: true}}

// flippedAny is data whose flags flip mid-session, ambiguous legacy shapes
// included: what a load's columns must follow through.
var flippedAny = func() harness.Data {
	d := harness.Flipped
	d.Name = "flags flipped mid-session, every legacy shape"
	d.Gen.SyncedBrowser = false
	return d
}()

// dataFor is the data each check of harness.Checks is meant for, as the
// property suite runs it. A check missing here runs on all three kinds
// (TestEveryCheckHasItsData asks for an entry).
var dataFor = map[string][]harness.Data{
	"legacy":      {legacyData},
	"target":      {harness.WrittenOn},
	"rollout":     harness.DataKinds,
	"cutoff":      harness.DataKinds,
	"retire-d":    harness.DataKinds,
	"cards":       {legacyData},
	"aggregation": {legacyData},
	"columns":     {legacyData, flippedAny},
	"persistence": {legacyData},
}

// Targets are every per-op check of harness.Checks, each on the data it is
// meant for, then the cold check. The order is part of what a seed means.
func Targets() []Target {
	var out []Target
	for _, c := range harness.Checks {
		data, ok := dataFor[c.Name]
		if !ok {
			data = harness.DataKinds
		}
		out = append(out, Target{Check: c, Data: data})
	}
	return append(out, Target{Check: harness.ColdCheck, Data: []harness.Data{legacyData}})
}

// ForImpl keeps the targets an implementation can be judged on: each check
// that applies to it (harness.Check.Applies), on the kinds of data it
// writes, their scripts drawn from the op kinds it writes. It says why each
// of the others is left out.
func ForImpl(targets []Target, a harness.About) ([]Target, []string) {
	var out []Target
	var notRun []string
	for _, t := range targets {
		if err := t.Check.Applies(a); err != nil {
			notRun = append(notRun, unwrapped(err))
			continue
		}
		var data []harness.Data
		for _, d := range t.Data {
			if err := a.TakesData(d); err != nil {
				notRun = append(notRun, t.Check.Name+": "+unwrapped(err))
				continue
			}
			if a.Ops != nil {
				d.Gen.Only = keepKinds(d.Gen.Only, gen.DrawKindsOf(a.Ops))
			}
			data = append(data, d)
		}
		if len(data) > 0 {
			out = append(out, Target{Check: t.Check, Data: data})
		}
	}
	return out, notRun
}

// keepKinds is the draw kinds of both lists (all of kinds when only is
// empty).
func keepKinds(only, kinds []string) []string {
	if len(only) == 0 {
		return kinds
	}
	var out []string
	for _, k := range only {
		if slices.Contains(kinds, k) {
			out = append(out, k)
		}
	}
	return out
}

func unwrapped(err error) string {
	return strings.TrimPrefix(err.Error(), harness.ErrNotApplicable.Error()+": ")
}

// Select keeps the targets whose check is named in a comma-separated list
// (every target when the list is empty).
func Select(all []Target, list string) ([]Target, error) {
	if strings.TrimSpace(list) == "" {
		return all, nil
	}
	want := map[string]bool{}
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		found := false
		for _, t := range all {
			found = found || t.Check.Name == name
		}
		want[name] = true
		if !found {
			var names []string
			for _, t := range all {
				names = append(names, t.Check.Name)
			}
			return nil, fmt.Errorf("no check %q (checks: %s)", name, strings.Join(names, ", "))
		}
	}
	var out []Target
	for _, t := range all {
		if want[t.Check.Name] {
			out = append(out, t)
		}
	}
	return out, nil
}
