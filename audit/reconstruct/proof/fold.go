package proof

import (
	"fmt"
	"maps"
	"reflect"
	"sort"
	"strings"

	"sessiondag/checker/campaign"
	"sessiondag/checker/gen"
	"sessiondag/model"
	"sessiondag/ops"
)

// A turn here is the reducer's unit (checker/campaign) of an op that starts
// from nothing in progress: the op and what it opens, up to the next op
// that starts from nothing in progress again. A turn is repeated when an
// earlier one does the same (the same kinds, switches and kinds of
// reference, whatever its ids and texts, its streamed blocks and clock
// aside) and no op outside it names a row it wrote: folding keeps the first
// of each (then, if that loses a shape of the suite's tally — two manual
// runs in a row are one —, the first two); within a turn kept, a repeated
// op that opens and closes nothing (another tool call of the same kind) is
// folded the same way, and the script keeps its first thinking, text and
// clock ops only.
// The folded script must replay (campaign.Valid) and complete the same
// shapes (gen.TallyOf), else the script is kept whole. Linear in the ops.

// Skeleton is the script folded and renamed canonically, and a note when
// it could not be folded.
func Skeleton(script []ops.Op) ([]ops.Op, string) {
	turns, err := split(script)
	if err != nil {
		return ops.Canonical(script), err.Error()
	}
	want := shapes(script)
	for _, keep := range []int{1, 2} {
		folded := fold(script, turns, keep)
		if len(folded) == len(script) {
			break // nothing repeats
		}
		if campaign.Valid(folded) && maps.Equal(shapes(folded), want) {
			return ops.Canonical(folded), ""
		}
	}
	return ops.Canonical(script), ""
}

// turn is a run of ops of the script: [from, to).
type turn struct {
	from, to int
	sig      string
	pinned   bool // a row it wrote is named outside it
	// ops are the signatures of its ops; opPinned: a row the op wrote is
	// named by another op.
	ops      []string
	opPinned []bool
}

// split cuts the script into turns, with their signatures and whether an
// op outside names a row they wrote.
func split(script []ops.Op) ([]turn, error) {
	run := model.NewLegacy(ops.DefaultSession)
	owner := map[string]int{} // id → the turn that wrote or minted it
	opOf := map[string]int{}  // id → the op that wrote or minted it
	var turns []turn
	for i, op := range script {
		if !run.Busy() || len(turns) == 0 {
			turns = append(turns, turn{from: i})
		}
		t := len(turns) - 1
		turns[t].to = i + 1
		before := run.NodeCount()
		if err := run.Apply(op); err != nil {
			return nil, fmt.Errorf("op %d (%s) does not replay: %v", i+1, ops.Format(op), err)
		}
		for _, id := range append(run.IDsFrom(before), ops.Defines(op)...) {
			owner[id], opOf[id] = t, i
		}
	}
	for i := range turns {
		t := &turns[i]
		minted := map[string]int{}
		var sig strings.Builder
		t.opPinned = make([]bool, t.to-t.from)
		for j := t.from; j < t.to; j++ {
			s := signature(script[j], i, owner, minted)
			t.ops = append(t.ops, s)
			if !content[script[j].Kind()] {
				sig.WriteString(s)
				sig.WriteByte(';')
			}
		}
		t.sig = sig.String()
	}
	for j, op := range script {
		for _, id := range named(op) {
			if o, ok := owner[id]; ok {
				if o != turnOf(turns, j) {
					turns[o].pinned = true
				}
				if k := opOf[id]; k != j {
					turns[o].opPinned[k-turns[o].from] = true
				}
			}
		}
	}
	return turns, nil
}

// fold keeps the first keep turns of each signature, and every pinned
// one; within a turn kept, the first keep ops of each signature among the
// ops that open and close nothing (a streamed block, a tool call), unless
// a row one wrote is named elsewhere.
func fold(script []ops.Op, turns []turn, keep int) []ops.Op {
	seen, kinds := map[string]int{}, map[string]int{}
	var out []ops.Op
	for _, t := range turns {
		seen[t.sig]++
		if seen[t.sig] > keep && !t.pinned {
			continue
		}
		within := map[string]int{}
		for j := t.from; j < t.to; j++ {
			k := script[j].Kind()
			if content[k] {
				if kinds[k]++; kinds[k] > keep {
					continue
				}
			} else if sig := t.ops[j-t.from]; script[j].Span() == ops.Flat && j > t.from && !t.opPinned[j-t.from] {
				if within[sig]++; within[sig] > keep {
					continue
				}
			}
			out = append(out, script[j])
		}
	}
	return out
}

// content are the kinds of op that write only a reply's text and blocks
// or a timestamp: a turn's are not part of its signature, and the script
// keeps the first of each.
var content = map[string]bool{"think": true, "say": true, "clock": true}

// enums are the fields whose value decides what the op does, whatever
// text the other fields carry.
var enums = map[string]bool{"Form": true, "Mode": true, "Source": true, "What": true, "Expose": true, "Set": true, "Keep": true}

// signature is what an op does, its ids as kinds of reference: minted in
// its turn (by order), written by another turn, or a literal (ROOT, none,
// null, empty, a dangling id).
func signature(op ops.Op, turn int, owner map[string]int, minted map[string]int) string {
	v := reflect.ValueOf(op)
	var b strings.Builder
	b.WriteString(op.Kind())
	for i := 0; i < v.NumField(); i++ {
		f, x := v.Type().Field(i), v.Field(i)
		b.WriteByte(' ')
		switch {
		case ops.IDField(f) && f.Tag.Get("list") != "":
			for k, id := range ops.FieldIDs(f, x.String()) {
				if k > 0 {
					b.WriteByte(',')
				}
				b.WriteString(refKind(id, turn, owner, minted))
			}
		case ops.IDField(f):
			b.WriteString(refKind(x.String(), turn, owner, minted))
		case x.Kind() == reflect.Bool:
			fmt.Fprint(&b, x.Bool())
		case enums[f.Name]:
			b.WriteString(x.String())
		case x.String() == "":
			b.WriteString("-")
		default:
			b.WriteString("v")
		}
	}
	return b.String()
}

func refKind(id string, turn int, owner map[string]int, minted map[string]int) string {
	o, ok := owner[id]
	switch {
	case id == "" || id == "ROOT" || id == "none" || id == "null":
		return id
	case !ok:
		return "dangling"
	case o != turn:
		return "earlier"
	}
	if _, ok := minted[id]; !ok {
		minted[id] = len(minted)
	}
	return fmt.Sprintf("n%d", minted[id])
}

// named are the ids an op refers to, an orphan's caller included.
func named(op ops.Op) []string {
	out := ops.Names(op)
	if o, ok := op.(ops.Orphan); ok && o.Caller != "" {
		out = append(out, o.Caller)
	}
	return out
}

// shapes are the shapes a script completes.
func shapes(script []ops.Op) map[string]bool {
	t, _ := gen.TallyOf(script)
	out := map[string]bool{}
	for s := range t.Shapes {
		out[s] = true
	}
	return out
}

// turnOf is the index of the turn op j is in (turns are in order).
func turnOf(turns []turn, j int) int {
	return sort.Search(len(turns), func(i int) bool { return turns[i].to > j })
}
