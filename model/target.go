package model

// The target model: the intended conversation, from the op log
// (ops/README.md, "Intent: the conversation each op means"). It keeps its own
// tree of conversation rows, each with an intended parent (IP), and never
// reads parent_id or called_by. Writer state (the store's in-memory head H,
// the persisted head, which ids exist, the pending turn, the open reply, the
// frame stack, validity) comes from an embedded LegacyRun: that is what the
// op log *did*, not a reading of parent_id.

import (
	"fmt"

	"sessiondag/ops"
)

// TargetRow is one row of the intended chain, projected for comparison.
type TargetRow struct {
	ID    string   `json:"id"`
	Kind  string   `json:"kind"` // "card" (a top-level function run) or "row"
	Calls []string `json:"calls,omitempty"`
}

// TargetView is the intended conversation at the persisted head.
type TargetView struct {
	HeadID string      `json:"head_id"` // anchor of the persisted head, "" if none
	Chain  []TargetRow `json:"chain"`
}

// tRow is a conversation row of the model's own tree.
type tRow struct {
	id        string
	ip        string // intended parent: another conversation row, "" = a root
	card      bool   // a top-level function run (manual, script fn, caller-less orphan)
	user      bool   // a user turn (the retry/edit climb stops here)
	attach    bool   // an attach pointer: ip is the row it is spliced after
	spawnRoot bool   // a clean spawn's sub user (IP none, never glued)
	calls     []string
}

// TargetRun is the intent of one session, op by op.
type TargetRun struct {
	leg      *LegacyRun          // writer state and validity
	rows     []*tRow             // conversation rows in seq (append) order
	byID     map[string]*tRow    // … by id
	attachAt map[string][]*tRow  // attach rows by the row they are spliced after, in seq order
	spawnAt  map[string]string   // a pending spawn or task turn's sub-agent user: the row its attach pointer will follow
	taskCall map[string]string   // a pending task turn's sub-agent user: the call of the reply waiting on it
	anchor   map[string]string   // non-conversation nodes → their conversation row ("" = none)
	rewound  map[string]bool     // rewind targets (any node)
	early    map[string][]string // a caller not written yet → the orphans naming it, in seq order
	callers  map[string]string   // an orphan with a caller → that caller
	recorded map[string][]string // a reply → the call ids its tool and task ops recorded
	finished map[string]bool     // a reply whose extra holds them (done, cancel; a copy of one)
	viaExec  map[string]string   // a function an exec called → that exec (the load folds it there)
}

// NewTarget starts an empty session.
func NewTarget(sessionID string) *TargetRun {
	return &TargetRun{leg: NewLegacy(sessionID), byID: map[string]*tRow{}, attachAt: map[string][]*tRow{}, spawnAt: map[string]string{}, taskCall: map[string]string{},
		anchor: map[string]string{}, rewound: map[string]bool{}, early: map[string][]string{}, callers: map[string]string{},
		recorded: map[string][]string{}, finished: map[string]bool{}, viaExec: map[string]string{}}
}

// Target runs a script and returns the intended view after every op.
func Target(script []ops.Op) ([]TargetView, error) {
	r := NewTarget(ops.DefaultSession)
	var views []TargetView
	for i, op := range script {
		if err := r.Apply(op); err != nil {
			return views, fmt.Errorf("op %d (%s): %w", i+1, ops.Format(op), err)
		}
		views = append(views, r.View())
	}
	return views, nil
}

// Legacy is the embedded writer state (read it, do not Apply to it).
func (r *TargetRun) Legacy() *LegacyRun { return r.leg }

// IntendedParent is a conversation row's IP ("" for a root); ok is false
// for anything that is not a conversation row. An attach row's IP is the
// row it is spliced after.
func (r *TargetRun) IntendedParent(id string) (string, bool) {
	if t := r.byID[id]; t != nil {
		return t.ip, true
	}
	return "", false
}

// isConversationRow: id is a row of the intended tree (attach rows included).
func (r *TargetRun) isConversationRow(id string) bool { return r.byID[id] != nil }

// Anchor is anchor(id) of ops/README.md: the conversation row id stands for,
// "" for none ("", ROOT, an unknown id, an orphan whose caller is not
// written). An orphan stands for what its caller stands for, once that is
// written: asked after the caller arrived, the answer is the caller's.
func (r *TargetRun) Anchor(id string) string {
	for range len(r.callers) + 1 { // orphans may name orphans: at most every one once
		if r.byID[id] != nil {
			return id
		}
		c, ok := r.callers[id]
		if !ok {
			return r.anchor[id]
		}
		if r.leg.node(c) == nil {
			return ""
		}
		id = c
	}
	return ""
}

// add appends a conversation row.
func (r *TargetRun) add(t *tRow) {
	r.rows = append(r.rows, t)
	r.byID[t.id] = t
	if t.attach {
		r.attachAt[t.ip] = append(r.attachAt[t.ip], t)
	}
}

// turnOf climbs IPs from anchor(x) to the nearest user turn ("" if none):
// the turn a retry/edit of x reruns, read on the intended tree.
func (r *TargetRun) turnOf(x string) string {
	seen := map[string]bool{}
	for cur := r.Anchor(x); cur != "" && !seen[cur]; {
		seen[cur] = true
		t := r.byID[cur]
		if t == nil {
			return ""
		}
		if t.user {
			return cur
		}
		cur = t.ip
	}
	return ""
}

func (r *TargetRun) addCall(reply, id string) {
	if t := r.byID[reply]; t != nil {
		t.calls = append(t.calls, id)
	}
}

// Apply runs one op: the embedded legacy writer checks validity and moves the
// writer state; a refused op changes nothing here either. Then the op's
// conversation rows are added per the Intent table (target_ops.go), with H =
// the in-memory head before the op (after ensureRoot, for the ops that run
// it).
func (r *TargetRun) Apply(op ops.Op) error {
	in := &targetOps{r: r, h: r.leg.InMemoryHead(), pending: r.leg.pendingTurn(),
		reply: r.leg.openReply(), callReply: r.leg.callReply(), framed: len(r.leg.frames) > 0, written: len(r.leg.nodes)}
	if in.framed {
		in.outer = r.leg.frames[0].id
		in.exec = r.leg.frames[len(r.leg.frames)-1].lastExec
	}
	rootBefore := r.leg.node("ROOT") != nil
	if err := r.leg.Apply(op); err != nil {
		return err
	}
	// An op that created ROOT first moved the head there (ensureRoot): the
	// turn it writes starts a conversation instead of continuing rows of an
	// earlier script.
	if !rootBefore && r.leg.node("ROOT") != nil {
		in.h = "ROOT"
	}
	in.aH = r.Anchor(in.h)
	if in.framed {
		in.top = r.Anchor(in.outer)
	}
	return op.Apply(in)
}

// retry adds N (when the writer wrote it) as a sibling of the turn it reruns:
// U of ops/README.md, the user row the writer climbed to and copied (its
// forked_from). Where legacy pointers and intent part (a reply under an
// attach pointer), the writer still reruns that row, so N is its sibling.
// That holds for every U that is a row of the intended tree, a script's
// top-level ask answer included (the chat shows it as a user message the
// user can edit); only a U that is no row of it (an ask row inside a
// function) leaves the turn to the intended tree.
func (r *TargetRun) retry(of, n string) {
	if n == "" || r.leg.node(n) == nil {
		return // no new row: the head moved back to U, nothing is added
	}
	u, _ := r.leg.node(n).meta().Val("forked_from").(string)
	if r.byID[u] == nil {
		u = r.turnOf(of)
	}
	ip := ""
	if u != "" {
		ip = r.byID[u].ip
	}
	r.add(&tRow{id: n, ip: ip, user: true})
}

// View is the intended conversation at the persisted head h: the IP path
// from anchor(h) to its root, root first, rewound rows left out (walked
// through); attach rows spliced right after their anchor when it is on the
// path (several: seq order).
func (r *TargetRun) View() TargetView {
	a := r.Anchor(r.viewHead())
	v := TargetView{HeadID: a, Chain: []TargetRow{}}
	var path []string
	seen := map[string]bool{}
	for cur := a; cur != "" && !seen[cur] && r.byID[cur] != nil; cur = r.byID[cur].ip {
		seen[cur] = true
		path = append(path, cur)
	}
	for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
	}
	shown := map[string]bool{}
	emit := func(t *tRow) {
		if shown[t.id] || r.rewound[t.id] {
			return
		}
		shown[t.id] = true
		row := TargetRow{ID: t.id, Kind: "row"}
		if t.card {
			row.Kind = "card"
		}
		for _, c := range t.calls {
			if !r.rewound[c] {
				row.Calls = append(row.Calls, c)
			}
		}
		v.Chain = append(v.Chain, row)
	}
	for i, id := range path {
		t := r.byID[id]
		// An attach row on the path follows its anchor (its IP), where the
		// splice below already placed it in seq order.
		if !(t.attach && i > 0 && path[i-1] == t.ip) {
			emit(t)
		}
		// Attach rows follow a shown anchor; a rewound anchor hides them too.
		if !r.rewound[id] {
			for _, at := range r.attachAt[id] {
				emit(at)
			}
		}
	}
	return v
}

// viewHead is the head the browser loads at: the persisted one, or with none
// persisted yet the last message the load shows (legacy §3.5 step 3: the last
// row of the aggregated list): the latest node that is not ROOT, not rewound
// and not folded into an earlier message. Until a head is persisted no reply
// or tool row exists (the first reply, and every op that writes a call
// row's turn, writes meta), so the rows are runs and their internals, and
// the one the load folds is a function an exec called, into that exec's
// message while the exec is shown (§3.4). With one writer the two stand for
// the same run; with two writers' runs interleaved the latest node may stand
// for the other run (TestTargetUnpersistedHeadSkipsFoldedFunctions).
func (r *TargetRun) viewHead() string {
	if h := r.leg.meta.Str("head_id"); h != "" {
		return h
	}
	for i := len(r.leg.nodes) - 1; i >= 0; i-- {
		n := r.leg.nodes[i]
		if n.ID != "ROOT" && !n.isRewound() && !r.foldedIntoExec(n.ID) {
			return n.ID
		}
	}
	return ""
}

// foldedIntoExec reports whether id is a function an exec called whose exec
// the load shows: aggregation folds it into the exec's message.
func (r *TargetRun) foldedIntoExec(id string) bool {
	x, ok := r.viaExec[id]
	return ok && !r.rewound[x]
}
