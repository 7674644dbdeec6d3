package reconstruct

import (
	"sort"

	"sessiondag/model"
	"sessiondag/ops"
)

// finish ends, after the last row, what the rows show ended, applies the
// rewinds left, and puts the persisted head where meta.json has it.
func (b *builder) finish() {
	b.closeEnded()
	for _, r := range b.rewinds {
		if b.first == nil {
			b.apply(ops.Rewind{ID: r.ID})
		}
	}
	b.rewinds = nil
	if b.first == nil {
		b.metaHead()
	}
}

// closeEnded ends the functions and the reply left open whose rows show
// an end; one still running stays so (the session was copied or its
// process died mid-turn).
func (b *builder) closeEnded() {
	for len(b.frames) > 0 && b.first == nil {
		if b.status(b.frames[len(b.frames)-1].id) == "running" {
			return
		}
		b.endFrame()
	}
	if b.reply != nil && b.first == nil {
		b.finishReply(false)
	}
}

// metaHead makes the persisted head meta.json's: a crash persists the
// in-memory head, a checkout moves both (after a crash when something is
// still in progress).
func (b *builder) metaHead() {
	if b.d.Meta == nil {
		return // compared as a whole (compare.go)
	}
	want, ok := b.d.Meta.Val("head_id").(string)
	if !ok || want == b.persisted() {
		return
	}
	if b.leg.InMemoryHead() == want {
		b.apply(ops.Crash{})
		return
	}
	if b.leg.Node(want) == nil {
		b.first = &FirstRow{File: "meta.json", Field: "head_id", Stored: jsonText(want), Written: jsonText(b.persisted()),
			Why: "the stored head is no row of the session: no op persists it"}
		return
	}
	if b.pending != "" || b.reply != nil || len(b.frames) > 0 {
		b.apply(ops.Crash{})
	}
	b.apply(ops.Checkout{ID: want})
	if b.first == nil && want != b.persisted() {
		b.first = &FirstRow{File: "meta.json", Field: "head_id", Stored: jsonText(want), Written: jsonText(b.persisted()),
			Why: "no op after the last row persists this head"}
	}
}

// persisted is the writer's persisted head (meta.json's head_id).
func (b *builder) persisted() string { return str(b.leg.Meta(), "head_id") }

// sortRewinds orders the rewound rows by when they were rewound
// (rewound_at, which the original records): each is rewound before the
// first row written after that time; rows without one at the end.
func (b *builder) sortRewinds() {
	at := func(r *Row) (float64, bool) {
		f, ok := r.Meta.Val("rewound_at").(model.Float)
		return float64(f), ok
	}
	sort.SliceStable(b.rewinds, func(i, j int) bool {
		fi, oki := at(b.rewinds[i])
		fj, okj := at(b.rewinds[j])
		return oki && (!okj || fi < fj)
	})
}

// rewindBefore rewinds, before row r is explained, the rows rewound before
// r was written (by their rewound_at and r's created_at), once they are
// written and no longer in progress.
func (b *builder) rewindBefore(r *Row) {
	now, ok := r.Obj.Val("created_at").(model.Float)
	for ok && len(b.rewinds) > 0 && b.first == nil {
		x := b.rewinds[0]
		at, has := x.Meta.Val("rewound_at").(model.Float)
		if !has || at >= now || b.leg.Node(x.ID) == nil || b.inProgress(x.ID) {
			return
		}
		b.rewinds = b.rewinds[1:]
		b.apply(ops.Rewind{ID: x.ID})
	}
}

// inProgress reports whether id is the pending turn, the open reply or an
// open function: a rewind then comes after its end, which writes its keys
// before the rewind's.
func (b *builder) inProgress(id string) bool {
	if id == b.pending || b.reply != nil && id == b.reply.id {
		return true
	}
	for _, f := range b.frames {
		if f.id == id {
			return true
		}
	}
	return false
}
