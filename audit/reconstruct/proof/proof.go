// Package proof places an op script against what was checked: reduced to
// its skeleton (ids renamed canonically, repeated turns folded), is it
// within the op count `sessiondag exhaust` walked whole, and are its shapes
// among those the property suite checks on every run (checker/gen's tally)?
// The audit asks it of every session whose script is known (its session.ops
// or its reconstruction), so that "ready" says how much of the data is of
// shapes the proof covers.
package proof

import (
	"fmt"
	"slices"
	"sort"

	"sessiondag/checker/gen"
	"sessiondag/ops"
)

// The walks README.md records as run whole, with 0 failures left: every
// script of at most 6 ops of every kind but flag and writer (bench/
// exhaust-dedup.md, at 8e69c1d; its 24 failures were fixed and kept as
// regressions), and of at most 5 ops of the whole vocabulary (9fb7e99).
const (
	WalkedKindsOps = 6
	WalkedAllOps   = 5
)

// Placement is where a script lies against what was checked.
type Placement struct {
	Ops int `json:"ops"` // the script's ops (its session op, and a flag op right after it, aside)
	// FlagsOn: the script starts with a flag op (its rows written with the
	// flags on: the walk's lane that starts with every flag on).
	FlagsOn     bool     `json:"flags_on,omitempty"`
	Skeleton    []ops.Op `json:"-"`             // canonical, repeated turns folded
	SkeletonOps int      `json:"skeleton_ops"`  // its ops (its session op aside)
	Walked      bool     `json:"walked"`        // the skeleton is of a size and kinds exhaust walked whole
	Why         string   `json:"why,omitempty"` // why not
	// Shapes are the shapes the script completes (gen.TallyOf), sorted;
	// Unrequired those the suite does not check on every run.
	Shapes     []string `json:"shapes"`
	Unrequired []string `json:"shapes_not_required,omitempty"`
}

// Place places a script.
func Place(script []ops.Op) Placement {
	p := Placement{Shapes: []string{}}
	script, p.FlagsOn = startState(script)
	p.Ops = len(script) - 1
	t, err := gen.TallyOf(script)
	for s := range t.Shapes {
		p.Shapes = append(p.Shapes, s)
	}
	sort.Strings(p.Shapes)
	required := gen.RequiredShapes()
	for _, s := range p.Shapes {
		if !slices.Contains(required, s) {
			p.Unrequired = append(p.Unrequired, s)
		}
	}
	if err != nil {
		p.Why = fmt.Sprintf("the generator's shadow does not follow the script: %v", err)
		return p
	}
	var note string
	p.Skeleton, note = Skeleton(script)
	p.SkeletonOps = len(p.Skeleton) - 1
	p.Walked, p.Why = walked(p.Skeleton)
	if !p.Walked && note != "" {
		p.Why += " (" + note + ")"
	}
	return p
}

// startState is the script from its session op on, the flag op that starts
// its writers on a step left out (exhaust walks every script from the
// flags off and from every flag on: that op is the lane, not an op), and
// whether there was one to every flag. A script without a session op gets
// one.
func startState(script []ops.Op) ([]ops.Op, bool) {
	out := []ops.Op{ops.Session{}}
	if len(script) > 0 {
		if s, ok := script[0].(ops.Session); ok {
			out, script = []ops.Op{s}, script[1:]
		}
	}
	on := false
	if len(script) > 0 {
		if f, ok := script[0].(ops.Flag); ok {
			step, err := f.Step()
			on = err == nil && step == len(ops.RolloutPath)-1
			if on {
				script = script[1:]
			}
		}
	}
	return append(out, script...), on
}

// walked reports whether a skeleton is one of the scripts a whole walk
// enumerated, values aside: its size and kinds, and the arguments the walk
// draws from its representatives where they decide what the op does.
func walked(skel []ops.Op) (bool, string) {
	n, writers := 0, false
	for _, op := range skel {
		if _, ok := op.(ops.Session); ok {
			continue
		}
		n++
		switch op.(type) {
		case ops.Flag, ops.Writer:
			writers = true
		}
	}
	switch {
	case n > WalkedKindsOps:
		return false, fmt.Sprintf("%d ops after folding: the walks covered %d (%d with flag and writer ops)", n, WalkedKindsOps, WalkedAllOps)
	case n > WalkedAllOps && writers:
		return false, fmt.Sprintf("%d ops with flag or writer ops: the whole vocabulary was walked to %d", n, WalkedAllOps)
	}
	if why := unwalkedValue(skel); why != "" {
		return false, why
	}
	return true, ""
}
