package campaign

import (
	"slices"
	"strings"

	"sessiondag/ops"
)

// Deleting ops stops at a local minimum: two drivers that found one bug
// from different scripts could keep different reductions of it, even of
// different lengths (a retry turn where a user turn would do leaves the
// turn it reran behind, which no single deletion removes). The passes here
// move a reduction down a fixed order of ops of the same length, the
// simplest kinds first, so that the reductions of one bug meet.

// rank orders op kinds, simplest first: ops.All's order.
var rank = func() map[string]int {
	m := make(map[string]int, len(ops.All))
	for i, op := range ops.All {
		m[op.Kind()] = i
	}
	return m
}()

// plainTurns replaces each op that opens a turn by a web user turn with the
// same id and text (the simplest turn), last first, wherever the case still
// fails; the turn that op needed before it can then be deleted.
//
// A /spawn that opens its sub-agent's turn is tried as a user turn of its
// sub-agent's id (its reply id kept) and of its command row's (which a
// later op may name: a rerun of the command); an async one writes a
// follow-up turn after the sub-agent's, so its command row's user turn
// takes the follow-up's place and the sub-agent's turn goes with it.
func plainTurns(c Case, fails func(Case) bool) (Case, bool) {
	kept := false
	for i := len(c.Script) - 1; i >= 0; i-- {
		for _, s := range asUserScripts(c.Script, i) {
			if cand := c.With(s, c.Damage); fails(cand) {
				c, kept = cand, true
				break
			}
		}
	}
	return c, kept
}

// asUserScripts are the scripts with the turn op i opens written as a web
// user turn (none when it opens none).
func asUserScripts(script []ops.Op, i int) [][]ops.Op {
	u, ok := asUser(script[i])
	if !ok {
		return nil
	}
	s := slices.Clone(script)
	s[i] = u
	out := [][]ops.Op{s}
	sp, ok := script[i].(ops.Spawn)
	if !ok || sp.Cmd == "" {
		return out
	}
	s = slices.Clone(script)
	s[i] = ops.UserWeb{ID: sp.Cmd, Text: u.Text}
	if sp.Mode == "async" {
		end := i + 1
		for end < len(s) && s[end].Span() != ops.ClosesTurn && s[end].Span() != ops.ClosesAll {
			end++
		}
		if end == len(s) {
			return out
		}
		s = slices.Delete(s, i+1, end+1)
	}
	return append(out, s)
}

// asUser is the web user turn that could stand for a turn opened by op.
func asUser(op ops.Op) (ops.UserWeb, bool) {
	var id, text string
	switch x := op.(type) {
	case ops.UserDispatch:
		id, text = x.ID, x.Text
	case ops.ForkRoot:
		id, text = x.ID, x.Text
	case ops.Retry:
		id = x.ID
	case ops.Edit:
		id, text = x.ID, x.Text
	case ops.Merge:
		id, text = x.ID, x.Text
	case ops.Spawn:
		if !x.Turn {
			return ops.UserWeb{}, false // answered at once: it opens no turn
		}
		id, text = x.ID, x.Text // the sub-agent's turn, its reply id kept
	default:
		return ops.UserWeb{}, false
	}
	if strings.TrimSpace(text) == "" {
		text = "{}" // the web chat sends no empty message
	}
	return ops.UserWeb{ID: id, Text: text}, id != ""
}

// sortOps swaps neighbouring ops where the later is of a simpler kind,
// wherever the case still fails, sweeping until no swap is kept. Each swap
// moves the script down the order of kind sequences, so the sweeps end.
func sortOps(c Case, fails func(Case) bool) (Case, bool) {
	kept := false
	for swapped := true; swapped; {
		swapped = false
		for i := 0; i+1 < len(c.Script); i++ {
			if rank[c.Script[i+1].Kind()] >= rank[c.Script[i].Kind()] {
				continue
			}
			s := slices.Clone(c.Script)
			s[i], s[i+1] = s[i+1], s[i]
			if cand := c.With(s, c.Damage); fails(cand) {
				c, kept, swapped = cand, true, true
			}
		}
	}
	return c, kept
}
