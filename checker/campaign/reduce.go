package campaign

import (
	"reflect"
	"slices"
	"time"

	"sessiondag/checker/harness"
	"sessiondag/ops"
)

// A Pass is one way of making a failing case smaller. Run tries candidates
// in a fixed order and keeps the first one (or each one, for the sweeps)
// that still fails; it reports whether it kept any.
type Pass struct {
	Name string
	Run  func(c Case, fails func(Case) bool) (Case, bool)
}

// Passes are the reduction's schedule, in order. Reduce runs them in turn
// and starts again from the first whenever one made progress, until none
// does; then the ids are renamed canonically. A candidate counts only if it
// is data of the case's kind (valid, and synced where the kind asks for
// it) and fails the same check.
var Passes = []Pass{
	{"damage", dropDamage},      // each pointer edit of a cold case, last first
	{"folder", dropFolder},      // each folder edit of a cold case, last first
	{"units", deleteUnits},      // each op with what cannot stay without it, last first
	{"chunks", deleteChunks},    // runs of neighbouring ops, the longest first
	{"turns", plainTurns},       // a turn opened another way made a web user turn
	{"order", sortOps},          // neighbours swapped, the simpler kind first (order.go)
	{"redirect", redirect},      // a reference pointed at an earlier row
	{"values", simplifyValues},  // texts, arguments and switches at their simplest
	{"canonical", canonicalIDs}, // minted ids renamed n1, n2, … in mint order
}

// Reduced is a reduction's result.
type Reduced struct {
	Case    Case
	Finding *harness.Finding // on Case
	// Reproduced is false when the case found no longer failed when played
	// from scratch (a failure that depends on what ran before it in the same
	// process, such as exhaust's walk): Case is then the one found.
	Reproduced bool
	Plays      int            // cases played
	Kept       map[string]int // candidates kept, by pass
}

// Reduce shrinks case c, on which a driver found f, with Passes (c.Of(f) is
// the case of a finding). The result replays to a finding of the same check
// on the same data, unless Reproduced is false: then it is c and f as found.
func Reduce(c Case, f *harness.Finding, tmp string) Reduced { return ReduceBy(c, f, tmp, time.Time{}) }

// ReduceBy is Reduce that tries no candidate after deadline (zero: none):
// the case as far as it was reduced then, which still fails. A driver with
// a deadline of its own ends on time, with a longer script.
func ReduceBy(c Case, f *harness.Finding, tmp string, deadline time.Time) Reduced {
	r := Reduced{Kept: map[string]int{}}
	fails := func(cand Case) bool {
		if !deadline.IsZero() && r.Plays > 0 && time.Now().After(deadline) {
			return false
		}
		r.Plays++
		return cand.Fails(tmp)
	}
	c = c.Of(f)
	c.Script = slices.Clone(c.Script)
	found := c
	if !fails(c) {
		return Reduced{Case: found, Finding: f, Plays: r.Plays, Kept: r.Kept}
	}
	for progress := true; progress; {
		progress = false
		for _, p := range Passes {
			next, ok := p.Run(c, fails)
			if ok {
				r.Kept[p.Name]++
				c, progress = next, true
				if p.Name != "canonical" {
					break // start again from the cheapest pass
				}
			}
		}
	}
	g, err := c.Play(tmp)
	r.Case, r.Finding, r.Reproduced = c, g, err == nil && g != nil && g.Check == c.Check.Name
	if !r.Reproduced {
		r.Case, r.Finding = found, f
	}
	return r
}

func dropDamage(c Case, fails func(Case) bool) (Case, bool) {
	for i := len(c.Damage) - 1; i >= 0; i-- {
		if cand := c.With(c.Script, slices.Delete(slices.Clone(c.Damage), i, i+1)); fails(cand) {
			return cand, true
		}
	}
	return c, false
}

func dropFolder(c Case, fails func(Case) bool) (Case, bool) {
	for i := len(c.Folder) - 1; i >= 0; i-- {
		cand := c
		cand.Folder = slices.Delete(slices.Clone(c.Folder), i, i+1)
		if fails(cand) {
			return cand, true
		}
	}
	return c, false
}

func deleteUnits(c Case, fails func(Case) bool) (Case, bool) {
	kept := false
	wrote := written(c.Script)
	for i := len(c.Script) - 1; i >= 0; i-- {
		if i >= len(c.Script) {
			continue
		}
		if cand := c.With(without(c.Script, unit(c.Script, wrote, i)), c.Damage); fails(cand) {
			c, kept = cand, true
			wrote = written(c.Script)
		}
	}
	return c, kept
}

func deleteChunks(c Case, fails func(Case) bool) (Case, bool) {
	for size := len(c.Script) / 2; size >= 1; size-- {
		for start := 0; start+size <= len(c.Script); start++ {
			cand := c.With(slices.Concat(c.Script[:start], c.Script[start+size:]), c.Damage)
			if fails(cand) {
				return cand, true
			}
		}
	}
	return c, false
}

func redirect(c Case, fails func(Case) bool) (Case, bool) {
	var out Case
	ok := redirectOne(c.Script, written(c.Script), func(s []ops.Op) bool {
		out = c.With(s, c.Damage)
		return fails(out)
	})
	if !ok {
		return c, false
	}
	return out, true
}

// simplifyValues sets the value fields of each op (not its ids: a text, a
// tool's arguments, a switch such as `error`) to the simplest values they
// take wherever the case still fails: what is left are the values that
// matter, and reductions that differed only in the others become one. It
// moves one field, or two at once: what one field may hold can hang on
// another (the web chat sends an empty text only with an image), and a
// reduction that moved one field at a time would keep whichever of the two
// its start happened to hold.
func simplifyValues(c Case, fails func(Case) bool) (Case, bool) {
	kept := false
	for j := range c.Script {
		if _, ok := c.Script[j].(ops.Session); ok {
			continue
		}
	tries:
		for {
			for _, alt := range simpler(c.Script[j]) {
				s := slices.Clone(c.Script)
				s[j] = alt
				if cand := c.With(s, c.Damage); fails(cand) {
					c, kept = cand, true
					continue tries
				}
			}
			break
		}
	}
	return c, kept
}

// simplest are the values a string field is tried with, simplest first:
// none, then the empty JSON object (a field that must hold one).
var simplest = []string{"", "{}"}

// valueField is a field of an op a reduction may set: the values it is
// tried with, simplest first, and the rank of the one it holds (its index
// there; past the end for any other value).
type valueField struct {
	index   int
	options []reflect.Value
	rank    int
}

// valueFields are op's fields that hold a value, not an id or a name.
func valueFields(op ops.Op) []valueField {
	var out []valueField
	t, v := reflect.TypeOf(op), reflect.ValueOf(op)
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if ops.IDField(f) {
			continue
		}
		if _, w := op.(ops.Writer); w && f.Name == "Name" {
			continue // who writes, not what: another name is another writer
		}
		if calls(op) && f.Name == "Name" {
			// which tool or function is called, not a value: an original's
			// registries hold none without a name (each is a named Python
			// function), so a reduction that empties it makes an op the
			// original refuses, a validity finding of the reduction's own
			continue
		}
		var opts []reflect.Value
		switch f.Type.Kind() {
		case reflect.Bool:
			opts = []reflect.Value{reflect.ValueOf(false), reflect.ValueOf(true)}
		case reflect.String:
			for _, s := range simplest {
				opts = append(opts, reflect.ValueOf(s).Convert(f.Type))
			}
		default:
			continue
		}
		rank := len(opts)
		for k, o := range opts {
			if v.Field(i).Equal(o) {
				rank = k
			}
		}
		out = append(out, valueField{index: i, options: opts, rank: rank})
	}
	return out
}

// simpler lists the ops that differ from op in one or two value fields, each
// set to one of its options, and are simpler in all (their ranks' sum is
// lower): the simplest first, then in field and option order. One of two
// fields may move to a less simple option if the other gains more.
func simpler(op ops.Op) []ops.Op {
	type set struct {
		index int
		value reflect.Value
	}
	type move struct {
		sets []set
		gain int
	}
	fields := valueFields(op)
	var moves []move
	for a, f := range fields {
		for k, o := range f.options {
			if k < f.rank {
				moves = append(moves, move{[]set{{f.index, o}}, f.rank - k})
			}
		}
		for _, g := range fields[a+1:] {
			for k, o := range f.options {
				for l, p := range g.options {
					if gain := f.rank - k + g.rank - l; k != f.rank && l != g.rank && gain > 0 {
						moves = append(moves, move{[]set{{f.index, o}, {g.index, p}}, gain})
					}
				}
			}
		}
	}
	slices.SortStableFunc(moves, func(x, y move) int { return y.gain - x.gain })
	out := make([]ops.Op, 0, len(moves))
	for _, m := range moves {
		v := reflect.New(reflect.TypeOf(op)).Elem()
		v.Set(reflect.ValueOf(op))
		for _, s := range m.sets {
			v.Field(s.index).Set(s.value)
		}
		out = append(out, v.Interface().(ops.Op))
	}
	return out
}

// canonicalIDs renames the ids the script mints as ops.Canonical does, the
// damage following, if the case still fails: two reductions that differ only
// by the generator's ids are then one script.
func canonicalIDs(c Case, fails func(Case) bool) (Case, bool) {
	cand := canonical(c)
	if slices.Equal(cand.Script, c.Script) && slices.Equal(cand.Damage, c.Damage) && slices.Equal(cand.Folder, c.Folder) {
		return c, false
	}
	if fails(cand) {
		return cand, true
	}
	return c, false
}

func canonical(c Case) Case {
	r := ops.NewRenamer(c.Script)
	var damage []PointerEdit
	for _, e := range c.Damage {
		damage = append(damage, PointerEdit{ID: r.String(e.ID), Pointer: e.Pointer, Target: r.String(e.Target)})
	}
	out := c.With(r.Script(c.Script), damage)
	out.Folder = nil
	for _, e := range c.Folder {
		out.Folder = append(out.Folder, FolderEdit{Kind: e.Kind, ID: r.String(e.ID)})
	}
	return out
}

// calls reports whether op calls a tool or function by its name.
func calls(op ops.Op) bool {
	switch op.(type) {
	case ops.Tool, ops.Fn, ops.Manual:
		return true
	}
	return false
}
