package exhaust

import (
	"fmt"
	"slices"

	"sessiondag/protocol"

	"sessiondag/checker/gen"
	"sessiondag/checker/harness"
	"sessiondag/internal/shard"
	"sessiondag/model"
	"sessiondag/ops"
)

// ShardDepth is the depth down to which the walk numbers its nodes to deal
// them out to shards: deep enough that each shard gets thousands of
// subtrees of mixed sizes (so shards come out balanced), shallow enough
// that every shard walks the shared top in no time.
const ShardDepth = 3

// Node is one script of the walk, as a visitor sees it.
type Node struct {
	Script []ops.Op // the script (the walk's own slice: copy to keep)
	Owned  bool     // this shard checks it; the others only pass through
	// Flips is how the flags in force change over the script (flag and
	// writer ops) from the writers' start on each lane: the flags off, and
	// all of them on.
	Flips, FlipsOn harness.Flips
	// Synced is set when the script, written with the flags off, keeps
	// its intent in the data (ops.Intent).
	Synced bool
	// Leaf is set when the walk goes no deeper below the script: it has
	// the most ops, or lies at ShardDepth in another shard's part.
	Leaf bool
	// Between is set when the script ends after the first of two ops the
	// implementation writes in one step (protocol.About.Together): there is
	// no view between them to judge, so it is counted and not checked.
	Between bool
	// Part is the script's number among those of at most ShardDepth ops, in
	// walk order (-1 below): the part of the walk it heads, with everything
	// below it at ShardDepth (Parts).
	Part  int
	front *frontier // what the walk keeps of the script besides the writer
}

// visitor sees the walk: enter each script, and leave each script entered
// with true once everything below it was walked.
type visitor interface {
	enter(Node) (descend bool)
	leave(Node)
}

// visitFunc is a visitor that needs no leave.
type visitFunc func(Node) bool

func (v visitFunc) enter(n Node) bool { return v(n) }
func (visitFunc) leave(Node)          {}

// walker is a depth-first walk over the valid canonical scripts of at most
// max ops.
type walker struct {
	max   int
	kinds map[string]bool // nil = every kind
	shape shape
	owner func(part int) (bool, error)
	visit visitor
	path  []ops.Op
	top   int // nodes of depth ≤ ShardDepth numbered so far
}

// owns reports whether the walk owns a node at the current depth, given
// whether it owns the node's parent, and the node's part (-1 below
// ShardDepth): above and at ShardDepth the node's number decides, below it
// the ancestor at ShardDepth.
func (w *walker) owns(parentOwned bool) (bool, int, error) {
	if len(w.path) > ShardDepth {
		return parentOwned, -1, nil
	}
	k := w.top
	w.top++
	mine, err := w.owner(k)
	return mine, k, err
}

// walk extends the current path (in state run and f) by every candidate the
// writer accepts, visits each extension and walks below it. run is consumed:
// an accepted op moves it to the child's state, so for the next candidate
// the prefix is applied again to a fresh writer. A deep copy of the writer
// instead was measured (4 ops, 193,673 scripts): 1.8 s of processor time
// against replay's 2.3 s, both under 2% of checking the scripts, and a
// copy would have to follow every field model.LegacyRun gains.
func (w *walker) walk(run *model.LegacyRun, f *frontier, owned bool) error {
	for _, c := range w.choices(f) {
		if run == nil {
			var err error
			if run, err = replay(w.path); err != nil {
				return err
			}
		}
		child, ok := f.extend(c, run)
		if !ok {
			continue // refused: the writer is unchanged
		}
		w.path = append(w.path, c.op)
		mine, part, err := w.owns(owned)
		if err != nil {
			return err
		}
		below := len(w.path) < ShardDepth || mine
		n := Node{Script: w.path, Owned: mine, Flips: child.flips, FlipsOn: child.flipsOn, Synced: child.intent.Holds(),
			Leaf: !below || len(w.path) == w.max, Between: w.shape.joined(c.op.Kind()) != "", Part: part, front: &child}
		if w.visit.enter(n) && !n.Leaf {
			if err := w.walk(run, &child, mine); err != nil {
				return err
			}
			w.visit.leave(n)
		}
		w.path = w.path[:len(w.path)-1]
		run = nil
	}
	return nil
}

// choices are the candidates the walk tries after the current path (in
// state f): of its kinds and shape, and after the first op of a pair the
// implementation writes in one step only the second.
func (w *walker) choices(f *frontier) []cand {
	all := candidates(f, w.kinds, w.shape.without)
	if len(w.path) == 0 {
		return all
	}
	next := w.shape.joined(w.path[len(w.path)-1].Kind())
	if next == "" {
		return all
	}
	return slices.DeleteFunc(all, func(c cand) bool { return c.op.Kind() != next })
}

// replay is a writer in the state after script.
func replay(script []ops.Op) (*model.LegacyRun, error) {
	run := model.NewLegacy(ops.DefaultSession)
	for i, op := range script {
		if err := run.Apply(op); err != nil {
			return nil, fmt.Errorf("exhaust: the writer refuses op %d (%s) it accepted before: %w", i+1, ops.Format(op), err)
		}
	}
	return run, nil
}

// Walk visits every valid canonical script of 1…max ops made of the given
// kinds (nil: every kind but session) in walk order. visit sees every
// script of the shard's part (Owned) and the scripts above ShardDepth that
// lead there; it returns false to skip what lies below a script.
func Walk(max int, kinds []string, sh shard.Shard, visit func(Node) bool) error {
	return walkWith(max, shape{kinds: kinds}, sh, visitFunc(visit))
}

// shape is which scripts a walk makes: of the op kinds (nil: every kind
// but session), with what an implementation declares beyond its kinds
// (protocol.About): the second op of a pair it writes in one step right
// after the first (together), the field variants it cannot write written
// plain (gen.Plain) and the draw kinds it cannot write left out (gen.Held),
// both named in without.
type shape struct {
	kinds    []string
	together [][2]string
	without  []string
}

// shapeOf is the shape of the walk against an implementation that
// declares a.
func shapeOf(kinds []string, a protocol.About) (shape, error) {
	if _, _, err := gen.Without(a.Without, nil); err != nil {
		return shape{}, fmt.Errorf("exhaust: %s's without: %w", a.Name, err)
	}
	return shape{kinds: kinds, together: a.Together, without: slices.Clone(a.Without)}, nil
}

// joined is the op kind that must follow an op of kind k, or "".
func (s shape) joined(k string) string { return protocol.About{Together: s.together}.Joined(k) }

// walkWith is Walk with a visitor that also leaves each script it
// descended below.
func walkWith(max int, s shape, sh shard.Shard, visit visitor) error {
	if sh.I < 0 || sh.I >= sh.Parts() {
		return fmt.Errorf("exhaust: shard %v: want 0 ≤ i < n", sh)
	}
	return walkOwned(max, s, func(k int) (bool, error) { return sh.Owns(uint64(k)), nil }, sh.IsWhole(), visit)
}

// walkOwned is walkWith with the parts the walk owns decided by owner
// (whole: every part is owned).
func walkOwned(max int, s shape, owner func(part int) (bool, error), whole bool, visit visitor) error {
	w, err := newWalker(max, s, owner, visit)
	if err != nil {
		return err
	}
	if max < 1 {
		return nil
	}
	return w.walk(model.NewLegacy(ops.DefaultSession), &frontier{}, whole)
}

// newWalker is a walk of at most max ops of shape s, at its root.
func newWalker(max int, s shape, owner func(part int) (bool, error), visit visitor) (*walker, error) {
	w := &walker{max: max, owner: owner, visit: visit, shape: s}
	if len(s.kinds) > 0 {
		w.kinds = map[string]bool{}
		for _, k := range s.kinds {
			if k == "session" || !isKind(k) {
				return nil, fmt.Errorf("exhaust: %q is not an op kind the walk can use (kinds: %v)", k, ops.Kinds()[1:])
			}
			w.kinds[k] = true
		}
	}
	return w, nil
}

func isKind(k string) bool {
	for _, kind := range ops.Kinds() {
		if kind == k {
			return true
		}
	}
	return false
}
