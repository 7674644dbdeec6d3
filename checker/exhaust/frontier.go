package exhaust

import (
	"slices"

	"sessiondag/checker/ops"
	"sessiondag/model"
)

// frontier is what the walk keeps of a prefix besides the writer state: the
// ids it wrote (which later ops may name), which of them are rewound, how
// far its flag ops moved along the rollout path, and how many names it
// minted. Lists are in write order, never map order.
type frontier struct {
	nodes   []string // ids written, ROOT excluded
	turns   []string // the user turns and replies among them: what retry and edit rerun
	rewound []string
	step    int // index into ops.RolloutPath
	fresh   int // names minted: the next is "n<fresh+1>"
	// unrecorded: a checkout moved the head and no turn recorded it since.
	unrecorded bool
	// unsynced: the script is legacy data whose intent is not in the data
	// (see synced).
	unsynced bool
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

// flagged reports whether the prefix switched the writers' flags.
func (f *frontier) flagged() bool { return f.step > 0 }

// before is the writer state an op's effect on the frontier depends on.
type before struct {
	pending, reply string // the pending turn and open reply (ids derive from them)
	// stale: the browser's head is not the store's head when a web turn
	// or /spawn writes its row (ensureRoot, when the session has no ROOT
	// yet, moves the store's head to it first).
	stale bool
}

func beforeOf(run *model.LegacyRun) before {
	ch, set := run.ClientHead()
	return before{pending: run.Pending(), reply: run.OpenReply(),
		stale: ch != run.InMemoryHead() || !run.Rooted() && set}
}

// synced applies the rules of gen.Options.SyncedBrowser, which define the
// data kinds harness.WrittenOff and Flipped: a web turn or /spawn is typed
// only in a browser that shows the store's head, and after a head move no
// row records (track) no row that records no parent is written. Legacy
// data outside them records a parent its user never meant, or none, and
// no migration can recover the intent (model/README.md, "Legacy
// derivation"). One rule goes beyond the generator's: a retry that writes
// no row counts as such a head move (the generator counts it as recorded,
// which it is only once its turn's reply is written; a crash before that
// leaves no trace, and exhaust found P3 failing there at 5 ops).
func (f *frontier) synced(op ops.Op, b before) bool {
	if f.step > 0 {
		// Flag A on: the writers record every row's predecessor from the
		// store's head, so nothing is left to guess.
		return true
	}
	switch op := op.(type) {
	case ops.UserWeb, ops.Spawn:
		return !b.stale
	case ops.Manual, ops.Script:
		return !f.unrecorded
	case ops.LegacyUser:
		return !f.unrecorded || op.Parent != ""
	case ops.Orphan:
		return !f.unrecorded || op.Caller != ""
	}
	return true
}

// track follows whether the head stands where no row records it. A
// checkout moves it without a trace; so does a retry that writes no row
// (it moves the head back to the turn's user), until that turn's reply or
// error records it; a turn records where it stands.
func (g *frontier) track(op ops.Op, run *model.LegacyRun) {
	switch op := op.(type) {
	case ops.Checkout:
		g.unrecorded = true
	case ops.Retry:
		g.unrecorded = run.InMemoryHead() != op.ID
	case ops.UserWeb, ops.UserDispatch, ops.ForkRoot, ops.Edit, ops.Spawn, ops.Reply, ops.ErrorStandalone:
		g.unrecorded = false
	}
}

// after is the frontier once c applied: b is the writer before c, run the
// writer after it.
func (f *frontier) after(c cand, b before, run *model.LegacyRun) frontier {
	pending, reply := b.pending, b.reply
	g := frontier{nodes: slices.Clip(f.nodes), turns: slices.Clip(f.turns), rewound: slices.Clip(f.rewound),
		step: f.step, fresh: f.fresh + c.minted, unrecorded: f.unrecorded, unsynced: f.unsynced || !f.synced(c.op, b)}
	g.track(c.op, run)
	switch op := c.op.(type) {
	case ops.UserWeb, ops.UserDispatch, ops.ForkRoot, ops.Edit, ops.LegacyUser, ops.LegacyReply:
		g.nodes = append(g.nodes, ops.Defines(op)...)
		g.turns = append(g.turns, ops.Defines(op)...)
	case ops.Reply:
		g.nodes = append(g.nodes, pending+"_reply")
		g.turns = append(g.turns, pending+"_reply")
	case ops.Tool:
		g.nodes = append(g.nodes, reply+"_t_"+op.CallID)
	case ops.Task:
		g.nodes = append(g.nodes, op.ID, op.ID+"_reply", op.Attach, reply+"_t_"+op.CallID)
		g.turns = append(g.turns, op.ID, op.ID+"_reply")
	case ops.Spawn:
		g.nodes = append(g.nodes, op.Cmd, op.ID, op.ID+"_reply", op.Attach)
		g.turns = append(g.turns, op.Cmd, op.ID, op.ID+"_reply")
	case ops.Retry:
		// A retry of a turn without a reply writes no row: the head moves
		// back to the turn's user instead.
		if run.InMemoryHead() == op.ID {
			g.nodes = append(g.nodes, op.ID)
			g.turns = append(g.turns, op.ID)
		}
	case ops.Rewind:
		g.rewound = append(g.rewound, op.ID)
	case ops.Flag:
		g.step++
	default:
		g.nodes = append(g.nodes, ops.Defines(op)...)
	}
	return g
}

// Synced reports whether a script written with the flags off is data of the
// kinds harness.WrittenOff and Flipped (frontier.synced), false if the
// writer model refuses one of its ops.
func Synced(script []ops.Op) bool {
	run, f := model.NewLegacy(ops.DefaultSession), &frontier{}
	for _, op := range script {
		b := beforeOf(run)
		if run.Apply(op) != nil {
			return false
		}
		g := f.after(cand{op: op}, b, run)
		f = &g
	}
	return !f.unsynced
}
