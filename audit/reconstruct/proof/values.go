package proof

import (
	"fmt"
	"slices"

	"sessiondag/checker/gen"
	"sessiondag/model"
	"sessiondag/ops"
)

// unwalkedValue names the first op of a skeleton whose arguments the walk
// never draws where they decide what the op does ("" if none): an explicit
// parent other than the latest row written (or a dangling one), a web
// turn's form (an image, a function-form run), an internal turn's source,
// a message dict and the older writers' rerun, which the walk leaves to the
// generator
// (checker/exhaust's candidates).
func unwalkedValue(skel []ops.Op) string {
	run := model.NewLegacy(ops.DefaultSession)
	var live []string // rows written, ROOT aside, not rewound
	for i, op := range skel {
		latest := ""
		if len(live) > 0 {
			latest = live[len(live)-1]
		}
		if why := drawn(op, latest, run); why != "" {
			return fmt.Sprintf("op %d (%s): %s", i+1, ops.Format(op), why)
		}
		before := run.NodeCount()
		if run.Apply(op) != nil {
			return fmt.Sprintf("op %d (%s) does not replay", i+1, ops.Format(op))
		}
		for _, id := range run.IDsFrom(before) {
			if id != "ROOT" {
				live = append(live, id)
			}
		}
		if r, ok := op.(ops.Rewind); ok {
			live = slices.DeleteFunc(live, func(id string) bool { return id == r.ID })
		}
	}
	return ""
}

// drawn says why the walk does not draw op as it is ("" if it does).
func drawn(op ops.Op, latest string, run *model.LegacyRun) string {
	parent := func(p string, keywords ...string) string {
		if p == latest || slices.Contains(keywords, p) || run.Node(p) == nil && p != "" {
			return ""
		}
		return "its parent is no row the walk names (the latest row written)"
	}
	switch op := op.(type) {
	case ops.UserWeb:
		if op.Form != "" {
			return "a web turn's form, which the walk leaves to the generator"
		}
	case ops.UserDispatch:
		if op.Source != "" {
			return "an internal turn's source, which the walk leaves to the generator"
		}
		return parent(op.Parent, "", "none")
	case ops.LegacyUser:
		return parent(op.Parent, "", "null")
	case ops.LegacyReply:
		return parent(op.Parent)
	case ops.Message:
		return "a message dict, which the walk leaves to the generator"
	case ops.Retry, ops.Edit:
		if gen.Held(op, []string{"rerun-web"}) != "" {
			return "the older writers' rerun, which the walk leaves to the generator"
		}
	}
	return ""
}
