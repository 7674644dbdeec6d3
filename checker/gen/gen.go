package gen

import (
	"fmt"
	"slices"

	"sessiondag/ops"
)

// Options shape what a generator draws.
type Options struct {
	// Legacy allows the ops that write legacy-shaped rows (legacy-user,
	// legacy-reply, orphan, legacy tool edges, script rows), rows naming
	// an id a later op writes (later.go) and rewinds.
	Legacy bool
	// FlagFlips allows `flag` ops (data written before and after a
	// rollout step in one session): one step forward along the rollout
	// path at a time, unless Rollback.
	FlagFlips bool
	// Rollback lets flag ops go to any other step of the path: a step rolled
	// back (all → off, A,B → A), or several at once.
	Rollback bool
	// Writers is how many writers may write the session (0 or 1: one).
	// A writer op hands the ops that follow to another writer, in any
	// state: a turn in progress stays with its writer. A writer's flags
	// follow the flips allowed: the flags in force without FlagFlips, the
	// same or the next step with it, any step with Rollback.
	Writers int
	// StartStep is the writers' flag set at the start (index into the
	// rollout path: 0 off … 4 all), used to order flips.
	StartStep int
	// Rollout, when set, decides the flags and the writers instead of
	// FlagFlips, Rollback and Writers: each phase starts with the op that
	// puts its first writer on its step, and within a phase its writers take
	// turns on theirs.
	Rollout *Rollout
	// SyncedBrowser draws only legacy data whose conversation edges are
	// recorded: a web turn or spawn only after a reload when something
	// else (a manual run, another client's turn, a script row) moved the
	// head, and after a checkout, or a retry that writes no row and moves
	// the head to the turn it reruns, no row that records no parent (a
	// manual run, a script row, an adapter row without parent_id) before a
	// turn that does. Data outside these rules records a parent its user never
	// meant, or none, and no migration can recover the intent
	// (model/README.md, "Legacy derivation").
	SyncedBrowser bool
	// Only, when not empty, restricts the draw to these op kinds (as named
	// in candidates, e.g. "user", "reply", "manual"); a state where none of
	// them applies falls back to the ops that end what is in progress.
	Only []string
	// Swarm, when set, leaves kinds out and reweights the rest (DrawSwarm).
	Swarm *Swarm
	// Without are field variants (Variants) an implementation cannot
	// write: an op drawn with one is written without it.
	Without []string
	// Together are pairs of op kinds an implementation writes in one step
	// (docs/protocol.md, "together"): after an op of a pair's first kind
	// the next op drawn is of its second, and a script does not end
	// between them.
	Together [][2]string
}

// Gen is a generator with the shadow state it needs to draw valid ops.
type Gen struct {
	opt    Options
	only   map[Kind]bool // Options.Only
	st     shadow
	intent ops.Intent // the one rule for where legacy data holds its intent
	Tally  *Tally
	drawn  int    // ops Next drew: where Options.Rollout stands
	phase  int    // the rollout's phase those ops are in
	next   string // the op kind the next op must be (Options.Together), or ""
}

// New makes a generator.
func New(opt Options) *Gen {
	g := &Gen{opt: opt, Tally: NewTally()}
	for _, name := range opt.Only {
		k, err := KindNamed(name)
		if err != nil {
			panic(fmt.Sprintf("gen.Options.Only: %v", err)) // a test's or caller's typo, not data
		}
		if g.only == nil {
			g.only = map[Kind]bool{}
		}
		g.only[k] = true
	}
	if opt.StartStep > 0 {
		g.intent = *ops.IntentAt(ops.RolloutPath[opt.StartStep])
	}
	g.st = newShadow(opt.StartStep, g.Tally)
	return g
}

// Nodes is how many nodes the ops drawn so far write.
func (g *Gen) Nodes() int { return g.st.nodeCount }

// Script draws ops until n ops have been drawn.
func (g *Gen) Script(src Source, n int) []ops.Op {
	out := make([]ops.Op, 0, n)
	for len(out) < n || g.next != "" {
		out = append(out, g.Next(src))
	}
	return out
}

// ScriptNodes draws ops until they write at least n nodes, then closes any
// turn in progress so the session ends idle.
func (g *Gen) ScriptNodes(src Source, n int) []ops.Op {
	var out []ops.Op
	for g.st.nodeCount < n {
		out = append(out, g.Next(src))
	}
	return append(out, g.Finish()...)
}

// Finish returns the ops that end whatever is in progress: open functions
// end, an open reply is done, a pending turn gets its reply; then the same
// for each other writer with a turn in progress, which takes over on the
// flags it has.
func (g *Gen) Finish() []ops.Op {
	out := g.finishOne()
	for i := 0; i < len(g.st.parked); i++ {
		if w := g.st.parked[i]; w.Busy() {
			out = append(out, g.apply(ops.Writer{Name: w.name, Set: ops.RolloutPath[w.step]}))
			out = append(out, g.finishOne()...)
			i = -1 // the writer left is parked in its place: look again
		}
	}
	return out
}

// finishOne ends what the writer performing the ops now has in progress.
func (g *Gen) finishOne() []ops.Op {
	var out []ops.Op
	for len(g.st.frames) > 0 {
		out = append(out, g.apply(ops.End{Output: `"ok"`}))
	}
	if g.st.pending != "" && g.st.reply == "" {
		if g.st.written[g.st.pending+"_reply"] {
			return append(out, g.apply(ops.Crash{})) // another writer answered the turn
		}
		out = append(out, g.apply(ops.Reply{}))
	}
	if g.st.reply != "" {
		out = append(out, g.apply(ops.Done{}))
	}
	return out
}

// choice is one candidate draw kind with its weight.
type choice struct {
	kind   Kind
	weight int
}

// Next draws one op that is valid now and advances the shadow state.
func (g *Gen) Next(src Source) ops.Op {
	defer func() { g.drawn++ }()
	if op := g.enterPhase(); op != nil {
		return g.apply(op)
	}
	cands := g.candidates()
	total := 0
	for _, c := range cands {
		total += c.weight
	}
	pick := src.IntN(total, "op")
	kind := cands[len(cands)-1].kind
	for _, c := range cands {
		if pick < c.weight {
			kind = c.kind
			break
		}
		pick -= c.weight
	}
	return g.apply(g.plain(g.draw(src, kind)))
}

// candidates lists the op kinds valid in the current state, in a fixed
// order: the simplest first, since rapid shrinks choices towards zero (and
// draws small ones more often, so a state's rare but wanted follow-up goes
// first).
func (g *Gen) candidates() []choice {
	s := &g.st
	var c []choice
	switch {
	case len(s.frames) > 0:
		c = g.inFrame()
	case s.reply != "":
		c = g.inReply()
	case s.pending != "":
		w := weights.pending
		c = []choice{{kErrorStandalone, w.errorStandalone}, {kCrash, w.crash}}
		if s.sub != nil { // a sub-agent's turn ends with done (ops/README.md: spawn, task turn)
			c = c[1:]
		}
		if s.sub != nil && s.sub.call != "" && !s.sub.outer.aborted {
			// the reply waiting on its task turn ends another call first (R
			// runs a reply's tool calls in parallel)
			c = append(c, choice{kTool, w.parallelTool})
		}
		// Another writer may have run the same turn (a retry of it there)
		// and written its reply.
		if !s.written[s.pending+"_reply"] {
			c = append([]choice{{kReply, w.reply}}, c...)
		}
	default:
		c = g.idle()
	}
	if g.writers() > 1 && s.Busy() {
		c = append(c, choice{kWriter, weights.busy.writer})
	}
	c = g.opt.Swarm.weigh(c)
	if len(g.only) > 0 {
		var kept []choice
		for _, ch := range c {
			if g.only[ch.kind] {
				kept = append(kept, ch)
			}
		}
		if len(kept) > 0 {
			c = kept
		}
	}
	if g.next != "" {
		var kept []choice
		for _, ch := range c {
			if ch.kind.Op() == g.next {
				kept = append(kept, ch)
			}
		}
		if len(kept) > 0 {
			return kept
		}
	}
	return c
}

// inFrame: inside a function run.
func (g *Gen) inFrame() []choice {
	s := &g.st
	w := weights.frame
	c := []choice{{kEnd, w.end}}
	if len(s.frames) < 3 {
		c = append(c, choice{kFn, w.fn}) // reach functions nested three deep
	}
	c = append(c, choice{kExec, w.exec})
	canCall := len(s.callable()) > 0
	if len(s.frames) >= 3 && canCall {
		c = append(c, choice{kFn, w.fnDeep})
	}
	if s.frames[len(s.frames)-1].lastExec != "" && canCall {
		c = append(c, choice{kFnViaExec, w.fnViaExec})
	}
	return append(c, choice{kAsk, w.ask}, choice{kCrash, w.crash})
}

// inReply: a reply is open.
func (g *Gen) inReply() []choice {
	w := weights.reply
	var c []choice
	if g.opt.Legacy && g.st.lastLegacyTool {
		c = append(c, choice{kCrash, w.crashAfterLegacyTool}) // a crash right after a legacy tool leaves the head on it
	}
	if g.st.aborted { // a web turn after a stop: R ends it at the model's first tool call
		return append(c, choice{kDone, w.done}, choice{kSay, w.say}, choice{kThink, w.think},
			choice{kCancel, w.cancel}, choice{kErrorFolded, w.errorFolded}, choice{kCrash, w.crash})
	}
	c = append(c, choice{kDone, w.done}, choice{kTool, w.tool}, choice{kSay, w.say}, choice{kThink, w.think},
		choice{kFn, w.fn})
	// R's task tool runs a sub-agent only in a web turn (or a sub-agent's):
	// in a dispatcher turn it answers with an error, which is a tool op; the
	// older writers' task (rooted) is drawn there instead.
	inDispatch := g.st.inDispatch()
	if !inDispatch || !slices.Contains(g.opt.Without, "rooted") {
		c = append(c, choice{kTask, w.task})
	}
	if g.st.sub == nil && !inDispatch { // a sub-agent's turn ends with done and calls no task turn of its own
		c = append(c, choice{kTaskTurn, w.task})
	}
	if g.st.sub == nil {
		c = append(c, choice{kCancel, w.cancel}, choice{kErrorFolded, w.errorFolded})
	}
	if g.opt.Legacy {
		c = append(c, choice{kToolLegacy, w.toolLegacy})
	}
	return append(c, choice{kCrash, w.crash})
}

// idle: no turn, reply or run in progress.
func (g *Gen) idle() []choice {
	s := &g.st
	var c []choice
	w := weights.idle
	add := func(kind Kind, weight int) { c = append(c, choice{kind, weight}) }
	// A browser shows a row while the session has no ROOT: the web turn's
	// ensureRoot moves the store's head to ROOT before the row records
	// the browser's, as stale a parent as any.
	stale := g.opt.SyncedBrowser && g.intent.Stale(s)
	// After a checkout (or a retry without a row) the head stands where no
	// row records it: the next row must say where it attaches (see
	// Options.SyncedBrowser).
	unrecorded := g.opt.SyncedBrowser && g.intent.Unrecorded()
	afterRun := stale || s.isManual(s.head) && s.client != s.head
	// Rare but wanted follow-ups first: a run before any chat (L2), the
	// page reloaded after a run (variant A of legacy §4), runs in a row (L1).
	if !unrecorded && s.turns == 0 {
		add(kManual, w.manualFirst)
	}
	if afterRun {
		add(kReload, w.reloadAfterRun)
	}
	if !stale && s.isManual(s.client) {
		add(kUser, w.userOnRun) // a turn typed on a run (legacy §5.2)
	}
	if !unrecorded && s.turns > 0 && s.manualRun > 0 {
		add(kManual, w.manualInRow)
	}
	// Until each kind of cached row the session holds was rewound.
	cw, rare := s.cachedWeight()
	cached := g.opt.Legacy && !unrecorded && cw > 1
	if cached && rare {
		add(kRewindCached, cw)
	}
	if !stale && !s.isManual(s.client) {
		add(kUser, w.user)
	}
	if cached && !rare {
		add(kRewindCached, cw)
	}
	if !unrecorded && s.turns > 0 && s.manualRun == 0 {
		add(kManual, w.manualAfterChat)
	}
	if !afterRun {
		add(kReload, w.reload)
	}
	add(kDispatch, w.dispatch)
	if len(s.retryable) > 0 {
		add(kRetry, w.retry)
		add(kEdit, w.edit)
	}
	if len(s.nodes) > 0 {
		add(kCheckout, w.checkout)
	}
	add(kForkRoot, w.forkRoot)
	// A head on an orphan whose caller is not written yet anchors a
	// /spawn's attach row at nothing the data can show (ops.Intent).
	if !stale && !(g.opt.SyncedBrowser && g.intent.Unanchored(s)) {
		add(kSpawn, w.spawn)
		add(kSpawnTurn, w.spawn)
		add(kMerge, written.merge)
	}
	if len(s.asyncCmds) > 0 {
		add(kFollowup, written.followup) // a finished async task's follow-up turn
	}
	if s.compactable() && !(g.opt.SyncedBrowser && !g.intent.Keeps(ops.Compact{}, s)) {
		add(kCompact, written.compact)
	}
	if g.opt.Legacy && !unrecorded {
		add(kScript, w.script)
		add(kRun, written.run)
		add(kLegacyUser, w.legacyUser)
		if len(s.nodes) > 0 {
			add(kLegacyReply, w.legacyReply)
			add(kMessage, written.message)
			add(kRewind, w.rewind)
		}
		if len(s.droppable()) > 0 {
			add(kDrop, written.drop)
		}
		add(kOrphan, w.orphan)
		add(kOrphanLater, w.orphanLater)
		if cw == 1 {
			add(kRewindCached, w.rewindCached)
		}
	}
	if g.opt.FlagFlips && g.opt.Rollout == nil && (g.opt.Rollback || s.step < len(ops.RolloutPath)-1) {
		add(kFlag, w.flag)
	}
	if g.writers() > 1 {
		add(kWriter, w.writer)
	}
	add(kClock, w.clock)
	return c
}

// drawParent draws an explicit parent argument: "" (none given), the word
// that means an explicit root (none or null), an existing node, or (legacy
// data) an id a later op writes.
func (g *Gen) drawParent(src Source, root string) string {
	s := &g.st
	n := 3
	if g.opt.Legacy {
		n = 5
	}
	switch src.IntN(n, "parent") {
	case 1:
		return root
	case 2:
		if fork, ok := s.waitingFork(src); ok {
			return fork
		}
		if len(s.nodes) > 0 {
			return s.nodes[src.IntN(len(s.nodes), "parent id")]
		}
	case 3, 4:
		return g.laterRef(src)
	}
	return ""
}

// laterRef is a parent naming an id a later op writes, or, for an
// implementation that cannot write one (Options.Without "later": it mints
// its own ids, so an id it has not minted yet has no name), a parent that
// dangles for good. The same draws either way.
func (g *Gen) laterRef(src Source) string {
	id := g.st.laterID(src)
	if slices.Contains(g.opt.Without, "later") {
		return "gone_" + id
	}
	return id
}

// draw makes an op of the given draw kind, valid in the current state.
func (g *Gen) draw(src Source, kind Kind) ops.Op {
	for _, d := range []func(Source, Kind) ops.Op{g.drawTurn, g.drawReply, g.drawRun, g.drawOther} {
		if op := d(src, kind); op != nil {
			return op
		}
	}
	panic(fmt.Sprintf("gen: no draw for kind %s", kind))
}

// drawTurn draws the ops that start, rerun or move a turn.
func (g *Gen) drawTurn(src Source, kind Kind) ops.Op {
	s := &g.st
	switch kind {
	case kUser:
		form := pickWeighted(src, "user form", []string{"", "image", "function"}, []int{written.formIn - 2, 1, 1})
		return ops.UserWeb{ID: s.userID(), Text: pickStr(src, "text", texts), Form: form}
	case kDispatch:
		op := ops.UserDispatch{ID: s.id12(), Text: pickStr(src, "text", texts), Parent: g.drawParent(src, "none"),
			Rooted: oneIn(src, written.rootedIn, "dispatch rooted")}
		if g.opt.SyncedBrowser && !g.intent.Keeps(op, s) {
			op.Parent = "none" // INHERIT from a rewound head records another row
		}
		return op
	case kForkRoot:
		return ops.ForkRoot{ID: s.id12(), Text: pickStr(src, "text", texts), Rooted: oneIn(src, written.rootedIn, "fork rooted")}
	case kFollowup:
		return ops.UserDispatch{ID: s.id12(), Text: "the task finished", Parent: s.asyncCmds[0], Source: "task_followup"}
	case kMerge:
		return ops.Merge{Cmd: s.id8(), ID: s.id12(), Text: "combine them"}
	case kRetry:
		of, ok := s.retryTarget(src)
		if !ok {
			return ops.Reload{}
		}
		return ops.Retry{Of: of, ID: s.id8(), Web: oneIn(src, written.rootedIn, "retry web")}
	case kEdit:
		of, ok := s.retryTarget(src)
		if !ok {
			return ops.Reload{}
		}
		return ops.Edit{Of: of, ID: s.userID(), Text: pickStr(src, "text", texts), Web: oneIn(src, written.rootedIn, "edit web")}
	case kCheckout:
		return ops.Checkout{ID: s.nodes[src.IntN(len(s.nodes), "checkout")]}
	case kReload:
		return ops.Reload{}
	case kSpawn:
		w := written
		mode := pickWeighted(src, "spawn mode", []string{"inherit", "clean", "async"},
			[]int{w.spawnInherit, w.spawnClean, w.spawnAsync})
		o := ops.Spawn{Mode: mode, Cmd: s.id8(), ID: s.id12(), Attach: s.id12(), Text: "sub task", Label: "helper",
			Rooted: oneIn(src, w.rootedIn, "spawn rooted")}
		if mode == "async" && !o.Rooted { // R's task runner: its follow-up, the task id it drew
			o.Followup, o.Task = s.id12(), "t_"+s.id12()
		}
		return o
	case kSpawnTurn:
		mode := pickWeighted(src, "spawn mode", []string{"inherit", "clean", "async"},
			[]int{written.spawnInherit, written.spawnClean, written.spawnAsync})
		o := ops.Spawn{Mode: mode, Cmd: s.id8(), ID: s.id12(), Attach: s.id12(), Text: "sub task", Label: "helper", Turn: true}
		if mode == "async" { // R's task runner: its follow-up, the task id it drew
			o.Followup, o.Task = s.id12(), "t_"+s.id12()
		}
		return o
	}
	return nil
}

// drawReply draws the ops of an open reply and the ends of a turn.
func (g *Gen) drawReply(src Source, kind Kind) ops.Op {
	s := &g.st
	switch kind {
	case kReply:
		return ops.Reply{}
	case kThink:
		return ops.Think{Text: "thinking about it"}
	case kSay:
		return ops.Say{Text: pickStr(src, "say", texts)}
	case kTool, kToolLegacy:
		return ops.Tool{CallID: s.callID(), Name: pickStr(src, "tool", toolNames), Args: pickStr(src, "args", toolArgs),
			Result: pickStr(src, "result", results), Error: src.IntN(4, "tool error") == 0, Legacy: kind == kToolLegacy,
			Object: oneIn(src, written.objectIn, "tool object")}
	case kTask:
		rooted := oneIn(src, written.rootedIn, "task rooted") || s.inDispatch()
		async := src.IntN(3, "async") == 0
		if async && !rooted && s.source == "web" { // R's task runner: no attach pointer, a follow-up turn
			return ops.Task{CallID: s.callID(), ID: s.id12(), Text: "look around", Label: "scout", Async: true,
				Followup: s.id12()}
		}
		return ops.Task{CallID: s.callID(), ID: s.id12(), Attach: s.id12(), Text: "look around", Label: "scout",
			Async: async, Rooted: rooted || async}
	case kTaskTurn:
		return ops.Task{CallID: s.callID(), ID: s.id12(), Attach: s.id12(), Text: "look around", Label: "scout",
			Turn: true, Clean: src.IntN(2, "task clean") == 0}
	case kDone:
		return ops.Done{}
	case kCancel:
		return ops.Cancel{}
	case kErrorFolded:
		return ops.ErrorFolded{Type: "RuntimeError", Msg: "boom"}
	case kErrorStandalone:
		return ops.ErrorStandalone{ID: s.id12(), Type: "ProviderError", Msg: "provider down"}
	case kCrash:
		return ops.Crash{}
	}
	return nil
}

// drawRun draws the ops of function runs.
func (g *Gen) drawRun(src Source, kind Kind) ops.Op {
	s := &g.st
	switch kind {
	case kFn, kFnViaExec:
		return ops.Fn{ID: s.runID(), Name: pickStr(src, "fn", s.callable()), Args: pickStr(src, "fn args", fnArgs),
			Expose: pickStr(src, "expose", exposes), ViaExec: kind == kFnViaExec}
	case kManual:
		return ops.Manual{ID: s.runID(), Name: pickStr(src, "fn", fnNames), Args: pickStr(src, "fn args", fnArgs), Expose: pickStr(src, "expose", exposes)}
	case kRun:
		return ops.Run{ID: s.runID(), Name: pickStr(src, "fn", fnNames), Args: pickStr(src, "fn args", fnArgs), Expose: pickStr(src, "expose", exposes)}
	case kExec:
		return ops.Exec{ID: s.runID(), Prompt: "count the words", Reply: "inner reply"}
	case kAsk:
		// answered, answered with nothing, or rejected (a null output)
		switch src.IntN(4, "answered") {
		case 0, 1:
			return ops.Ask{ID: s.id12(), Question: "proceed?", Answer: "yes"}
		case 2:
			return ops.Ask{ID: s.id12(), Question: "proceed?"}
		}
		return ops.Ask{ID: s.id12(), Question: "proceed?", Declined: true}
	case kEnd:
		if src.IntN(5, "fn error") == 0 {
			return ops.End{Error: "boom", Duration: pickStr(src, "duration", durations)}
		}
		return ops.End{Output: pickStr(src, "output", outputs), Duration: pickStr(src, "duration", durations)}
	}
	return nil
}

// drawOther draws legacy-shaped rows, updates and the writers' settings.
func (g *Gen) drawOther(src Source, kind Kind) ops.Op {
	s := &g.st
	switch kind {
	case kScript:
		w := written
		what := pickWeighted(src, "script what", []string{"fn", "exec", "ask"}, []int{w.scriptFn, w.scriptExec, w.ask})
		o := ops.Script{What: what, ID: s.id12(), Name: pickStr(src, "fn", fnNames)}
		if what == "exec" {
			o.Prompt = pickStr(src, "script prompt", []string{"a top-level model call", ""})
		}
		return o
	case kLegacyUser:
		return ops.LegacyUser{ID: s.id8(), Text: pickStr(src, "text", texts), Parent: g.drawParent(src, "null")}
	case kLegacyReply:
		parent := s.nodes[src.IntN(len(s.nodes), "parent id")]
		if fork, ok := s.waitingFork(src); ok {
			parent = fork
		} else if src.IntN(2, "parent later") == 1 {
			parent = g.laterRef(src)
		}
		return ops.LegacyReply{ID: s.id12(), Text: "legacy answer", Parent: parent, Blocks: oneIn(src, written.blocksIn, "reply blocks")}
	case kCompact:
		// the copies under ids as the original's persister draws them
		o := ops.Compact{ID: "summary_" + s.id12(), Keep: pickStr(src, "compact keep", []string{"2", "1"})}
		o.Copies = "k_" + s.id10()
		if o.Keep == "2" {
			o.Copies += ",k_" + s.id10()
		}
		return o
	case kOrphan:
		caller := ""
		if src.IntN(2, "orphan caller") == 1 {
			caller = "gone_" + s.id8()
		}
		return ops.Orphan{ID: s.id12(), Name: pickStr(src, "tool", toolNames), Caller: caller}
	case kMessage:
		return g.drawMessage(src)
	case kDrop:
		d := s.droppable()
		return ops.Drop{ID: d[src.IntN(len(d), "drop")]}
	case kOrphanLater:
		return ops.Orphan{ID: s.id12(), Name: pickStr(src, "tool", toolNames), Caller: s.laterID(src)}
	case kRewind:
		return ops.Rewind{ID: s.nodes[src.IntN(len(s.nodes), "rewind")]}
	case kRewindCached:
		return ops.Rewind{ID: s.cachedTarget(src)}
	case kFlag:
		return ops.Flag{Set: ops.RolloutPath[g.drawStep(src, s.step, false)]}
	case kWriter:
		return g.drawWriter(src)
	case kClock:
		return ops.Clock{At: drawClock(src)}
	}
	return nil
}

// drawStep draws the flags of a flag op or of a writer taking over (same:
// the flags in force may stay): the next step forward, or with Rollback any
// step of the rollout path; without FlagFlips the flags in force.
func (g *Gen) drawStep(src Source, cur int, same bool) int {
	last := len(ops.RolloutPath) - 1
	switch {
	case !g.opt.FlagFlips:
		return cur
	case g.opt.Rollback:
		if same && src.IntN(2, "writer keeps its step") == 0 {
			return cur
		}
		step := src.IntN(last, "step")
		if step >= cur {
			step++ // every step but the one in force
		}
		return step
	case same && (cur == last || src.IntN(2, "writer steps forward") == 0):
		return cur
	}
	return min(cur+1, last)
}

// drawWriter draws a writer op: another writer named so far or, while
// fewer than Options.Writers are, a new one, on flags drawn as a flag op's
// (from the flags that writer had, or the ones in force for a new one).
func (g *Gen) drawWriter(src Source) ops.Op {
	s := &g.st
	if g.opt.Rollout != nil {
		steps := g.opt.Rollout.Phases[g.phase].Steps
		i := src.IntN(len(steps)-1, "writer")
		if i >= writerIndex(s.name) {
			i++ // every writer of the phase but the one writing now
		}
		return ops.Writer{Name: writerName(i), Set: ops.RolloutPath[steps[i]]}
	}
	n := len(s.parked)
	if n+1 < g.opt.Writers {
		n++ // a new writer
	}
	i := src.IntN(n, "writer")
	if i == len(s.parked) {
		return ops.Writer{Name: writerName(n), Set: ops.RolloutPath[g.drawStep(src, s.step, true)]}
	}
	w := s.parked[i]
	from := w.step
	if !g.opt.Rollback {
		from = max(from, s.step) // the flags in force never move back
	}
	return ops.Writer{Name: w.name, Set: ops.RolloutPath[g.drawStep(src, from, true)]}
}

// SessionScript is the script of one session drawn from seed, and how many
// nodes it writes: its session op, a flag op when the writers run flags
// other than off (set, spelled as a flag op spells it: the writers' flags
// are ops of the script, so replaying it writes the same bytes), then ops
// until they write at least nodes nodes, ending idle. The ops drawn do not
// depend on set.
func SessionScript(sessionID string, seed uint64, nodes int, opt Options, set string) ([]ops.Op, int) {
	script := []ops.Op{ops.Session{ID: sessionID}}
	if step, err := ops.Step(set); err == nil && step > 0 {
		script = append(script, ops.Flag{Set: ops.RolloutPath[step]})
	}
	g := New(opt)
	return append(script, g.ScriptNodes(NewSeeded(seed), nodes)...), g.Nodes()
}

// writers is how many writers may write now: those of the rollout's phase,
// else Options.Writers.
func (g *Gen) writers() int {
	if g.opt.Rollout != nil {
		return len(g.opt.Rollout.Phases[g.phase].Steps)
	}
	return g.opt.Writers
}

// enterPhase is the op that starts the rollout's next phase when the ops
// drawn so far reach it (nil otherwise, or when nothing changes): the
// writer performing the ops takes its step in the phase, or, when the phase
// has no place for it, its first writer takes over.
func (g *Gen) enterPhase() ops.Op {
	r := g.opt.Rollout
	if r == nil {
		return nil
	}
	k := r.phaseAt(g.drawn)
	if k == g.phase && g.drawn > 0 {
		return nil
	}
	g.phase = k
	steps, i := r.Phases[k].Steps, writerIndex(g.st.name)
	if i >= len(steps) {
		i = 0
	} else if steps[i] == g.st.step {
		return nil
	}
	return ops.Writer{Name: writerName(i), Set: ops.RolloutPath[steps[i]]}
}

// writerName is the generator's name for its writer i (0: ops.FirstWriter).
func writerName(i int) string { return fmt.Sprintf("w%d", i+1) }

// writerIndex is i for writerName(i).
func writerIndex(name string) int {
	var i int
	fmt.Sscanf(name, "w%d", &i)
	return i - 1
}
