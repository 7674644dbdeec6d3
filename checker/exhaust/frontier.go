package exhaust

import (
	"encoding/binary"
	"fmt"
	"slices"

	"sessiondag/checker/harness"
	"sessiondag/model"
	"sessiondag/ops"
)

// frontier is what the walk keeps of a prefix besides the writer state: the
// ids it wrote (which later ops may name), which of them are rewound, the
// flags in force and how they changed, which writers it named, how many
// names it minted, and the intent rule's state. Lists are in write order,
// never map order.
type frontier struct {
	nodes   []string // ids written, ROOT excluded
	turns   []string // the user turns and replies among them: what retry and edit rerun
	rewound []string
	step    int           // the flags in force: index into ops.RolloutPath
	flips   harness.Flips // how they changed over the prefix, from the flags off
	flipsOn harness.Flips // … from all of them on
	named   int           // writers named beyond the first: w2 … w<named+1>
	writer  int           // the writer performing the ops now: w<writer+1>
	fresh   int           // names minted: the next is "n<fresh+1>"
	intent  ops.Intent
}

// live lists the ids of list an op may name: not rewound.
func (f *frontier) live(list []string) []string {
	out := make([]string, 0, len(list))
	for _, id := range list {
		if !slices.Contains(f.rewound, id) {
			out = append(out, id)
		}
	}
	return out
}

// turnKinds are the op kinds whose rows are turns a user can rerun: the
// user rows they write and the replies to them, and ask_user rows, which
// the chat shows as user messages (a script's top-level ask answer too: see
// extend).
var turnKinds = map[string]bool{"user": true, "dispatch": true, "fork-root": true, "merge": true, "edit": true, "retry": true,
	"legacy-user": true, "legacy-reply": true, "reply": true, "task": true, "spawn": true, "ask": true}

// extend applies c to run (in the state of f) and returns the child frontier,
// or false when the writer refuses the op (run is then unchanged). The ids
// the op wrote are the writer's own (model.LegacyRun.IDsFrom), not derived
// here again.
func (f *frontier) extend(c cand, run *model.LegacyRun) (frontier, bool) {
	kept := f.intent.Keeps(c.op, run)
	before := run.NodeCount()
	if run.Apply(c.op) != nil {
		return frontier{}, false
	}
	g := frontier{nodes: slices.Clip(f.nodes), turns: slices.Clip(f.turns), rewound: slices.Clip(f.rewound),
		step: f.step, flips: f.flips, flipsOn: f.flipsOn, named: f.named, writer: f.writer, fresh: f.fresh + c.minted, intent: f.intent}
	g.flips, g.step = harness.NextFlips(f.flips, f.step, c.op)
	// From all on, the step in force is all until an op names another.
	g.flipsOn, _ = harness.NextFlips(f.flipsOn, f.stepOn(), c.op)
	g.intent.Track(c.op, kept, run)
	wrote := run.IDsFrom(before)
	if i := slices.Index(wrote, "ROOT"); i >= 0 {
		wrote = slices.Delete(slices.Clone(wrote), i, i+1)
	}
	g.nodes = append(g.nodes, wrote...)
	switch op := c.op.(type) {
	case ops.Task:
		g.turns = append(g.turns, op.ID, op.ID+"_reply") // not the attach row or the tool row
	case ops.Spawn:
		g.turns = append(g.turns, op.Cmd, op.ID, op.ID+"_reply")
	case ops.Script:
		if op.What == "ask" { // a top-level ask answer
			g.turns = append(g.turns, op.ID)
		}
	case ops.Rewind:
		g.rewound = append(g.rewound, op.ID)
	case ops.Writer:
		g.writer = writerIndex(op.Name)
		g.named = max(g.named, g.writer)
	default:
		if turnKinds[c.op.Kind()] {
			g.turns = append(g.turns, wrote...)
		}
	}
	return g, true
}

// appendState appends an unambiguous encoding of the frontier to b: with the
// writer's state it decides every candidate below the prefix and how each
// one extends the frontier (the flags in force and how they changed on both
// lanes, which writers are named and which one writes).
func (f *frontier) appendState(b []byte) []byte {
	for _, list := range [][]string{f.nodes, f.turns, f.rewound} {
		b = binary.AppendUvarint(b, uint64(len(list)))
		for _, id := range list {
			b = appendString(b, id)
		}
	}
	for _, x := range []int{f.step, int(f.flips), int(f.flipsOn), f.named, f.writer, f.fresh} {
		b = binary.AppendUvarint(b, uint64(x))
	}
	return f.intent.AppendState(b)
}

// writerName is the name the walk gives its i-th writer (0: ops.FirstWriter).
func writerName(i int) string { return fmt.Sprintf("w%d", i+1) }

// writerIndex is i for the walk's writerName(i).
func writerIndex(name string) int {
	var i int
	fmt.Sscanf(name, "w%d", &i)
	return i - 1
}

// stepOn is the step in force after the prefix on the lane whose writers
// start with every flag on: all, until a flag or writer op names another.
func (f *frontier) stepOn() int {
	if f.flipsOn == harness.Steady {
		return len(ops.RolloutPath) - 1
	}
	return f.step
}
