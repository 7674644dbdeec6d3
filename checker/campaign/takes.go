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
