package campaign

import (
	"fmt"
	"slices"
	"strings"

	"sessiondag/checker/gen"
	"sessiondag/checker/harness"
	"sessiondag/ops"
	"sessiondag/protocol"
)

// Takes reports whether an implementation can be given a script: every op
// is of a kind it writes, and the script holds no draw kind or field
// variant it declares it cannot write (About.Without; what a script holds:
// gen.Holds). Otherwise the error is harness.ErrNotApplicable and says what
// the script needs: "needs dispatch, user-form: …". Such a script is not
// run against it, and is reported so, never as a failure or a pass.
func Takes(a protocol.About, script []ops.Op) error {
	needs := Needs(a, script)
	if len(needs) == 0 {
		return nil
	}
	var kinds, without []string
	for _, n := range needs {
		if slices.Contains(a.Without, n) {
			without = append(without, n)
		} else {
			kinds = append(kinds, n)
		}
	}
	var why []string
	if len(kinds) > 0 {
		why = append(why, fmt.Sprintf("%s writes no %s ops", a.Name, strings.Join(kinds, " or ")))
	}
	if len(without) > 0 {
		why = append(why, fmt.Sprintf("%s declares it writes no %s (without)", a.Name, strings.Join(without, " or ")))
	}
	return fmt.Errorf("%w: needs %s: %s", harness.ErrNotApplicable, strings.Join(needs, ", "), strings.Join(why, "; "))
}

// Needs lists what a script holds that an implementation does not write:
// the op kinds it does not declare, then the draw kinds and variants of
// the kinds it does declare that its without list names, each once.
func Needs(a protocol.About, script []ops.Op) []string {
	var kinds, without []string
	for _, op := range script {
		if k := op.Kind(); !a.Writes(k) && !slices.Contains(kinds, k) {
			kinds = append(kinds, k)
		}
	}
	if len(a.Without) > 0 {
		for _, n := range gen.Holds(script) {
			if slices.Contains(a.Without, n) {
				without = append(without, n)
			}
		}
	}
	return append(kinds, without...)
}

// Taken is the longest start of script an implementation takes (Takes):
// the script cut before the first op of a kind it does not write or
// holding a variant it declares without. A cut start that still holds one
// through what the ops do together (an orphan whose caller comes later, a
// rewind of a row a load caches) is none.
func Taken(a protocol.About, script []ops.Op) []ops.Op {
	if Takes(a, script) == nil {
		return script
	}
	for i, op := range script {
		if Takes(a, []ops.Op{op}) != nil {
			script = script[:i]
			break
		}
	}
	if Takes(a, script) != nil {
		return nil
	}
	return script
}

// Lacking is what an implementation lacks for a replay of a file to judge
// anything, in the words of "not run: needs …": what the script holds that
// it does not write (Needs), else what the checks and kinds of data of the
// plan need of it (harness.Check.Lacks, harness.DataLacks), each once.
func Lacking(f *ops.File, o ReplayOptions) []string {
	if o.Impl == nil {
		return nil
	}
	a := o.Impl.About()
	if needs := Needs(a, f.Ops); len(needs) > 0 {
		return needs
	}
	groups, err := Plan(f, o)
	if err != nil {
		return nil
	}
	var out []string
	add := func(need string) {
		if need != "" && !slices.Contains(out, need) {
			out = append(out, need)
		}
	}
	for _, g := range groups {
		if need, _ := harness.DataLacks(a, g.Data); need != "" {
			add(need)
			continue
		}
		for _, c := range g.Checks {
			need, _ := c.Lacks(a)
			add(need)
		}
	}
	return out
}
