package gen

import (
	"fmt"
	"strings"
)

// Swarm is one swarm configuration (Groce et al., "Swarm Testing", ISSTA
// 2012): which draw kinds a run may use and how much more often than their
// base weight. A run that never draws dispatches, say, goes deeper into
// what the other kinds do together; over many runs each kind is left out
// of some and favoured in others, so rare combinations stop being rare.
type Swarm struct {
	off    []bool // by position in DrawKinds
	factor []int  // 1…4, by position in DrawKinds
}

// DrawKinds are the generator's draw kinds: op kinds, and variants of one
// (a legacy tool edge, a function entered from an exec's tool loop, an
// orphan whose caller is written later, a rewind of a row a load caches),
// in a fixed order.
var DrawKinds = []string{
	"user", "reply", "done", "end", "say", "think", "tool", "tool-legacy", "task",
	"cancel", "error-folded", "error-standalone", "crash", "fn", "fn-via-exec",
	"manual", "exec", "ask", "retry", "edit", "checkout", "reload", "dispatch",
	"fork-root", "spawn", "script", "legacy-user", "legacy-reply", "orphan",
	"orphan-later", "rewind", "rewind-cached", "flag", "clock",
}

// core kinds are never left out: without them a session cannot get past
// its first turn.
var core = map[string]bool{"user": true, "reply": true, "done": true, "end": true}

// DrawSwarm draws a swarm configuration: each kind but the core ones left
// out with probability 1/2, each kept one weighted ×1…×4.
func DrawSwarm(src Source, _ Options) *Swarm {
	s := &Swarm{off: make([]bool, len(DrawKinds)), factor: make([]int, len(DrawKinds))}
	for i, k := range DrawKinds {
		s.factor[i] = 1 + src.IntN(4, "swarm weight "+k)
		if !core[k] {
			s.off[i] = src.IntN(2, "swarm leaves out "+k) == 1
		}
	}
	return s
}

// weigh applies the swarm to candidates: left-out kinds go, kept ones are
// reweighted. When it would leave nothing, the candidates stay as they are
// (the state needs one of them to move on).
func (s *Swarm) weigh(c []choice) []choice {
	if s == nil {
		return c
	}
	var kept []choice
	for _, ch := range c {
		i := kindIndex(ch.kind)
		if i < 0 || !s.off[i] {
			w := ch.weight
			if i >= 0 {
				w *= s.factor[i]
			}
			kept = append(kept, choice{ch.kind, w})
		}
	}
	if len(kept) == 0 {
		return c
	}
	return kept
}

// String lists the kinds left out and the weights, for reports.
func (s *Swarm) String() string {
	if s == nil {
		return "every kind, base weights"
	}
	var out, weights []string
	for i, k := range DrawKinds {
		if s.off[i] {
			out = append(out, k)
		} else if s.factor[i] > 1 {
			weights = append(weights, fmt.Sprintf("%s×%d", k, s.factor[i]))
		}
	}
	return fmt.Sprintf("without [%s], weights [%s]", strings.Join(out, " "), strings.Join(weights, " "))
}

func kindIndex(kind string) int {
	for i, k := range DrawKinds {
		if k == kind {
			return i
		}
	}
	return -1
}

// variantOf is the op kind of each draw kind that is a variant of one.
var variantOf = map[string]string{"tool-legacy": "tool", "fn-via-exec": "fn", "orphan-later": "orphan", "rewind-cached": "rewind"}

// DrawKindsOf lists the draw kinds whose ops are of the given op kinds (an
// implementation's, for Options.Only): every variant of a kind with it.
func DrawKindsOf(opKinds []string) []string {
	var out []string
	for _, k := range DrawKinds {
		op := k
		if v, ok := variantOf[k]; ok {
			op = v
		}
		for _, want := range opKinds {
			if want == op {
				out = append(out, k)
				break
			}
		}
	}
	return out
}
