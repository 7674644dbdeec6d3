package gen

import (
	"fmt"
	"slices"
	"strings"
)

// Swarm is one swarm configuration (Groce et al., "Swarm Testing", ISSTA
// 2012): which draw kinds a run may use and how much more often than their
// base weight. A run that never draws dispatches, say, goes deeper into
// what the other kinds do together; over many runs each kind is left out
// of some and favoured in others, so rare combinations stop being rare.
type Swarm struct {
	off    [numKinds]bool
	factor [numKinds]int // 1…4
}

// DrawSwarm draws a swarm configuration: each kind but the core ones left
// out with probability 1/2, each kept one weighted ×1…×4.
func DrawSwarm(src Source, _ Options) *Swarm {
	s := &Swarm{}
	for k := range numKinds {
		s.factor[k] = 1 + src.IntN(4, "swarm weight "+k.String())
		if !kinds[k].core {
			s.off[k] = src.IntN(2, "swarm leaves out "+k.String()) == 1
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
		if !s.off[ch.kind] {
			kept = append(kept, choice{ch.kind, ch.weight * s.factor[ch.kind]})
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
	var out, weighted []string
	for k := range numKinds {
		if s.off[k] {
			out = append(out, k.String())
		} else if s.factor[k] > 1 {
			weighted = append(weighted, fmt.Sprintf("%s×%d", k, s.factor[k]))
		}
	}
	return fmt.Sprintf("without [%s], weights [%s]", strings.Join(out, " "), strings.Join(weighted, " "))
}

// DrawKindsOf lists the draw kinds whose ops are of the given op kinds (an
// implementation's, for Options.Only): every variant of a kind with it.
func DrawKindsOf(opKinds []string) []string {
	var out []string
	for k := range numKinds {
		if slices.Contains(opKinds, k.Op()) {
			out = append(out, k.String())
		}
	}
	return out
}
