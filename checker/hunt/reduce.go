package hunt

import (
	"reflect"
	"slices"

	"sessiondag/checker/harness"
	"sessiondag/checker/ops"
)

// A Reduced failure: the smallest script (and damage) found on which the
// same check still fails on the same data, and the finding it gives.
type Reduced struct {
	Finding *harness.Finding
	Script  []ops.Op
	Damage  []PointerEdit
	// Reproduced is false when the reduced script no longer failed when
	// played once more (a nondeterministic failure): Finding and Script are
	// then the original ones.
	Reproduced bool
}

// Reduce shrinks the failure f of plan p: first the damage (each pointer
// edit dropped if the failure stays), then the script up to the failing op
// with harness.Reduce (the damage rewriting the same nodes of each shorter
// script), then its values (simplify), keeping a candidate only if
// the same check still fails on the same data. Last, the ids are renamed
// canonically (n1, n2, …) if the failure stays, so that the file of a
// failure reads the same whichever iteration found it.
func Reduce(p *Plan, f *harness.Finding, tmp string) Reduced {
	same := func(script []ops.Op, damage []PointerEdit) bool {
		g, err := p.play(script, damage, tmp)
		return err == nil && g != nil && g.Check == f.Check
	}
	script := f.Script(p.Script)
	damage := slices.Clone(p.Damage)
	for i := len(damage) - 1; i >= 0; i-- {
		if cand := slices.Delete(slices.Clone(damage), i, i+1); same(script, cand) {
			damage = cand
		}
	}
	fails := func(s []ops.Op) bool { return same(s, damage) }
	script = simplify(harness.Reduce(script, fails), fails)
	if cs, cd := canonical(script, damage); same(cs, cd) {
		script, damage = cs, cd
	}
	g, err := p.play(script, damage, tmp)
	if err != nil || g == nil || g.Check != f.Check {
		return Reduced{Finding: f, Script: f.Script(p.Script), Damage: p.Damage}
	}
	return Reduced{Finding: g, Script: g.Script(script), Damage: damage, Reproduced: true}
}

// simplify sets each field of each op that is not an id (a text, a tool's
// arguments, a flag such as `error`) to the simplest value it can take
// (simplest) wherever the script stays valid and still fails: what is left
// are the values that matter, and reductions that differed only in the
// others become the same script.
func simplify(script []ops.Op, fails func([]ops.Op) bool) []ops.Op {
	for j := range script {
		if _, ok := script[j].(ops.Session); ok {
			continue
		}
		for i := 0; i < reflect.TypeOf(script[j]).NumField(); i++ {
			for _, cand := range simpler(script[j], i) {
				try := slices.Clone(script)
				try[j] = cand
				if harness.Valid(try) && fails(try) {
					script = try
					break
				}
			}
		}
	}
	return script
}

// simplest are the values a string field is tried with, simplest first:
// none, then the empty JSON object (a field that must hold one).
var simplest = []string{"", "{}"}

// simpler lists op with field i set to each simpler value, if the field is
// a value (not an id): false for a bool, the simplest strings for a string.
func simpler(op ops.Op, i int) []ops.Op {
	f := reflect.TypeOf(op).Field(i)
	if ops.IDField(f) {
		return nil
	}
	var out []ops.Op
	set := func(x any) {
		v := reflect.New(reflect.TypeOf(op)).Elem()
		v.Set(reflect.ValueOf(op))
		if !v.Field(i).Equal(reflect.ValueOf(x)) {
			v.Field(i).Set(reflect.ValueOf(x))
			out = append(out, v.Interface().(ops.Op))
		}
	}
	switch f.Type.Kind() {
	case reflect.Bool:
		set(false)
	case reflect.String:
		cur := reflect.ValueOf(op).Field(i).String()
		for _, s := range simplest {
			if s == cur {
				break // what it holds is as simple as it gets
			}
			set(s)
		}
	}
	return out
}

// canonical is script and its damage with the ids renamed as
// ops.Canonical does.
func canonical(script []ops.Op, damage []PointerEdit) ([]ops.Op, []PointerEdit) {
	r := ops.NewRenamer(script)
	var out []PointerEdit
	for _, e := range damage {
		out = append(out, PointerEdit{ID: r.String(e.ID), Pointer: e.Pointer, Target: r.String(e.Target)})
	}
	return r.Script(script), out
}
