package exhaust

import (
	"slices"

	"sessiondag/model"
	"sessiondag/ops"
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

// after is the frontier once c applied. pending and reply are the writer's
// pending turn and open reply before c (the ids it derives from them); run
// is the writer after c.
func (f *frontier) after(c cand, pending, reply string, run *model.LegacyRun) frontier {
	g := frontier{nodes: slices.Clip(f.nodes), turns: slices.Clip(f.turns), rewound: slices.Clip(f.rewound),
		step: f.step, fresh: f.fresh + c.minted}
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
