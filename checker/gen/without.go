package gen

import (
	"fmt"
	"slices"

	"sessiondag/ops"
)

// Variants are the variants of an op drawn as a field of it, by the names
// an implementation gives those it cannot write (docs/protocol.md,
// "without"; the variants that are draw kinds of their own, such as
// tool-legacy, go by their DrawKinds name).
var Variants = []string{
	"end-duration",  // an end with a duration
	"rooted",        // a dispatcher or sub-agent user row called by ROOT (dispatch, fork-root, spawn, task)
	"rerun-web",     // a retry or edit row with the web source (the older writers' rerun)
	"object",        // a tool's input stored as an object
	"user-form",     // a web turn with an image or in function form (both of the two below)
	"user-image",    // a web turn with an image attached
	"user-function", // a web turn in function form
	"reply-blocks",  // a legacy reply carrying its own blocks
	"later",         // a parent naming an id a later op writes (legacy-user, legacy-reply, dispatch): one an implementation that mints its own ids has no name for yet
}

// Without is what an implementation cannot write, as Options.Without
// names it: the draw kinds to leave out of only (nil: every kind) and the
// field variants to draw as their plain op. A name that is neither is an
// error naming it.
func Without(names, only []string) (kinds []string, variants []string, err error) {
	kinds = only
	if kinds == nil {
		kinds = DrawKinds
	}
	for _, n := range names {
		switch {
		case slices.Contains(Variants, n):
			variants = append(variants, n)
		case slices.Contains(DrawKinds, n):
		default:
			return nil, nil, fmt.Errorf("%q is neither a draw kind nor a variant (%v)", n, Variants)
		}
	}
	kinds = slices.DeleteFunc(slices.Clone(kinds), func(k string) bool { return slices.Contains(names, k) })
	return kinds, variants, nil
}

// KnownWithout checks the names an implementation's hello gives as what
// it cannot write (protocol/process.Options.KnownWithout).
func KnownWithout(names []string) error {
	_, _, err := Without(names, nil)
	return err
}

// plain is op without the field variants of Options.Without: the fields
// are drawn all the same, so a seed draws the same script whatever is
// left out, but the op is written plain.
func (g *Gen) plain(op ops.Op) ops.Op { return Plain(op, g.opt.Without) }

// Plain is op without the field variants (Variants) named in without: the
// op an implementation that cannot write them writes in its place.
func Plain(op ops.Op, without []string) ops.Op {
	if len(without) == 0 {
		return op
	}
	no := func(v string) bool { return slices.Contains(without, v) }
	switch o := op.(type) {
	case ops.End:
		if no("end-duration") {
			o.Duration = ""
		}
		return o
	case ops.UserDispatch:
		o.Rooted = o.Rooted && !no("rooted")
		return o
	case ops.ForkRoot:
		o.Rooted = o.Rooted && !no("rooted")
		return o
	case ops.Spawn:
		if o.Rooted && no("rooted") {
			o.Rooted = false
			if o.Mode == "async" && o.Followup == "" { // R's runner writes a follow-up the older writers did not
				o.Followup = o.ID + "_followup"
			}
		}
		return o
	case ops.Task:
		if o.Rooted && no("rooted") {
			o.Rooted = false
			// R's async task is the runner's, which the generator draws in
			// a web turn of its own accord; in place of the older writers'
			// one (of any turn) R's task tool waits for the sub-agent
			o.Async = false
		}
		return o
	case ops.Tool:
		o.Object = o.Object && !no("object")
		return o
	case ops.Retry:
		o.Web = o.Web && !no("rerun-web")
		return o
	case ops.Edit:
		o.Web = o.Web && !no("rerun-web")
		return o
	case ops.UserWeb:
		if no("user-form") || no("user-"+o.Form) {
			o.Form = ""
		}
		return o
	case ops.LegacyReply:
		o.Blocks = o.Blocks && !no("reply-blocks")
		return o
	}
	return op
}

// Held is the name, among without, of a variant op holds that an
// implementation declaring without cannot write: a field variant
// (Variants), or a draw kind of its own that the op's fields make it (a
// legacy tool edge, a function entered from an exec's tool loop, a finished
// async task's follow-up turn). "" when op holds none of them. The draw
// kinds that the state of the session makes (an orphan whose caller comes
// later, a rewind of a row a load caches) are not told from the op.
func Held(op ops.Op, without []string) string {
	for _, v := range without {
		if slices.Contains(Variants, v) {
			if Plain(op, []string{v}) != op {
				return v
			}
			continue
		}
		switch o := op.(type) {
		case ops.Tool:
			if v == "tool-legacy" && o.Legacy {
				return v
			}
		case ops.Fn:
			if v == "fn-via-exec" && o.ViaExec {
				return v
			}
		case ops.UserDispatch:
			if v == "followup" && o.Source == "task_followup" {
				return v
			}
		case ops.Spawn:
			if v == "spawn-turn" && o.Turn {
				return v
			}
		case ops.Task:
			if v == "task-turn" && o.Turn {
				return v
			}
		}
	}
	return ""
}
