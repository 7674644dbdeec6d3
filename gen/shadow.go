package gen

import (
	"fmt"
	"strings"

	"sessiondag/ops"
)

// shadow is the little the generator must know of a session to draw only
// valid ops: what is in progress, which ids exist, where the heads are.
// Every list is in creation order, never map order.
type shadow struct {
	counter        uint64
	root           bool
	head           string // the store's in-memory head
	client         string // the browser's head ("" = none)
	pending        string
	source         string
	reply          string
	frames         []*sframe
	nodes          []string          // every node id, in write order
	retryable      []string          // user rows and chat replies
	userOf         map[string]string // chat reply → its user
	isUser         map[string]bool
	asst           map[string][]string // parent_id → assistant messages under it
	rewound        map[string]bool
	written        map[string]bool
	manuals        map[string]bool
	parentOf       map[string]string
	step           int // position on the rollout path (for flag flips)
	nodeCount      int
	turns          int
	manualRun      int // consecutive manual runs since the last chat turn
	chatDone       bool
	lastTool       string
	lastLegacyTool bool
	unrecordedHead bool // a checkout or a retry without a row moved the head; no row records it yet
}

type sframe struct {
	id       string
	lastExec string
	manual   bool
}

func newShadow(step int) shadow {
	return shadow{
		userOf: map[string]string{}, isUser: map[string]bool{}, asst: map[string][]string{},
		rewound: map[string]bool{}, manuals: map[string]bool{}, written: map[string]bool{},
		parentOf: map[string]string{}, step: step,
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

func (s *shadow) callID() string {
	s.counter++
	return fmt.Sprintf("toolu_%06x", (s.counter*0x9E3779B1)&0xffffff)
}

func (s *shadow) write(id string, callerless bool) {
	s.written[id] = true
	s.nodes = append(s.nodes, id)
	s.nodeCount++
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
	s := &g.st
	t := g.Tally
	t.Op(op.Kind())
	switch o := op.(type) {
	case ops.UserWeb:
		s.ensureRoot()
		if s.client == "" && s.turns > 0 {
			t.Shape(ShapeRootUsers)
		}
		if s.client != "" && s.isManual(s.client) {
			t.Shape(ShapeUserAfterManual)
		}
		s.startTurn(o.ID, s.client, "web")
		s.head = o.ID
		s.client = o.ID
	case ops.UserDispatch:
		s.ensureRoot()
		parent := o.Parent
		if parent == "none" {
			parent = ""
			if s.turns > 0 {
				t.Shape(ShapeRootUsers)
			}
		}
		s.startTurn(o.ID, parent, "cli")
	case ops.ForkRoot:
		s.ensureRoot()
		if s.turns > 0 {
			t.Shape(ShapeRootUsers)
		}
		s.startTurn(o.ID, "", "cli")
	case ops.Reply:
		id := s.pending + "_reply"
		s.write(id, false)
		s.asst[s.pending] = append(s.asst[s.pending], id)
		s.userOf[id] = s.pending
		s.retryable = append(s.retryable, id)
		s.parentOf[id] = s.pending
		s.reply, s.head = id, id
		s.unrecordedHead = false // the reply records its turn
	case ops.Tool:
		id := s.reply + "_t_" + o.CallID
		s.write(id, o.Legacy)
		s.lastLegacyTool = o.Legacy
	case ops.Done, ops.Cancel:
		s.head = s.reply
		if s.source == "web" {
			s.client = s.reply
		}
		s.endTurn()
	case ops.ErrorFolded:
		s.head = s.reply
		t.Shape(ShapeError)
		s.endTurn()
	case ops.ErrorStandalone:
		s.write(o.ID, true)
		s.unrecordedHead = false // the error row records its turn
		t.Shape(ShapeError)
		s.endTurn()
	case ops.Crash:
		if s.lastLegacyTool && len(s.frames) == 0 && s.reply != "" {
			t.Shape(ShapeCrashOnTool)
		}
		s.frames = nil
		s.endTurn()
	case ops.Fn:
		s.write(o.ID, false)
		s.frames = append(s.frames, &sframe{id: o.ID})
		if len(s.frames) >= 3 {
			t.Shape(ShapeNested3)
		}
	case ops.Manual:
		s.ensureRoot()
		if s.turns == 0 {
			t.Shape(ShapeManualFirst)
		}
		s.manualRun++
		if s.manualRun >= 2 {
			t.Shape(ShapeManualRow)
		}
		s.write(o.ID, false)
		s.manuals[o.ID] = true
		s.frames = append(s.frames, &sframe{id: o.ID, manual: true})
	case ops.Exec:
		s.write(o.ID, false)
		s.frames[len(s.frames)-1].lastExec = o.ID
	case ops.Ask:
		s.write(o.ID, false)
	case ops.End:
		f := s.frames[len(s.frames)-1]
		s.frames = s.frames[:len(s.frames)-1]
		if f.manual {
			s.head = f.id
			if s.chatDone {
				t.Shape(ShapeHeadOnManual)
			}
		}
	case ops.Retry, ops.Edit:
		unrecorded := s.unrecordedHead
		s.unrecordedHead = false // the new row records the head
		of, id, edit := "", "", false
		if r, ok := op.(ops.Retry); ok {
			of, id = r.Of, r.ID
		} else {
			e := op.(ops.Edit)
			of, id, edit = e.Of, e.ID, true
		}
		u := of
		if !s.isUser[u] {
			u = s.userOf[of]
		}
		if len(s.retryable) > 0 && s.retryable[0] == u {
			t.Shape(ShapeRetryFirst)
		}
		if !edit && !s.hasAssistant(u) {
			// No row: the head moves to u as a checkout moves it, and
			// nothing records that unless it was there already.
			s.unrecordedHead = unrecorded || s.head != u
			s.head, s.client = u, u
			s.pending, s.source = u, "web"
			break
		}
		s.write(id, true)
		s.isUser[id] = true
		s.retryable = append(s.retryable, id)
		s.parentOf[id] = s.parentOf[u]
		s.head, s.client = id, id
		s.pending, s.source = id, "web"
		t.Shape(ShapeRetry)
	case ops.Checkout:
		s.head, s.client = o.ID, o.ID
		s.unrecordedHead = true
	case ops.Reload:
		s.client = s.head
		if s.isManual(s.head) {
			t.Shape(ShapeReloadAfterManual)
		}
	case ops.Spawn:
		s.unrecordedHead = false
		s.ensureRoot()
		s.write(o.Cmd, false)
		s.isUser[o.Cmd] = true
		s.retryable = append(s.retryable, o.Cmd)
		anchor := o.Cmd
		if s.client != "" {
			anchor = s.client
		}
		s.parentOf[o.Cmd] = s.client
		s.client = o.Cmd
		s.write(o.ID, false)
		s.write(o.ID+"_reply", false)
		s.write(o.Attach, false)
		s.asst[o.ID] = append(s.asst[o.ID], o.ID+"_reply")
		s.asst[anchor] = append(s.asst[anchor], o.Attach)
		s.head = o.ID + "_reply"
		t.Shape(ShapeSubAgent)
		if o.Mode == "clean" {
			t.Shape(ShapeCleanSpawn)
		}
	case ops.Task:
		s.write(o.ID, false)
		s.write(o.ID+"_reply", false)
		s.write(o.Attach, false)
		s.write(s.reply+"_t_"+o.CallID, false)
		s.asst[o.ID] = append(s.asst[o.ID], o.ID+"_reply")
		s.head = o.ID + "_reply"
		t.Shape(ShapeSubAgent)
	case ops.Script:
		s.write(o.ID, true)
		t.Shape(ShapeScript)
	case ops.LegacyUser:
		s.write(o.ID, true)
		s.isUser[o.ID] = true
		s.retryable = append(s.retryable, o.ID)
		s.parentOf[o.ID] = o.Parent
		t.Shape(ShapeLegacy)
	case ops.LegacyReply:
		s.write(o.ID, true)
		s.asst[o.Parent] = append(s.asst[o.Parent], o.ID)
		t.Shape(ShapeLegacy)
	case ops.Orphan:
		s.write(o.ID, o.Caller == "")
		t.Shape(ShapeOrphan)
	case ops.Rewind:
		s.rewound[o.ID] = true
		t.Shape(ShapeRewind)
	case ops.Flag:
		for i, n := range rolloutNames {
			if strings.EqualFold(n, o.Set) {
				s.step = i
			}
		}
		t.Shape(ShapeFlagFlip)
	}
	return op
}

func (s *shadow) startTurn(id, parent, source string) {
	s.unrecordedHead = false
	s.write(id, false)
	s.isUser[id] = true
	s.retryable = append(s.retryable, id)
	s.parentOf[id] = parent
	s.pending, s.source = id, source
	s.manualRun = 0
}

func (s *shadow) endTurn() {
	if s.pending != "" {
		s.turns++
		s.chatDone = true
	}
	s.pending, s.reply, s.source = "", "", ""
	s.lastLegacyTool = false
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
