package gen

// How each op moves the shadow, one method per op kind (the shadow is an
// ops.Interpreter), and which shapes of legacy §5/§6 it completes.

import (
	"fmt"
	"slices"

	"sessiondag/ops"
)

var _ ops.Interpreter = (*shadow)(nil)

func (s *shadow) Session(ops.Session) error { return nil }

func (s *shadow) UserWeb(o ops.UserWeb) error {
	s.text(o.Text)
	switch o.Form {
	case "image":
		s.tally.Shape(ShapeImage)
	case "function":
		s.tally.Shape(ShapeFunctionForm)
	}
	s.conversation()
	s.ensureRoot()
	if s.client == "" && s.turns > 0 {
		s.tally.Shape(ShapeRootUsers)
	}
	if s.client != "" && s.isManual(s.client) {
		s.tally.Shape(ShapeUserAfterManual)
	}
	s.startTurn(o.ID, s.client, "web")
	s.setHead(o.ID)
	s.setClient(o.ID)
	return nil
}

func (s *shadow) UserDispatch(o ops.UserDispatch) error {
	s.text(o.Text)
	s.ensureRoot()
	parent := o.Parent
	if parent != "none" {
		s.await(parent, ShapeAdapterLater)
		s.answered(parent, ShapeForkAnsweredByChild)
	}
	if parent == "none" {
		parent = ""
		if s.turns > 0 && o.Rooted {
			s.tally.Shape(ShapeRootUsers)
		}
	}
	s.dispatched(o.ID, parent, o.Parent == "none", o.Rooted)
	switch o.Source {
	case "task_followup":
		s.tally.Shape(ShapeFollowup)
		if i := slices.Index(s.asyncCmds, o.Parent); i >= 0 {
			s.asyncCmds = slices.Delete(s.asyncCmds, i, i+1)
		}
	case "merge_turn":
		s.tally.Shape(ShapeMerge)
	}
	return nil
}

// dispatched starts a dispatcher turn: R's row is caller-less and takes the
// head; a rooted one (older writers) leaves it.
func (s *shadow) dispatched(id, parent string, fork, rooted bool) {
	s.startTurn(id, parent, "cli")
	switch {
	case rooted:
		s.tally.Shape(ShapeRootedDispatch)
	default:
		s.setHead(id)
		s.tally.Shape(ShapeCallerlessDispatch)
		if fork {
			s.tally.Shape(ShapeNullFork)
		}
	}
}

func (s *shadow) ForkRoot(o ops.ForkRoot) error {
	s.text(o.Text)
	s.ensureRoot()
	if s.turns > 0 && o.Rooted {
		s.tally.Shape(ShapeRootUsers)
	}
	s.dispatched(o.ID, "", true, o.Rooted)
	return nil
}

func (s *shadow) Merge(o ops.Merge) error {
	s.conversation()
	s.ensureRoot()
	s.write(o.Cmd, false)
	s.isUser[o.Cmd] = true
	s.retryable = append(s.retryable, o.Cmd)
	s.parentOf[o.Cmd] = s.client
	s.setHead(o.Cmd)
	s.setClient(o.Cmd)
	return s.UserDispatch(ops.UserDispatch{ID: o.ID, Text: o.Text, Parent: o.Cmd, Source: "merge_turn"})
}

func (s *shadow) Reply(ops.Reply) error {
	id := s.pending + "_reply"
	s.ensureRoot() // R's process_user_turn, before the reply (a rerun of an older writer's row)
	s.write(id, false)
	s.asst[s.pending] = append(s.asst[s.pending], id)
	s.userOf[id] = s.pending
	s.retryable = append(s.retryable, id)
	s.parentOf[id] = s.pending
	s.reply = id
	s.setHead(id)
	s.aborted = s.source == "web" && s.stopped
	return nil
}

func (s *shadow) Think(ops.Think) error { return nil }
func (s *shadow) Say(o ops.Say) error   { s.text(o.Text); return nil }

func (s *shadow) Tool(o ops.Tool) error {
	if s.reply == "" && s.sub != nil && s.sub.call != "" { // a call the waiting reply ran alongside its task
		s.reply = s.sub.outer.reply
		defer func() { s.reply = "" }()
		s.tally.Shape(ShapeParallelCall)
	}
	id := s.reply + "_t_" + o.CallID
	s.write(id, o.Legacy)
	if o.Object {
		s.tally.Shape(ShapeToolObject)
	} else {
		s.tally.Shape(ShapeToolText)
	}
	s.addCall(id)
	if o.Legacy {
		delete(s.foldOf, id) // its edge is in metadata: the load's climb stops on it
	}
	s.lastLegacyTool = o.Legacy
	s.numbers(o.Args)
	return nil
}

// numbers counts the number shapes of a JSON text the op writes.
func (s *shadow) numbers(text string) {
	for _, shape := range numberShapes(text) {
		s.tally.Shape(shape)
	}
}

func (s *shadow) Task(o ops.Task) error {
	if o.Turn { // the reply waits while the sub-agent's turn runs
		s.sub = &ssub{attach: o.Attach, anchor: s.reply, call: o.CallID, outer: s.swriter}
		s.write(o.ID, true)
		s.setHead(o.ID)
		s.pending, s.source, s.reply, s.aborted, s.lastLegacyTool = o.ID, "agent_spawn", "", false, false
		s.tally.Shape(ShapeSubAgent)
		s.tally.Shape(ShapeTaskTurn)
		return nil
	}
	if o.Async {
		s.stopped = false
	}
	if o.Followup != "" {
		s.taskRunner(o)
		return nil
	}
	s.write(o.ID, false)
	s.write(o.ID+"_reply", false)
	s.write(o.Attach, false)
	s.write(s.reply+"_t_"+o.CallID, false)
	s.addCall(s.reply + "_t_" + o.CallID)
	s.addAttach(o.Attach)
	s.asst[o.ID] = append(s.asst[o.ID], o.ID+"_reply")
	s.setHead(o.ID + "_reply")
	s.tally.Shape(ShapeSubAgent)
	if !o.Rooted {
		s.tally.Shape(ShapeCallerlessSub)
	}
	return nil
}

// taskRunner is R's task runner (ops/README.md: task … async): the tool
// row, the sub-agent's turn under the reply, then the follow-up turn under
// the reply, answered at once, while the reply stays open.
func (s *shadow) taskRunner(o ops.Task) {
	reply := s.reply
	s.write(reply+"_t_"+o.CallID, false)
	s.addCall(reply + "_t_" + o.CallID)
	s.write(o.ID, false)
	s.write(o.ID+"_reply", false)
	s.asst[o.ID] = append(s.asst[o.ID], o.ID+"_reply")
	s.tally.Shape(ShapeSubAgent)
	s.tally.Shape(ShapeCallerlessSub)
	s.tally.Shape(ShapeTaskRunner)
	outer := s.swriter
	s.setHead(reply)
	_ = s.UserDispatch(ops.UserDispatch{ID: o.Followup, Source: "task_followup"})
	_ = s.Reply(ops.Reply{})
	_ = s.finish()
	s.swriter = outer
}

func (s *shadow) Done(ops.Done) error { return s.finish() }
func (s *shadow) Cancel(ops.Cancel) error {
	s.stopped = true
	return s.finish()
}

func (s *shadow) finish() error {
	s.finishedCalls()
	s.finished[s.reply] = true
	s.setHead(s.reply)
	if s.source == "web" {
		s.setClient(s.reply)
	}
	sub, reply := s.sub, s.reply
	s.endTurn()
	if sub != nil {
		s.subDone(sub, reply)
	}
	return nil
}

// subDone is what a spawn or task turn's done writes after the sub-agent's
// reply (ops/README.md): the attach pointer, then the head on the command
// row (spawn), or the waiting reply open again, the head on the sub-agent's
// reply and the task's tool row (task).
func (s *shadow) subDone(sub *ssub, reply string) {
	if sub.followup != "" { // R's task runner: the card finished, then the follow-up turn under the command row
		s.setHead(sub.cmd)
		_ = s.UserDispatch(ops.UserDispatch{ID: sub.followup, Source: "task_followup"})
		s.tally.Shape(ShapeAsyncTurn)
		return
	}
	s.addAttach(sub.attach)
	s.asst[sub.anchor] = append(s.asst[sub.anchor], sub.attach)
	if sub.call == "" {
		s.write(sub.attach, false)
		s.setHead(sub.cmd)
		return
	}
	name, step := s.name, s.step
	s.swriter = sub.outer
	s.name, s.step, s.lastLegacyTool = name, step, false
	s.write(sub.attach, true)
	s.setHead(reply)
	id := s.reply + "_t_" + sub.call
	s.write(id, false)
	s.addCall(id)
}

// finishedCalls counts a reply updated after the loads that followed its
// tool rows cached them folded into its earlier version.
func (s *shadow) finishedCalls() {
	if s.toolsOf[s.reply] > 0 {
		s.tally.Shape(ShapeFinishAfterCalls)
	}
}

func (s *shadow) ErrorFolded(ops.ErrorFolded) error {
	s.finishedCalls()
	s.setHead(s.reply)
	if s.source == "web" { // R's web action ends saving its conversation's head
		if ch, ok := s.ClientHead(); ok {
			s.setHead(ch)
		} else {
			s.writeMeta()
		}
	}
	s.tally.Shape(ShapeError)
	s.endTurn()
	return nil
}

func (s *shadow) ErrorStandalone(o ops.ErrorStandalone) error {
	if s.forkPending != "" {
		s.tally.Shape(ShapeForkAnsweredByError)
		s.forkPending = "" // the error row answers it
	}
	s.write(o.ID, true)
	s.writeMeta()
	s.tally.Shape(ShapeError)
	s.endTurn()
	return nil
}

func (s *shadow) Crash(ops.Crash) error {
	if s.lastLegacyTool && len(s.frames) == 0 && s.reply != "" {
		s.tally.Shape(ShapeCrashOnTool)
	}
	s.frames = nil
	s.writeMeta()
	s.endTurn()
	s.made = false // the server's conversations die with it
	s.stopped = false
	return nil
}

func (s *shadow) Fn(o ops.Fn) error {
	s.write(o.ID, false)
	if len(s.frames) == 0 {
		s.addCall(o.ID)
	} else {
		s.addKid()
	}
	s.numbers(o.Args)
	s.frames = append(s.frames, &sframe{id: o.ID, name: o.Name})
	if len(s.frames) >= 3 {
		s.tally.Shape(ShapeNested3)
	}
	return nil
}

func (s *shadow) Manual(o ops.Manual) error {
	s.conversation()
	s.ensureRoot()
	s.writeMeta() // the fn-form route's title update
	if s.turns == 0 {
		s.tally.Shape(ShapeManualFirst)
	}
	s.manualRun++
	if s.manualRun >= 2 {
		s.tally.Shape(ShapeManualRow)
	}
	s.write(o.ID, false)
	s.numbers(o.Args)
	s.manuals[o.ID] = true
	s.frames = append(s.frames, &sframe{id: o.ID, name: o.Name, manual: true})
	return nil
}

func (s *shadow) Run(o ops.Run) error {
	s.write(o.ID, true)
	s.numbers(o.Args)
	s.frames = append(s.frames, &sframe{id: o.ID, name: o.Name, run: true})
	return nil
}

func (s *shadow) Exec(o ops.Exec) error {
	s.write(o.ID, false)
	s.addKid()
	s.frames[len(s.frames)-1].lastExec = o.ID
	return nil
}

func (s *shadow) Ask(o ops.Ask) error {
	s.write(o.ID, false)
	s.addKid()
	// A retry or edit may name an ask row once its run has ended (the
	// server reruns any message; a legacy reply to it is one way there).
	s.isUser[o.ID], s.isAsk[o.ID] = true, true
	s.retryable = append(s.retryable, o.ID)
	s.parentOf[o.ID] = s.frames[len(s.frames)-1].id
	return nil
}

func (s *shadow) End(o ops.End) error {
	f := s.frames[len(s.frames)-1]
	s.frames = s.frames[:len(s.frames)-1]
	if s.kids[f.id] > 0 {
		s.tally.Shape(ShapeEndAfterKids)
	}
	if o.Duration != "" {
		s.tally.Shape(ShapeRealDuration)
	}
	s.numbers(o.Output)
	if f.manual {
		s.stopped = false
	}
	if f.manual && o.Error == "" { // R13: a run that raised leaves the head
		s.setHead(f.id)
		if s.chatDone {
			s.tally.Shape(ShapeHeadOnManual)
		}
	}
	return nil
}

func (s *shadow) Retry(o ops.Retry) error { return s.rerun(o.Of, o.ID, false) }
func (s *shadow) Edit(o ops.Edit) error   { s.text(o.Text); return s.rerun(o.Of, o.ID, true) }

// rerun is retry and edit: a new user row beside the turn's user, or (a
// retry of a turn with no reply) the head moved back to that user.
func (s *shadow) rerun(of, id string, edit bool) error {
	u := of
	if !s.isUser[u] {
		u = s.userOf[of]
	}
	s.answered(u, ShapeForkAnsweredByRerun)
	if s.isAsk[u] {
		s.tally.Shape(ShapeAskRerun)
		if _, inRun := s.parentOf[u]; inRun { // a script's top-level ask has no frame
			s.tally.Shape(ShapeRunAskRerun)
		}
	}
	if len(s.retryable) > 0 && s.retryable[0] == u {
		s.tally.Shape(ShapeRetryFirst)
	}
	if !edit && !s.hasAssistant(u) {
		// No row: the head moves to u as a checkout moves it.
		s.setHead(u)
		s.setClient(u)
		s.pending, s.source = u, "web"
		return nil
	}
	s.write(id, true)
	s.isUser[id] = true
	s.retryable = append(s.retryable, id)
	s.parentOf[id] = s.parentOf[u]
	s.setHead(id)
	s.setClient(id)
	s.pending, s.source = id, "web"
	s.tally.Shape(ShapeRetry)
	return nil
}

func (s *shadow) Checkout(o ops.Checkout) error {
	s.setHead(o.ID)
	if s.made { // R's checkout makes no conversation: the next web op does, from the store's head
		s.setClient(o.ID)
	}
	return nil
}

func (s *shadow) Reload(ops.Reload) error {
	switch {
	case s.nodeCount == 0: // a load makes the conversation only of a stored session
	case s.head != "":
		s.setClient(s.ShownHead())
	case !s.made || s.client == "":
		// No head (every row has a caller): the load's head_or_tip, the
		// last message it shows.
		s.setClient(s.lastShown())
	}
	if s.isManual(s.head) {
		s.tally.Shape(ShapeReloadAfterManual)
	}
	return nil
}

// lastShown is the last row written that a load shows as a message, while
// no row moved the head: rows with a caller, none rewound ("" for none).
func (s *shadow) lastShown() string {
	for i := len(s.nodes) - 1; i >= 0; i-- {
		if !s.rewound[s.nodes[i]] {
			return s.nodes[i]
		}
	}
	return ""
}

func (s *shadow) Spawn(o ops.Spawn) error {
	if o.Mode == "async" {
		s.stopped = false
	}
	s.conversation()
	s.ensureRoot()
	s.write(o.Cmd, false)
	s.isUser[o.Cmd] = true
	s.retryable = append(s.retryable, o.Cmd)
	anchor := o.Cmd
	if s.client != "" {
		anchor = s.client
	}
	s.parentOf[o.Cmd] = s.client
	s.setClient(o.Cmd)
	if o.Turn && o.Mode == "async" { // the attach pointer first, running; the head back on the command row
		s.write(o.Attach, false)
		s.addAttach(o.Attach)
		s.asst[anchor] = append(s.asst[anchor], o.Attach)
		s.setHead(o.Cmd)
		s.tally.Shape(ShapeAsyncTask)
	}
	if o.Turn { // the sub-agent's turn goes on in the ops that follow
		s.write(o.ID, true)
		s.setHead(o.ID)
		s.pending, s.source = o.ID, "agent_spawn"
		s.sub = &ssub{cmd: o.Cmd, attach: o.Attach, anchor: anchor, followup: o.Followup}
		s.tally.Shape(ShapeSubAgent)
		s.tally.Shape(ShapeSpawnTurn)
		if o.Mode == "clean" {
			s.tally.Shape(ShapeCleanSpawn)
		}
		s.tally.Shape(ShapeCallerlessSub)
		return nil
	}
	s.write(o.ID, false)
	s.write(o.ID+"_reply", false)
	s.write(o.Attach, false)
	s.addAttach(o.Attach)
	s.asst[o.ID] = append(s.asst[o.ID], o.ID+"_reply")
	s.asst[anchor] = append(s.asst[anchor], o.Attach)
	s.setHead(o.ID + "_reply")
	if !o.Rooted && o.Mode != "async" {
		s.setHead(o.Cmd) // R's _run_spawn sets the head back on the command row
	}
	s.tally.Shape(ShapeSubAgent)
	switch {
	case o.Mode == "clean":
		s.tally.Shape(ShapeCleanSpawn)
	case o.Mode == "async" && !o.Rooted:
		// R's runner: the follow-up turn under the command row, answered
		// at once as the sub-agent was
		s.tally.Shape(ShapeAsyncTask)
		s.setHead(o.Cmd)
		_ = s.UserDispatch(ops.UserDispatch{ID: o.Followup, Source: "task_followup"})
		_ = s.Reply(ops.Reply{})
		_ = s.finish()
	case o.Mode == "async":
		s.tally.Shape(ShapeAsyncTask)
		s.asyncCmds = append(s.asyncCmds, o.Cmd)
	}
	if !o.Rooted {
		s.tally.Shape(ShapeCallerlessSub)
	}
	return nil
}

func (s *shadow) Script(o ops.Script) error {
	s.write(o.ID, true) // a script writes no meta (R's session_context)
	s.tally.Shape(ShapeScript)
	if o.What == "ask" {
		s.tally.Shape(ShapeTopAsk)
		s.isUser[o.ID], s.isAsk[o.ID] = true, true
		s.retryable = append(s.retryable, o.ID)
	}
	return nil
}

func (s *shadow) LegacyUser(o ops.LegacyUser) error {
	s.text(o.Text)
	if o.Parent != "null" {
		s.await(o.Parent, ShapeAdapterLater)
		s.answered(o.Parent, ShapeForkAnsweredByChild)
	}
	s.write(o.ID, true)
	s.writeMeta()
	s.isUser[o.ID] = true
	s.retryable = append(s.retryable, o.ID)
	s.parentOf[o.ID] = o.Parent
	s.tally.Shape(ShapeLegacy)
	return nil
}

func (s *shadow) LegacyReply(o ops.LegacyReply) error {
	s.await(o.Parent, ShapeAdapterLater)
	s.answered(o.Parent, ShapeForkAnsweredByChild)
	s.write(o.ID, true)
	s.writeMeta()
	s.asst[o.Parent] = append(s.asst[o.Parent], o.ID)
	s.tally.Shape(ShapeLegacy)
	if o.Blocks {
		s.tally.Shape(ShapeOwnCalls)
	}
	return nil
}

// Compact writes the summary and the copies of the head's reply (keep=1)
// or of its user and it (keep=2), which the generator draws only where the
// writers compact (shadow.compactable); the head ends on the last copy.
func (s *shadow) Compact(o ops.Compact) error {
	r := s.head
	kept := []string{r}
	if o.Keep == "2" {
		kept = []string{s.userOf[r], r}
	}
	s.write(o.ID, true)
	copies := o.CopyIDs()
	if len(copies) != len(kept) {
		return fmt.Errorf("compact keep=%s names %d copies", o.Keep, len(copies))
	}
	for i, orig := range kept {
		s.write(copies[i], s.isUser[orig])
		if s.finished[orig] {
			s.tally.Shape(ShapeOwnCalls)
		}
	}
	s.setHead(copies[len(copies)-1])
	s.tally.Shape(ShapeCompaction)
	return nil
}

func (s *shadow) Orphan(o ops.Orphan) error {
	s.await(o.Caller, ShapeCallerLater)
	if o.Caller != "" {
		s.orphanCaller[o.ID] = o.Caller
	}
	s.write(o.ID, o.Caller == "")
	s.writeMeta()
	s.tally.Shape(ShapeOrphan)
	return nil
}

func (s *shadow) Rewind(o ops.Rewind) error {
	s.rewound[o.ID] = true
	s.tally.Shape(ShapeRewind)
	// What the loads so far cached of the row, which the update replaces.
	for k, is := range s.cachedKindsOf(o.ID) {
		if is {
			s.rewoundKind[k] = true
			s.tally.Shape(cachedShapes[k])
		}
	}
	return nil
}

func (s *shadow) Flag(o ops.Flag) error {
	step, err := o.Step()
	if err != nil {
		return err
	}
	s.flags(step)
	return nil
}

// flags counts what a change of the flags in force to step is: a step
// forward, or one rolled back.
func (s *shadow) flags(step int) {
	switch {
	case step > s.step:
		s.tally.Shape(ShapeFlagFlip)
	case step < s.step:
		s.tally.Shape(ShapeRollback)
	}
	s.step = step
}

// Writer parks the writer performing the ops now and makes the named one
// perform the next; it takes over at the persisted head.
func (s *shadow) Writer(o ops.Writer) error {
	step, err := o.Step()
	if err != nil {
		return err
	}
	if o.Name != s.name {
		next := swriter{name: o.Name, step: s.step}
		i := slices.IndexFunc(s.parked, func(w swriter) bool { return w.name == o.Name })
		if i >= 0 {
			next = s.parked[i]
			s.parked[i] = s.swriter
		} else {
			s.parked = append(s.parked, s.swriter)
		}
		if s.Busy() || next.Busy() {
			s.tally.Shape(ShapeWritersInterleave)
		}
		s.swriter = next
		s.head = s.persisted
		s.tally.Shape(ShapeWriters)
	}
	s.flags(step)
	return nil
}

func (s *shadow) Clock(ops.Clock) error {
	s.tally.Shape(ShapeClock)
	return nil
}
