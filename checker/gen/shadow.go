package gen

import (
	"fmt"

	"sessiondag/ops"
)

// shadow is the little the generator must know of a session to draw only
// valid ops: what is in progress, which ids exist, where the heads are.
// Every list is in creation order, never map order.
type shadow struct {
	swriter             // the writer performing the ops now
	parked    []swriter // the other writers named so far
	counter   uint64
	root      bool
	head      string            // the store's in-memory head
	persisted string            // meta.json's head_id
	nodes     []string          // every node id, in write order
	retryable []string          // user rows and chat replies
	userOf    map[string]string // chat reply → its user
	isUser    map[string]bool
	isAsk     map[string]bool     // ask rows, a function's or a script's
	asst      map[string][]string // parent_id → assistant messages under it
	rewound   map[string]bool
	written   map[string]bool
	manuals   map[string]bool
	parentOf  map[string]string
	nodeCount int
	turns     int
	manualRun int // consecutive manual runs since the last chat turn
	chatDone  bool
	// Root forks whose turn ended without an answer (forks.go).
	unansweredForks []string
	asyncCmds       []string        // async /task command rows whose follow-up turn has not come
	finished        map[string]bool // replies whose extra records their calls (done, cancel)
	stopped         bool            // the server's cancel flag: a stop sets it; a manual run's end, an async task or a crash clears it
	tally           *Tally

	// Ids minted for rows that name them before they are written, oldest
	// first (later.go), and the shapes each one's write completes.
	laterUsers, laterRuns []string
	awaited               map[string][]string
	orphanCaller          map[string]string // an orphan → the caller it names
	// What the load caches about a row (columns, folded copies, card
	// trees), for the rewinds that must refresh it, and the rows of each
	// kind in creation order.
	toolsOf                        map[string]int    // reply → its tool rows, tasks and functions
	callOf                         map[string]bool   // a row folded into a reply
	foldOf                         map[string]string // a call → the reply a load folds it into
	attach                         map[string]bool
	kids                           map[string]int // function run → its internals
	calls, callers, attaches, runs []string
	rewoundKind                    [cachedKinds]bool // a row of the kind was rewound
	pinned                         map[string]bool   // ids a drop must leave (drop.go)
	msgAttaches                    []string          // attach pointers handed over as message dicts
}

// swriter is what one writer keeps beside the store: its browser's head, its
// turn in progress and its flags.
type swriter struct {
	name           string
	client         string // the browser's head ("" = none)
	made           bool   // the server has made its conversation (R's _sessions entry)
	pending        string
	source         string
	reply          string
	frames         []*sframe
	lastLegacyTool bool
	step           int    // its flags: a position on the rollout path
	forkPending    string // the pending turn, when it is a root fork (forks.go)
	// Whether the open reply is a web turn's that started with the
	// session's cancel flag set (shadow.stopped): no tool call of it
	// applies (ops/README.md, cancel).
	aborted bool
	sub     *ssub // the pending turn is a spawn or task turn's sub-agent turn
}

// ssub is a spawn or task turn in progress: what its done writes, and for
// a task turn the writer's turn whose reply waits on it.
type ssub struct {
	cmd, attach, anchor string // a spawn's command row; the attach pointer and the row it follows
	call                string // a task turn's call ("" for a spawn)
	followup            string // an async spawn's follow-up turn (its attach pointer written first)
	outer               swriter
}

// Busy reports whether the writer has a turn, reply or run in progress.
func (w *swriter) Busy() bool { return w.pending != "" || w.reply != "" || len(w.frames) > 0 }

// setHead is the writers' set_head: the in-memory head moves and meta.json
// is written.
func (s *shadow) setHead(id string) { s.head, s.persisted = id, id }

// writeMeta persists the in-memory head.
func (s *shadow) writeMeta() { s.persisted = s.head }

// ClientHead, InMemoryHead and Rooted are the writer state the intent rule
// reads (ops.WriterState).
func (s *shadow) ClientHead() (string, bool) {
	if !s.made {
		return s.head, s.head != ""
	}
	return s.client, s.client != ""
}

// inDispatch: the pending turn is a dispatcher's (neither the web chat's nor
// a sub-agent's), where R's task tool runs no sub-agent.
func (s *shadow) inDispatch() bool { return s.source != "web" && s.source != "agent_spawn" }

// setClient moves the browser's head (the server's conversation is made).
func (s *shadow) setClient(id string) { s.client, s.made = id, true }

// conversation is the server making its conversation of the session when a
// web op first needs it, from the store's head (model: LegacyRun.conversation).
func (s *shadow) conversation() {
	if !s.made {
		s.setClient(s.head)
	}
}

// InMemoryHead is the store's in-memory head.
func (s *shadow) InMemoryHead() string { return s.head }

// ShownHead is the in-memory head as a load shows it: a call stands for the
// reply it folds into.
func (s *shadow) ShownHead() string {
	if r, ok := s.foldOf[s.head]; ok {
		return r
	}
	return s.head
}

// Rooted reports whether ROOT is stored.
func (s *shadow) Rooted() bool { return s.root }

// Rewound reports whether the node id was rewound.
func (s *shadow) Rewound(id string) bool { return s.rewound[id] }

// CallerPending reports whether the node id is an orphan whose caller is
// not written yet.
func (s *shadow) CallerPending(id string) bool {
	c := s.orphanCaller[id]
	return c != "" && !s.written[c]
}

type sframe struct {
	id       string
	name     string
	lastExec string
	manual   bool
	run      bool // a script run in a session context
}

// maxNesting is R's recursion guard (ops/README.md, fn): a function called
// while as many runs of its name are open is refused.
const maxNesting = 5

// callable is the function names a call from the innermost open run may
// take: fnNames itself (the same draws) unless a name reached maxNesting.
func (s *shadow) callable() []string {
	runs := map[string]int{}
	full := false
	for _, f := range s.frames {
		runs[f.name]++
		full = full || runs[f.name] >= maxNesting
	}
	if !full {
		return fnNames
	}
	var names []string
	for _, n := range fnNames {
		if runs[n] < maxNesting {
			names = append(names, n)
		}
	}
	return names
}

// addKid counts an internal written inside the innermost open function.
func (s *shadow) addKid() {
	if len(s.frames) > 0 {
		s.runs = cache(s.kids, s.runs, s.frames[len(s.frames)-1].id)
		if s.frames[0].run {
			s.tally.Shape(ShapeScriptRun)
		}
	}
}

// addCall counts a row written from the open reply: it is folded into it.
func (s *shadow) addCall(id string) {
	s.callOf[id] = true
	if s.reply != "" {
		s.foldOf[id] = s.reply
	}
	s.calls = append(s.calls, id)
	s.callers = cache(s.toolsOf, s.callers, s.reply)
}

// addAttach records an attach row.
func (s *shadow) addAttach(id string) {
	s.attach[id] = true
	s.attaches = append(s.attaches, id)
}

// cache counts one more for id in m, adding id to list the first time.
func cache(m map[string]int, list []string, id string) []string {
	if m[id] == 0 {
		list = append(list, id)
	}
	m[id]++
	return list
}

func newShadow(step int, t *Tally) shadow {
	return shadow{tally: t, swriter: swriter{name: ops.FirstWriter, step: step},
		userOf: map[string]string{}, isUser: map[string]bool{}, isAsk: map[string]bool{}, asst: map[string][]string{},
		rewound: map[string]bool{}, manuals: map[string]bool{}, written: map[string]bool{},
		parentOf: map[string]string{}, awaited: map[string][]string{}, orphanCaller: map[string]string{}, pinned: map[string]bool{},
		toolsOf: map[string]int{}, callOf: map[string]bool{}, foldOf: map[string]string{}, attach: map[string]bool{}, kids: map[string]int{},
		finished: map[string]bool{},
	}
}

// id8 and id12 mint unique hex ids in the original's formats: multiplying
// a counter by an odd constant is a bijection modulo 2^k, so ids never repeat.
func (s *shadow) id8() string {
	s.counter++
	return fmt.Sprintf("%08x", (s.counter*0x9E3779B1)&0xffffffff)
}

func (s *shadow) id12() string {
	s.counter++
	return fmt.Sprintf("%012x", (s.counter*0x9E3779B97F4A7C15)&0xffffffffffff)
}

func (s *shadow) id10() string {
	s.counter++
	return fmt.Sprintf("%010x", (s.counter*0x9E3779B97F4A7C15)&0xffffffffff)
}

func (s *shadow) callID() string {
	s.counter++
	return fmt.Sprintf("toolu_%06x", (s.counter*0x9E3779B1)&0xffffff)
}

func (s *shadow) write(id string, callerless bool) {
	s.written[id] = true
	s.nodes = append(s.nodes, id)
	s.nodeCount++
	s.arrived(id)
	if callerless {
		s.head = id
	}
}

func (s *shadow) ensureRoot() {
	if !s.root {
		s.root = true
		s.nodeCount++
		s.head = "ROOT"
	}
}

// apply advances the shadow over op (which the generator drew valid) and
// counts it in the tally.
func (g *Gen) apply(op ops.Op) ops.Op {
	g.Tally.Op(op.Kind())
	kept := g.intent.Keeps(op, &g.st)
	if g.opt.SyncedBrowser && !kept {
		panic(fmt.Sprintf("gen: drew %s, which loses the intent (ops.Intent), under SyncedBrowser", ops.Format(op)))
	}
	if err := op.Apply(&g.st); err != nil {
		panic(fmt.Sprintf("gen: the shadow refuses %s: %v", ops.Format(op), err))
	}
	g.intent.Track(op, kept, &g.st)
	g.st.pin(op)
	g.next = ""
	for _, p := range g.opt.Together {
		if p[0] == op.Kind() {
			g.next = p[1]
		}
	}
	return op
}

func (s *shadow) startTurn(id, parent, source string) {
	s.write(id, false)
	s.isUser[id] = true
	s.retryable = append(s.retryable, id)
	s.parentOf[id] = parent
	s.pending, s.source = id, source
	s.manualRun = 0
	s.forkStarted(id, parent, source)
}

func (s *shadow) endTurn() {
	s.forkEnded(s.reply != "")
	if s.pending != "" {
		s.turns++
		s.chatDone = true
	}
	s.pending, s.reply, s.source = "", "", ""
	s.lastLegacyTool, s.aborted, s.sub = false, false, nil
}

// compactable reports whether a compaction at the head writes, keeping one
// or two rows: the head is a chat reply whose user continues another chat
// reply, so get_branch there holds at least four rows, the last two the
// user and the reply (ops/README.md: compact).
func (s *shadow) compactable() bool {
	r := s.head
	u := s.userOf[r]
	p := s.parentOf[u]
	pu := s.userOf[p]
	// Four distinct rows: a user whose recorded parent was a later id (an
	// adapter row naming it) can close a parent_id cycle through its own
	// reply, and get_branch stops at the repeat.
	distinct := p != r && pu != u
	return u != "" && pu != "" && distinct && !s.rewound[r] && !s.rewound[u] && !s.rewound[p] && !s.rewound[pu]
}

// isManual reports whether id is a manual (ROOT-called) function run.
func (s *shadow) isManual(id string) bool { return s.manuals[id] }

// hasAssistant reports whether a visible assistant message has parent_id u
// (the retry rule of legacy §3.8).
func (s *shadow) hasAssistant(u string) bool {
	for _, a := range s.asst[u] {
		if !s.rewound[a] {
			return true
		}
	}
	return false
}

// retryTarget picks a row a retry or edit may name: a user row or chat
// reply that is visible, whose user is visible, and whose rerun would not
// rewrite a rewound reply. It tries a few random picks among the candidates
// (the list only grows, so filtering it whole per op would be quadratic) and
// reports false when none fits.
func (s *shadow) retryTarget(src Source) (string, bool) {
	if fork, ok := s.waitingFork(src); ok && !s.rewound[fork] {
		return fork, true
	}
	for try := 0; try < 8; try++ {
		id := s.retryable[src.IntN(len(s.retryable), "retry of")]
		u := id
		if !s.isUser[u] {
			u = s.userOf[id]
		}
		if !s.rewound[id] && !s.rewound[u] && (s.hasAssistant(u) || !s.written[u+"_reply"]) {
			return id, true
		}
	}
	return "", false
}
