package reconstruct

import (
	"fmt"

	"sessiondag/model"
	"sessiondag/ops"
)

// prepare applies what must come before the step's op: the turns and
// functions in progress ended as their stored rows show, the browser on the
// row the op records, a dispatcher turn's parent decided, the reply's
// streamed blocks up to the op's call, the clock on the op's first row.
func (b *builder) prepare(s *step) {
	par := false
	switch s.need {
	case needIdle:
		b.closeAll()
		if turn := webTurn(s.op); turn != "" {
			b.clearStop(turn)
		}
	case needTurn:
		if b.pending != s.caller || b.reply != nil || len(b.frames) > 0 || !b.sameSource(s) {
			b.closeAll()
			b.clearStop(s.caller)
			if b.first == nil {
				b.apply(ops.Retry{Of: s.caller}) // the turn again: a rerun that writes no row
			}
		}
	case needReply:
		b.closeFrames(0)
		if par = b.parallel(s); par {
			break // a call of the reply waiting on its task turn
		}
		if b.first == nil && (b.reply == nil || b.reply.id != s.caller) {
			b.unexplained(b.current(), ops.Format(s.op), "called_by", b.notOpen(s.caller))
		}
	case needFrame:
		b.toCaller(s)
	case needSpawnEnd:
		b.spawnEnd(s)
	}
	if b.first != nil {
		return
	}
	b.chAt = b.browserNow() // a checkout before the row's op comes after what ended above
	b.flags(s)
	h := b.hints[b.i]
	for _, op := range h.before {
		b.apply(op)
	}
	if s.web != nil {
		b.browser(s.web)
	}
	b.recordedHead(s)
	if s.head != "" && b.leg.InMemoryHead() != s.head && b.first == nil && b.apply(ops.Checkout{ID: s.head}) {
		b.note(point{kind: pointCheckout, id: s.head})
	}
	if s.parent != nil {
		b.dispatchParent(s, h.given)
	}
	if s.call != "" && par {
		b.reply = b.outer.reply // its blocks before the call are the waiting reply's
		b.blocksUntil(s.call)
		b.reply = nil
	} else if s.call != "" {
		b.blocksUntil(s.call)
	}
	if s.need == needIdle && b.first == nil {
		b.dropBefore(b.current()) // before the clock: the row's created_at is its op's first
	}
	if s.clock != nil && b.first == nil {
		b.setClock(s.clock)
	}
}

// toCaller ends the functions inside the one the row names as its caller
// (a function, or its last exec: then the row's op is a call through that
// exec), or every function when it names the open reply.
func (b *builder) toCaller(s *step) {
	if b.reply != nil && s.caller == b.reply.id {
		b.closeFrames(0)
		return
	}
	for j := len(b.frames) - 1; j >= 0; j-- {
		f := b.frames[j]
		if f.id != s.caller && f.lastExec != s.caller {
			continue
		}
		if f.id != s.caller {
			fn, ok := s.op.(ops.Fn)
			if !ok {
				break
			}
			fn.ViaExec = true
			s.op = fn
		}
		b.closeFrames(j + 1)
		return
	}
	b.unexplained(b.current(), ops.Format(s.op), "called_by",
		fmt.Sprintf("its caller %q is no open function, exec or reply: a function's rows are written while it runs", s.caller))
}

// browser puts the browser on the row a web row records as its parent:
// nothing when it shows it, a reload when the store's head is there, else a
// checkout; a row recording none was typed in a browser with no head: a
// new writer's.
func (b *builder) browser(web *Row) {
	v, present := web.Meta.Get("parent_id")
	ch, set := b.leg.ClientHead()
	if !present {
		if set {
			b.newWriter()
		}
		return
	}
	x, ok := v.(string)
	switch {
	case !ok || x == "":
		b.unexplained(web, "", "metadata.parent_id", "a web row records the browser's head, an id, or no parent_id key")
	case set && ch == x:
	case b.leg.InMemoryHead() == x:
		b.apply(ops.Reload{})
	case b.leg.Node(x) == nil:
		b.unexplained(web, "", "metadata.parent_id", fmt.Sprintf("the browser's head %q is no row written before it", x))
	default:
		made := b.leg.ConversationMade()
		if b.apply(ops.Checkout{ID: x}) {
			b.note(point{kind: pointCheckout, id: x, noConv: !made})
		}
	}
}

// newWriter hands the ops to a writer not named before: its browser has no
// head and nothing of it is in progress.
func (b *builder) newWriter() {
	b.writers++
	if b.apply(ops.Writer{Name: fmt.Sprintf("w%d", b.writers+1), Set: "off"}) {
		b.pending, b.reply, b.frames = "", nil, nil
	}
}

// dispatchParent decides how a dispatcher turn got its recorded parent:
// inherited (R's dispatcher) when that is what inheriting records now,
// else given.
func (b *builder) dispatchParent(s *step, given bool) {
	op := s.op.(ops.UserDispatch)
	p, inherit := s.parent, b.leg.Inherit()
	switch {
	case !p.present:
		op.Parent = "none" // a rooted turn leaves out none; inheriting after ROOT records ROOT at least
	case p.null:
		op.Parent = "none"
	case op.Rooted && !b.leg.Rooted():
		op.Parent = p.id // inheriting reads after ROOT is created: given
	case inherit == p.id && !given:
		op.Parent = ""
		if h := b.leg.InMemoryHead(); b.t.Anchor(h) != b.t.Anchor(p.id) && !b.quiet {
			b.points = append(b.points, point{kind: pointInherit, row: b.i, at: len(b.script), last: b.i + s.rows - 1, id: p.id})
		}
	default:
		op.Parent = p.id
	}
	if op.Parent == "none" && op.Source == "" && !op.Rooted {
		s.op = ops.ForkRoot{ID: op.ID, Text: op.Text}
		return
	}
	s.op = op
}

// setClock sets the clock when the op's first row was not written at the
// time the clock gives it (the writers' clock: 1.5 s a node since it was
// set).
func (b *builder) setClock(r *Row) {
	at, ok := r.Obj.Val("created_at").(model.Float)
	if !ok {
		return // not a float: the comparison names it
	}
	ticks := b.leg.NodeCount() - b.clockN
	if float64(at) == b.clock+1.5*float64(ticks) {
		return
	}
	if b.apply(ops.Clock{At: jsonText(at)}) {
		b.clock, b.clockN = float64(at), b.leg.NodeCount()
	}
}

// sameSource reports whether the pending turn's source is the one the
// reply row records (a reply records its turn's): a turn rerun from the
// browser is the web's, whatever wrote it first.
func (b *builder) sameSource(s *step) bool {
	if _, ok := s.op.(ops.Reply); !ok {
		return true
	}
	r := b.current()
	return sourceClass(r.Meta.Val("source")) == sourceClass(b.pendingSrc)
}

// flags sets the writer's flags to what its rows show: a row that records
// its predecessor was written with flag A on (the steps after it change
// only readers: the data does not tell them apart, so all), a conversation
// row without one with every flag off; other rows say nothing.
func (b *builder) flags(s *step) {
	on, lane := false, laneOp(s.op)
	for j := b.i; j < b.i+s.rows && j < len(b.d.Rows); j++ {
		on = on || has(b.d.Rows[j].Meta, "predecessor") || has(b.d.Rows[j].Meta, "spawn_root")
	}
	if on == b.flagsOn || !on && !lane || b.first != nil {
		return
	}
	set := "off"
	if on {
		set = "all"
	}
	if b.apply(ops.Flag{Set: set}) {
		b.flagsOn, b.flagged = on, true
	}
}

// laneOp reports whether op writes a conversation row first (docs/rollout.md
// §2: the rows flag A records a predecessor on), not a tool row or a
// function's internal.
func laneOp(op ops.Op) bool {
	switch op.(type) {
	case ops.Tool, ops.Fn, ops.Exec, ops.Ask, ops.Clock, ops.Rewind:
		return false
	}
	return true
}

// recordedHead: under flag A a row that records no parent, and a web row,
// record the store's head as their predecessor (its anchor): where that is
// not where the head stands, a checkout (which no row shows otherwise) put
// it there — for a web row, when it is the browser's head too.
func (b *builder) recordedHead(s *step) {
	row := s.web
	if row == nil && recordsNoParent(s.op) {
		row = b.byID[opRow(s.op)]
	}
	if !b.flagsOn || b.first != nil || row == nil {
		return
	}
	p := str(row.Meta, "predecessor")
	if s.web != nil && str(row.Meta, "parent_id") != p {
		return // the browser's head is elsewhere: no checkout puts both there (the comparison names it)
	}
	want := p
	if p == "ROOT" {
		want = ""
	}
	if p == "" || b.t.Anchor(b.leg.InMemoryHead()) == want || b.leg.Node(p) == nil {
		return
	}
	if b.apply(ops.Checkout{ID: p}) {
		b.note(point{kind: pointCheckout, id: p})
	}
}

// opRow is the id of the row a no-parent op writes (ROOT may come first).
func opRow(op ops.Op) string {
	switch op := op.(type) {
	case ops.Manual:
		return op.ID
	case ops.Run:
		return op.ID
	case ops.Script:
		return op.ID
	case ops.LegacyUser:
		return op.ID
	case ops.Orphan:
		return op.ID
	case ops.Message:
		return op.ID
	}
	return ""
}

// recordsNoParent reports whether op writes a row that records no parent:
// it continues where the store's head is.
func recordsNoParent(op ops.Op) bool {
	switch op := op.(type) {
	case ops.Manual, ops.Run, ops.Script:
		return true
	case ops.LegacyUser:
		return op.Parent == ""
	case ops.Orphan:
		return op.Caller == ""
	case ops.Message:
		return op.Headless()
	}
	return false
}

// webTurn is the user row of the web turn op starts, if it starts one.
func webTurn(op ops.Op) string {
	switch o := op.(type) {
	case ops.UserWeb:
		return o.ID
	case ops.Retry:
		return o.ID
	case ops.Edit:
		return o.ID
	}
	return ""
}

// clearStop ends the process before the web turn of user row turn when a
// stop left the session's cancel flag set and the turn ran anyway: R
// aborts such a turn's stream (it ends cancelled, before any tool call),
// so its reply's completing, or a row its reply called, says the flag was
// cleared. A manual run's end and an async task's start clear it with rows
// of their own; a new process is the one way that leaves none.
func (b *builder) clearStop(turn string) {
	if b.first != nil || turn == "" || !b.leg.Stopped() {
		return
	}
	reply := turn + "_reply"
	if b.byID[reply] != nil && (b.status(reply) == "completed" || b.called[reply]) {
		b.apply(ops.Crash{})
	}
}

// spawnEnd ends the spawn turn's reply, whose done writes the attach
// pointer being explained: its functions ended, its blocks streamed. A
// reply that did not complete writes none.
func (b *builder) spawnEnd(s *step) {
	b.closeFrames(0)
	if b.first != nil {
		return
	}
	if b.reply == nil || b.reply.id != s.caller || b.status(s.caller) != "completed" {
		b.unexplained(b.current(), ops.Format(s.op), "", fmt.Sprintf("a spawn turn's attach pointer is written by its reply's done; reply %s is not open and completed here", s.caller))
		return
	}
	b.flushBlocks()
}

// parallel reports whether the step is a tool call of the reply waiting on
// its task turn while the sub-agent's user is pending with no reply of its
// own (R runs a reply's calls in parallel: this one ended first).
func (b *builder) parallel(s *step) bool {
	_, ok := s.op.(ops.Tool)
	return ok && b.first == nil && b.reply == nil && b.outer != nil && b.outer.reply != nil &&
		b.outer.reply.id == s.caller && b.pending == b.spawn && len(b.frames) == 0
}

// notOpen says why a row of reply cannot be written now: the reply waits
// on a task turn (R ran the row's call alongside the task), it is an async
// sub-agent's (R's task runner writes its turn beside the later ones), or
// it ended.
func (b *builder) notOpen(reply string) string {
	r := b.byID[reply]
	switch {
	case b.outer != nil && b.outer.reply != nil && b.outer.reply.id == reply:
		return fmt.Sprintf("its reply %s waits on its task call while the sub-agent's turn (%s) runs: R ran this call alongside the task, and the op language's reply calls nothing while a task turn of it runs", reply, b.spawn)
	case r != nil && str(r.Meta, "source") == "agent_spawn":
		return fmt.Sprintf("its reply %s is an async sub-agent's, written by R's task runner beside the turns after it: the op language's async task or /task --async answers at once, and no op writes the sub-agent's turn later", reply)
	}
	return fmt.Sprintf("its reply %s is not open: a reply's rows are written between the reply and its end", reply)
}
