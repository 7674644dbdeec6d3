package audit

import (
	"sessiondag/checker/harness"
	"sessiondag/impl/lane"
	"sessiondag/impl/node"
	"sessiondag/impl/store"
	"sessiondag/impl/webui"
	"sessiondag/model"
)

// Residue is a row the last config of the rollout still does not show as
// it should, and why.
type Residue struct {
	Row   Row    `json:"row"`
	Cause string `json:"cause"`
	// By is the row whose pointer leaves this one behind: the next row
	// of the intended conversation, the row of the shown chain its branch
	// forks from, or its conversation's root.
	By string `json:"by,omitempty"`
	// AtR: with an op script, whether R (flags off) showed the row.
	AtR bool `json:"shown_at_r"`
}

// shownIDs is every id a load shows, as a row or folded into one.
func shownIDs(l *webui.Loaded, into map[string]string) map[string]string {
	if into == nil {
		into = map[string]string{}
	}
	for _, r := range harness.Project(l.Chain) {
		into[r.ID] = r.ID
		for _, c := range r.Calls {
			if _, ok := into[c]; !ok {
				into[c] = r.ID
			}
		}
	}
	return into
}

// intendedResidual lists the intended rows the last config does not show
// as rows. For each it walks the intended conversation from the row
// towards the intended head and stops at the first row whose predecessor
// under the flags (preds) is not the row before it: that row's rule is the
// cause. A walk that never stops means the load starts from another head.
func intendedResidual(st *store.Store, preds *lane.Preds, target *model.TargetRun, want model.TargetView, off, last *webui.Loaded) []Residue {
	w := &intentWalk{st: st, preds: preds, target: target, rows: map[string]bool{},
		shown: shownIDs(last, nil), onPath: set(preds.Walk(last.HeadID.ID())),
		next: map[string]string{}, onIntended: map[string]bool{}, head: last.HeadID.ID(), memo: map[string][2]string{}}
	for _, r := range harness.Project(last.Chain) {
		w.rows[r.ID] = true
	}
	// The intended path to the head, each row's successor on it.
	seen := map[string]bool{}
	for cur := want.HeadID; cur != "" && !seen[cur]; {
		seen[cur], w.onIntended[cur] = true, true
		ip, ok := target.IntendedParent(cur)
		if !ok || ip == "" {
			break
		}
		w.next[ip] = cur
		cur = ip
	}
	atR := shownIDs(off, nil)
	var out []Residue
	for _, r := range want.Chain {
		if w.rows[r.ID] {
			continue
		}
		res := Residue{Row: storedRow(st, r.ID), AtR: atR[r.ID] != ""}
		res.Cause, res.By = w.cause(r.ID, 0)
		out = append(out, res)
	}
	return out
}

// intentWalk finds why intended rows are missing.
type intentWalk struct {
	st         *store.Store
	preds      *lane.Preds
	target     *model.TargetRun
	rows       map[string]bool   // shown as rows by the last config
	shown      map[string]string // shown as a row or folded into one (→ that row)
	onPath     map[string]bool   // on the last config's predecessor path
	next       map[string]string // the intended path: row → its successor
	onIntended map[string]bool
	head       string
	memo       map[string][2]string
}

// cause is why intended row id is not shown as a row, and the row that
// decides it.
func (w *intentWalk) cause(id string, depth int) (string, string) {
	if c, ok := w.memo[id]; ok {
		return c[0], c[1]
	}
	var cause, by string
	switch {
	case w.onPath[id] || w.shown[id] != "":
		cause, by = "folded", w.shown[id]
	case !w.onIntended[id]:
		// A row spliced beside the path (an attach pointer) follows its
		// anchor: missing with it, or by a pointer of its own.
		ip, _ := w.target.IntendedParent(id)
		got, _ := w.preds.Of(id)
		switch {
		case got != ip:
			cause, by = stopCause(w.st, w.preds, id, ip, got), id
		case ip != "" && !w.rows[ip] && depth < 8:
			cause, by = w.cause(ip, depth+1)
		default:
			cause, by = "attach", id
		}
	default:
		cause, by = walkToHead(w.st, w.preds, w.next, id, w.head)
	}
	w.memo[id] = [2]string{cause, by}
	return cause, by
}

// walkToHead follows the intended successors of row from and returns the
// cause at the first whose predecessor under the flags is not the row
// before it, with that row's id.
func walkToHead(st *store.Store, preds *lane.Preds, next map[string]string, from, head string) (cause, by string) {
	seen := map[string]bool{}
	for cur := from; !seen[cur]; {
		seen[cur] = true
		c, ok := next[cur]
		if !ok {
			return "head", head
		}
		got, conv := preds.Of(c)
		if !conv {
			return "not-conversation", c
		}
		if got != cur {
			return stopCause(st, preds, c, cur, got), c
		}
		cur = c
	}
	return "unexplained", from
}

// unshownResidual lists, for a session without an op script, the
// conversation rows no config of the rollout shows (neither as a row nor
// folded into one), rewound rows aside: what is left for a user to miss
// once every flag is on. The cause comes from where the row's predecessor
// path under the flags meets the chain the last config shows.
func unshownResidual(st *store.Store, preds *lane.Preds, loads []*webui.Loaded) []Residue {
	var shown map[string]string
	for _, l := range loads {
		shown = shownIDs(l, shown)
	}
	last := loads[len(loads)-1]
	path := preds.Walk(last.HeadID.ID())
	b := &brancher{st: st, preds: preds, onPath: set(path), child: map[string]string{}, memo: map[string]branch{}, causes: map[branch][2]string{}}
	if len(path) > 0 {
		b.root = path[0]
	}
	for i := 1; i < len(path); i++ {
		b.child[path[i-1]] = path[i]
	}
	var out []Residue
	done := map[string]bool{}
	for _, n := range st.Nodes() {
		if n.IsRoot() || n.IsRewound() || shown[n.ID] != "" || done[n.ID] {
			continue
		}
		done[n.ID] = true
		if _, conv := preds.Of(n.ID); !conv {
			continue
		}
		res := Residue{Row: rowOfNode(n)}
		switch {
		case len(path) == 0:
			res.Cause = "no-head"
		case b.onPath[n.ID]:
			res.Cause = "folded"
		default:
			res.Cause, res.By = b.cause(n.ID)
		}
		out = append(out, res)
	}
	return out
}

// branch is where a row's predecessor path meets the shown chain: at x,
// through b (the first row after x on the row's path); x is "" when the
// path reaches a root of its own, b, or stops at stop.
type branch struct{ x, b, stop string }

// brancher finds branches, remembering each row walked.
type brancher struct {
	st     *store.Store
	preds  *lane.Preds
	onPath map[string]bool
	child  map[string]string // the shown chain's edges: parent → child
	root   string            // where the shown chain starts
	memo   map[string]branch
	causes map[branch][2]string
}

func (w *brancher) branchOf(id string) branch {
	var trail []string
	var res branch
	seen := map[string]bool{}
	for cur := id; ; {
		if br, ok := w.memo[cur]; ok {
			res = br
			break
		}
		if w.onPath[cur] {
			res = branch{x: cur, b: trail[len(trail)-1]}
			break
		}
		if seen[cur] {
			res = branch{b: cur, stop: cur}
			break
		}
		seen[cur] = true
		trail = append(trail, cur)
		p, ok := w.preds.Of(cur)
		if _, known := w.st.Get(p); !ok || p == node.RootID || !known {
			res = branch{b: cur, stop: p}
			break
		}
		cur = p
	}
	for _, t := range trail {
		w.memo[t] = res
	}
	return res
}

// cause names why row id is off the shown chain (the same for every row
// of a branch, found once).
func (w *brancher) cause(id string) (string, string) {
	br := w.branchOf(id)
	if c, ok := w.causes[br]; ok {
		return c[0], c[1]
	}
	cause, by := w.branchCause(br)
	w.causes[br] = [2]string{cause, by}
	return cause, by
}

func (w *brancher) branchCause(br branch) (string, string) {
	if br.x == "" {
		// Two roots, one a retry of the other (a first turn rerun): the
		// head is on one of them.
		if forkedFrom(w.st, w.root) == br.b || forkedFrom(w.st, br.b) == w.root {
			return "retry-sibling", w.root
		}
		if c := rootCause(w.st, w.preds, br.b, br.stop); c != "" {
			return c, br.b
		}
		return headRootCause(w.st, w.preds, w.root), w.root
	}
	h := w.child[br.x]
	isRetry := func(id string) bool { return forkedFrom(w.st, id) != "" }
	switch {
	case isRetry(br.b) || h != "" && isRetry(h):
		return "retry-sibling", br.x
	case h != "" && failedReplyOf(w.st, br.b, br.x):
		return "after-failed-reply", br.x
	case isSubAgent(w.st, br.b):
		return "sub-agent", br.x
	case h == "":
		return "past-head", br.x
	}
	return "side-branch", br.x
}

// forkedFrom is the turn a retry or edit reruns, "" for other rows.
func forkedFrom(st *store.Store, id string) string {
	if n, ok := st.Get(id); ok {
		return n.Meta("forked_from").Str()
	}
	return ""
}

// isSubAgent: a sub-agent's user, or the /spawn command row that starts one.
func isSubAgent(st *store.Store, id string) bool {
	n, ok := st.Get(id)
	if !ok || n.Role != node.RoleUser {
		return false
	}
	return n.Meta("source").Str() == "agent_spawn" || n.Meta("spawn_root").Truthy() || n.Meta("function").Str() == "task"
}

// storedRow describes a row by its stored node (a row the load does not
// show has no loaded message).
func storedRow(st *store.Store, id string) Row {
	if n, ok := st.Get(id); ok {
		return rowOfNode(n)
	}
	return Row{ID: id}
}

func set(ids []string) map[string]bool {
	out := make(map[string]bool, len(ids))
	for _, id := range ids {
		out[id] = true
	}
	return out
}
