package campaign

import (
	"sessiondag/checker/harness"
	"sessiondag/model"
	"sessiondag/ops"
)

// redirectOne tries, from the last op back, each reference an op makes to
// a row, pointed at each row written before that one instead; it stops at
// the first candidate accept takes. Rows are tried oldest first, the
// simplest script being the one that names the earliest rows.
func redirectOne(script []ops.Op, wrote [][]string, accept func([]ops.Op) bool) bool {
	for i := len(script) - 1; i >= 0; i-- {
		for _, name := range ops.Names(script[i]) {
			for _, earlier := range idsBefore(wrote, i, name) {
				cand := append([]ops.Op(nil), script...)
				cand[i] = ops.Redirect(script[i], name, earlier)
				if accept(cand) {
					return true
				}
			}
		}
	}
	return false
}

// idsBefore lists the rows written before op i and before the row named,
// oldest first (ROOT left out).
func idsBefore(wrote [][]string, i int, named string) []string {
	var out []string
	for _, ids := range wrote[:i] {
		for _, id := range ids {
			if id == named {
				return out
			}
			if id != "ROOT" {
				out = append(out, id)
			}
		}
	}
	return out
}

// Valid reports whether every op of a script applies in turn, as the
// reference writer (model.LegacyRun) judges it: the one judge of validity
// for the generator's shadow, exhaust's walk and every reduction.
func Valid(script []ops.Op) bool {
	run := model.NewLegacy(sessionOf(script))
	for _, op := range script {
		if run.Apply(op) != nil {
			return false
		}
	}
	return true
}

// Unit is op i with everything that cannot stay without it, as positions in
// script order: what it opens (ops.Span) up to and including what closes
// it, and every later op naming an id the unit created (the nodes the
// writers appended for it, or an id derived from one), with their own units
// in turn.
func Unit(script []ops.Op, i int) []int {
	return unit(script, written(script), i)
}

func unit(script []ops.Op, wrote [][]string, i int) []int {
	in := make([]bool, len(script))
	defined := map[string]bool{}
	var add func(j int)
	add = func(j int) {
		if in[j] {
			return
		}
		in[j] = true
		for _, id := range ops.Defines(script[j]) {
			defined[id] = true
		}
		for _, id := range wrote[j] {
			defined[id] = true
		}
		for _, k := range spanOf(script, j) {
			add(k)
		}
	}
	add(i)
	for grew := true; grew; {
		grew = false
		for j := i + 1; j < len(script); j++ {
			if !in[j] && namesAny(script[j], defined) {
				add(j)
				grew = true
			}
		}
	}
	var out []int
	for j, ok := range in {
		if ok {
			out = append(out, j)
		}
	}
	return out
}

// written lists, per op, the ids of the nodes the reference writer
// appended for it (a reply's placeholder, a tool's row, a spawn's four rows;
// ops/README.md names them). A script that stops applying leaves the
// rest empty.
func written(script []ops.Op) [][]string {
	out := make([][]string, len(script))
	run := model.NewLegacy(sessionOf(script))
	for i, op := range script {
		before := run.NodeCount()
		if run.Apply(op) != nil {
			break
		}
		out[i] = run.IDsFrom(before)
	}
	return out
}

// sessionOf is the session id a script names, else the default one.
func sessionOf(script []ops.Op) string {
	if id := harness.SessionIDOf(script); id != "" {
		return id
	}
	return ops.DefaultSession
}

// spanOf lists the ops op i opens, up to and including the one that
// closes it.
func spanOf(script []ops.Op, i int) []int {
	var out []int
	switch script[i].Span() {
	case ops.OpensTurn, ops.OpensReply:
		for j := i + 1; j < len(script); j++ {
			out = append(out, j)
			if s := script[j].Span(); s == ops.ClosesTurn || s == ops.ClosesAll || s == ops.OpensTurn {
				if s == ops.OpensTurn {
					out = out[:len(out)-1]
				}
				break
			}
		}
	case ops.OpensFrame:
		depth := 1
		for j := i + 1; j < len(script) && depth > 0; j++ {
			out = append(out, j)
			switch script[j].Span() {
			case ops.OpensFrame:
				depth++
			case ops.ClosesFrame:
				depth--
			case ops.ClosesAll:
				depth = 0
			}
		}
	}
	return out
}

// namesAny reports whether op names one of the ids.
func namesAny(op ops.Op, ids map[string]bool) bool {
	for _, n := range ops.Names(op) {
		if ids[n] {
			return true
		}
	}
	return false
}

func without(script []ops.Op, drop []int) []ops.Op {
	out := make([]ops.Op, 0, len(script)-len(drop))
	k := 0
	for j, op := range script {
		if k < len(drop) && drop[k] == j {
			k++
			continue
		}
		out = append(out, op)
	}
	return out
}
