package gen

import (
	"fmt"
	"slices"
	"strings"

	"sessiondag/ops"
)

// What a script holds, by the generator's names: the draw kind of each op
// (DrawKinds) and the field variants it carries (Variants). An
// implementation names the variants it cannot write in its hello
// (docs/protocol.md, "without"); a script holding one is not applicable to
// it, whoever wrote the script — the generator, a corpus file, a reduction.

// variantOps are the op kinds each field variant is a field of.
var variantOps = map[string][]string{
	"end-duration":  {"end"},
	"rooted":        {"dispatch", "fork-root", "spawn", "task"},
	"object":        {"tool"},
	"user-form":     {"user"},
	"user-image":    {"user"},
	"user-function": {"user"},
	"reply-blocks":  {"legacy-reply"},
	"later":         {"legacy-user", "legacy-reply", "dispatch"},
}

// Followed is what walking a script through the generator's shadow found:
// the names it holds and the shapes it reaches.
type Followed struct {
	Holds []string // draw kinds and variants, each once, DrawKinds' order then Variants'
	Tally *Tally   // the ops and shapes of the script, as the generator counts its own
	// Err is set when the shadow could not follow an op (an invalid script):
	// the ops from there on are named by their fields alone and reach no
	// shape.
	Err error
}

// Holds lists the draw kinds and variants a script holds (Follow).
func Holds(script []ops.Op) []string { return Follow(script, 0).Holds }

// Follow walks script through a fresh shadow whose writers start at step
// start of the rollout path: which draw kind each op is, which variants it
// carries, and the shapes it reaches. A draw kind that depends on the state
// is read from the shadow: an orphan whose caller is written by a later op
// is orphan-later, a rewind of a row a load caches is rewind-cached.
func Follow(script []ops.Op, start int) Followed {
	t := NewTally()
	s := newShadow(start, t)
	sh := &s
	held := map[string]bool{}
	var callers []string // the callers orphans named before they were written
	var parents []string // the parents rows named before they were written
	var err error
	for i, op := range script {
		kind, variants := nameOf(op)
		if _, ok := op.(ops.Session); ok {
			continue
		}
		switch o := op.(type) {
		case ops.Orphan:
			if err == nil && o.Caller != "" && !s.written[o.Caller] {
				callers = append(callers, o.Caller)
				kind = "" // an orphan or an orphan-later: told at the end
			}
		case ops.LegacyUser, ops.LegacyReply, ops.UserDispatch:
			if p := parentOf(o); err == nil && p != "" && p != "none" && p != "null" && !s.written[p] {
				parents = append(parents, p)
			}
		case ops.Message:
			for _, p := range []string{o.Parent, o.Caller} {
				if err == nil && p != "" && p != "null" && !s.written[p] {
					parents = append(parents, p)
				}
			}
		case ops.Rewind:
			if cached := sh.cachedKindsOf(o.ID); err == nil && slices.Contains(cached[:], true) {
				kind = "rewind-cached"
			}
		}
		if kind != "" {
			held[kind] = true
		}
		for _, v := range variants {
			held[v] = true
		}
		if err == nil {
			err = shadowApply(sh, op, i+1)
			t.Op(op.Kind())
		}
	}
	for _, c := range callers {
		if s.written[c] {
			held["orphan-later"] = true
		} else {
			held["orphan"] = true
		}
	}
	for _, p := range parents {
		if s.written[p] {
			held["later"] = true
		}
	}
	f := Followed{Tally: t, Err: err}
	for _, n := range append(slices.Clone(DrawKinds), Variants...) {
		if held[n] {
			f.Holds = append(f.Holds, n)
		}
	}
	return f
}

// parentOf is the explicit parent a row op names.
func parentOf(op ops.Op) string {
	switch o := op.(type) {
	case ops.LegacyUser:
		return o.Parent
	case ops.LegacyReply:
		return o.Parent
	case ops.UserDispatch:
		return o.Parent
	}
	return ""
}

// shadowApply applies one op to the shadow, turning its panic on an op it
// cannot follow into an error naming the op.
func shadowApply(s *shadow, op ops.Op, seq int) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("op %d (%s): the generator's shadow cannot follow it: %v", seq, ops.Format(op), r)
		}
	}()
	if err := op.Apply(s); err != nil {
		return fmt.Errorf("op %d (%s): %w", seq, ops.Format(op), err)
	}
	return nil
}

// nameOf is the draw kind of an op as its fields tell it, and the field
// variants it carries.
func nameOf(op ops.Op) (string, []string) {
	var variants []string
	for _, v := range Variants {
		if Plain(op, []string{v}) != op { // Plain is where each variant's field is named
			variants = append(variants, v)
		}
	}
	kind := op.Kind()
	switch o := op.(type) {
	case ops.UserDispatch:
		if o.Source == "task_followup" {
			kind = "followup"
		}
	case ops.Spawn:
		if o.Turn {
			kind = "spawn-turn"
		}
	case ops.Task:
		if o.Turn {
			kind = "task-turn"
		}
	case ops.Tool:
		if o.Legacy {
			kind = "tool-legacy"
		}
	case ops.Fn:
		if o.ViaExec {
			kind = "fn-via-exec"
		}
	}
	return kind, variants
}

// Writable reports, for a name of DrawKinds or Variants, whether an
// implementation that writes the op kinds opKinds (nil: every kind) but
// not what without names can write it: a draw kind of one of its op kinds,
// a variant of one, neither named in without.
func Writable(opKinds, without []string) func(name string) bool {
	writes := func(k string) bool { return opKinds == nil || slices.Contains(opKinds, k) }
	return func(name string) bool {
		if slices.Contains(without, name) {
			return false
		}
		if strings.HasPrefix(name, "user-") && slices.Contains(without, "user-form") {
			return false // both forms
		}
		if ks, ok := variantOps[name]; ok {
			return slices.ContainsFunc(ks, writes)
		}
		k, err := KindNamed(name)
		return err == nil && writes(k.Op())
	}
}
