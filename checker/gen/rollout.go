package gen

import (
	"fmt"
	"strconv"
	"strings"

	"sessiondag/ops"
)

// A Rollout is a rollout as a deployment runs it (after CockroachDB's
// randomized mixed-version upgrade plans): phases in order, each the steps
// its writers run and how long it lasts. Within a phase, writers w1, w2, …
// take turns, each on its own step; a phase with fewer writers than the one
// before leaves the others out, with whatever they had in progress (a worker
// taken down mid-turn).
type Rollout struct {
	Phases []Phase
}

// A Phase is one stretch of a rollout.
type Phase struct {
	Steps []int // the step of writer w1, w2, … (positions on ops.RolloutPath)
	Ops   int   // how many ops it lasts; the last phase lasts to the end (0)
}

// maxPhases is how many phases a drawn rollout has at most: five hops.
const maxPhases = 5

// String spells the rollout as ParseRollout reads it: phases separated by
// '/', each its writers' flag sets joined by '+' and, but for the last, ':'
// and its length in ops: off:10/A+off:20/A,B:5/A:10/all.
func (r *Rollout) String() string {
	var parts []string
	for i, p := range r.Phases {
		var sets []string
		for _, s := range p.Steps {
			sets = append(sets, ops.RolloutPath[s])
		}
		part := strings.Join(sets, "+")
		if i < len(r.Phases)-1 || p.Ops > 0 {
			part += ":" + strconv.Itoa(p.Ops)
		}
		parts = append(parts, part)
	}
	return strings.Join(parts, "/")
}

// ParseRollout reads a rollout as String spells it. Every phase but the last
// needs a length of at least one op; a phase has one to three writers.
func ParseRollout(text string) (*Rollout, error) {
	r := &Rollout{}
	phases := strings.Split(strings.TrimSpace(text), "/")
	for i, part := range phases {
		sets, length, hasLength := strings.Cut(part, ":")
		var p Phase
		if hasLength {
			n, err := strconv.Atoi(length)
			if err != nil || n < 1 {
				return nil, fmt.Errorf("rollout %q: phase %d: length %q is not a number of ops", text, i+1, length)
			}
			p.Ops = n
		} else if i < len(phases)-1 {
			return nil, fmt.Errorf("rollout %q: phase %d needs a length (SETS:OPS); only the last lasts to the end", text, i+1)
		}
		for _, set := range strings.Split(sets, "+") {
			step, err := ops.Step(set)
			if err != nil || strings.TrimSpace(set) == "" {
				return nil, fmt.Errorf("rollout %q: phase %d: %v", text, i+1, stepErr(set, err))
			}
			p.Steps = append(p.Steps, step)
		}
		if len(p.Steps) > maxWriters {
			return nil, fmt.Errorf("rollout %q: phase %d has %d writers, at most %d", text, i+1, len(p.Steps), maxWriters)
		}
		r.Phases = append(r.Phases, p)
	}
	return r, nil
}

func stepErr(set string, err error) error {
	if err != nil {
		return err
	}
	return fmt.Errorf("an empty flag set in %q", set)
}

// maxWriters is how many writers a rollout's phase has at most.
const maxWriters = 3

// DrawRollout draws a rollout of about total ops whose writers start on step
// start: one to five phases of random lengths. Without back, one writer
// moves forward phase by phase (a rollout as planned, each step on or after
// the one before). With back, the step moves as deployments move it — on
// to the next, back one, back to off, or staying — and each phase has one
// to writers writers: w1 on the phase's step, the others still on the step
// before it (a tier upgraded one worker at a time).
func DrawRollout(src Source, start int, back bool, writers, total int) *Rollout {
	n := 1 + src.IntN(maxPhases, "rollout phases")
	lengths := splitOps(src, max(total, n), n)
	r := &Rollout{}
	cur, last := start, len(ops.RolloutPath)-1
	for i := range n {
		prev := cur
		if i > 0 {
			cur = nextStep(src, cur, last, back)
		}
		p := Phase{Steps: []int{cur}, Ops: lengths[i]}
		if back {
			for range src.IntN(max(writers, 1), "rollout writers") {
				p.Steps = append(p.Steps, []int{prev, cur}[src.IntN(2, "rollout writer step")])
			}
		}
		r.Phases = append(r.Phases, p)
	}
	r.Phases[n-1].Ops = 0
	return r
}

// nextStep is the step of the phase after one on cur.
func nextStep(src Source, cur, last int, back bool) int {
	if !back {
		return min(cur+src.IntN(2, "rollout forward"), last)
	}
	switch src.IntN(10, "rollout move") {
	case 0, 1, 2, 3, 4, 5:
		return min(cur+1, last)
	case 6, 7:
		return max(cur-1, 0) // a step rolled back
	case 8:
		return 0 // every step rolled back
	}
	return cur
}

// splitOps cuts total into n lengths of at least one op each.
func splitOps(src Source, total, n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = 1
	}
	for range total - n {
		out[src.IntN(n, "rollout phase length")]++
	}
	return out
}

// boundary is the op (counted from 0) at which phase k starts.
func (r *Rollout) boundary(k int) int {
	at := 0
	for _, p := range r.Phases[:k] {
		at += p.Ops
	}
	return at
}

// phaseAt is the phase the op counted from 0 at i falls in.
func (r *Rollout) phaseAt(i int) int {
	for k := len(r.Phases) - 1; k > 0; k-- {
		if i >= r.boundary(k) {
			return k
		}
	}
	return 0
}

// Apply is script played under the rollout, as `replay --rollout=PLAN`
// plays it: the script's own flag and writer ops are left out; at each
// phase's start (its ops counted over the script's other ops) the writer
// performing the ops takes its step in the phase; and the writers of a
// phase take turns whenever the one writing is idle, so that every turn stays
// with its writer. A writer with no place in the new phase finishes its turn
// in progress first, then the phase's first writer takes over.
//
// A compaction compacts the branch the rows of the writers so far record,
// and other writers record other parents: one whose branch under the plan
// is too short to compact does not apply, and is left out. left lists the
// script's indexes of the ops left out, so the caller can say so.
func (r *Rollout) Apply(script []ops.Op) (out []ops.Op, left []int) {
	g := New(Options{Legacy: true, Writers: maxWriters})
	emit := func(op ops.Op) { out = append(out, g.apply(op)) }
	i := 0
	for at, op := range script {
		switch op.(type) {
		case ops.Flag, ops.Writer:
			continue
		case ops.Session:
			emit(op)
			continue
		}
		steps := r.Phases[r.phaseAt(i)].Steps
		cur, idle := writerIndex(g.st.name), !g.st.Busy()
		switch {
		case cur >= len(steps) && idle:
			emit(ops.Writer{Name: writerName(0), Set: ops.RolloutPath[steps[0]]})
		case cur < len(steps) && idle && len(steps) > 1 && i > 0:
			next := (cur + 1) % len(steps)
			emit(ops.Writer{Name: writerName(next), Set: ops.RolloutPath[steps[next]]})
		case cur < len(steps) && steps[cur] != g.st.step:
			emit(ops.Flag{Set: ops.RolloutPath[steps[cur]]})
		}
		if _, compact := op.(ops.Compact); compact && !g.st.compactable() {
			left = append(left, at)
			continue
		}
		emit(op)
		i++
	}
	return out, left
}
