package model

import (
	"maps"
	"slices"
)

// Fork is a copy of the run that later ops on either leave the other
// alone: every field AppendState encodes is copied (values deeply: ops
// update nodes and a reply's blocks in place), and what is derived from
// the nodes (byID, the index, the memo, the replies) starts afresh, as in a
// run nobody has read.
func (r *LegacyRun) Fork() *LegacyRun {
	c := *r
	c.nodes = make([]*Node, len(r.nodes))
	c.byID = make(map[string]*Node, len(r.nodes))
	for i, n := range r.nodes {
		c.nodes[i] = n.copy()
		c.byID[n.ID] = c.nodes[i]
	}
	c.idx, c.indexed, c.memo, c.replies = newIndex(nil), 0, newMemo(), map[string][]*Node{}
	c.meta = deepCopy(r.meta).(*Object)
	c.writerState = r.writerState.fork()
	c.parked = make([]writerState, len(r.parked))
	for i, w := range r.parked {
		c.parked[i] = w.fork()
	}
	return &c
}

// copy is a deep copy of the node.
func (n *Node) copy() *Node {
	c := *n
	c.CreatedAt, c.Input, c.Output, c.Reads = deepCopy(n.CreatedAt), deepCopy(n.Input), deepCopy(n.Output), deepCopy(n.Reads)
	c.Metadata = deepCopy(n.Metadata).(*Object)
	return &c
}

func (w writerState) fork() writerState {
	w.blocks, w.toolCalls = deepCopy(w.blocks).([]any), deepCopy(w.toolCalls).([]any)
	w.frames, w.compacted = slices.Clone(w.frames), slices.Clone(w.compacted)
	return w // spawn is shared: nothing changes a spawnTurn once made
}

// Fork is a copy of the intent and its writer (LegacyRun.Fork) that later
// ops on either leave the other alone.
func (r *TargetRun) Fork() *TargetRun {
	c := &TargetRun{leg: r.leg.Fork(), rows: make([]*tRow, len(r.rows)), byID: make(map[string]*tRow, len(r.rows)),
		attachAt: make(map[string][]*tRow, len(r.attachAt)), anchor: maps.Clone(r.anchor), rewound: maps.Clone(r.rewound),
		early: cloneLists(r.early), callers: maps.Clone(r.callers), recorded: cloneLists(r.recorded), finished: maps.Clone(r.finished),
		viaExec: maps.Clone(r.viaExec), spawnAt: maps.Clone(r.spawnAt), taskCall: maps.Clone(r.taskCall)}
	to := make(map[*tRow]*tRow, len(r.rows))
	for i, t := range r.rows {
		u := *t
		u.calls = slices.Clone(t.calls)
		c.rows[i], to[t] = &u, &u
		c.byID[u.id] = &u
	}
	for k, ts := range r.attachAt {
		l := make([]*tRow, len(ts))
		for i, t := range ts {
			l[i] = to[t]
		}
		c.attachAt[k] = l
	}
	return c
}

func cloneLists(m map[string][]string) map[string][]string {
	c := make(map[string][]string, len(m))
	for k, v := range m {
		c[k] = slices.Clone(v)
	}
	return c
}
