package lane

import (
	"sessiondag/impl/node"
	"sessiondag/impl/store"
)

// Preds is flag A's conversation predecessor of every conversation-lane node
// of a session: the one its writer stored (metadata.predecessor), or for
// legacy nodes one derived from what the legacy fields say. Roots map to
// "ROOT". Nodes outside the conversation lane have no entry.
type Preds struct {
	pred   map[string]string
	isConv map[string]bool
	get    Lookup
}

// Derivation rules for legacy nodes (no stored predecessor), settled by the
// properties (model/README.md, "Legacy derivation"):
//   - a retry or edit (forked_from) takes the predecessor of the turn it
//     reruns;
//   - a recorded metadata.parent_id is trusted: the predecessor is its
//     anchor ("ROOT" stays a root);
//   - a root that cannot be a deliberate fork continues the conversation
//     row the head was on: the last one before it in seq order that moved
//     the head (see movesHead; ROOT's creation resets it): manual and
//     script runs, caller-less rows, web users typed while the browser had
//     no head, adapter-written users without a parent_id key;
//   - a root that the data marks as a fork stays one: dispatcher users
//     without a parent (parent=None), sub-agent roots (source agent_spawn),
//     adapter-written users with an explicit null parent_id;
//   - attach pointers hang off their caller (the fork anchor).
func NewPreds(s *store.Store) *Preds {
	p := &Preds{pred: make(map[string]string, s.Len()), isConv: make(map[string]bool, s.Len()), get: s.Get}
	prev := node.RootID
	for _, n := range s.Nodes() {
		if n.IsRoot() {
			// Creating ROOT moves the head to it: the next turn starts
			// a conversation rather than continuing an earlier script.
			prev = node.RootID
			continue
		}
		if !IsConv(n, s.Get) {
			continue
		}
		p.isConv[n.ID] = true
		p.pred[n.ID] = p.derive(n, prev)
		if movesHead(n) {
			prev = n.ID
		}
	}
	return p
}

func (p *Preds) derive(n *node.Node, prev string) string {
	if v := n.Metadata.Get("predecessor"); v.K == node.String && v.S != "" {
		return v.S
	}
	if n.Metadata.Get("spawn_root").Truthy() {
		return node.RootID
	}
	// A retry or edit is a sibling of the turn it reruns: its copied
	// parent_id may be only the called_by-derived "ROOT" of that turn.
	if src := n.Metadata.Get("forked_from"); src.K == node.String {
		if p, ok := p.pred[src.S]; ok {
			return p
		}
	}
	if par := n.Metadata.Get("parent_id"); par.Truthy() {
		if par.K != node.String {
			return node.RootID
		}
		return Anchor(par.S, p.get)
	}
	if n.Metadata.Get("function").Str() == "attach" {
		return Anchor(n.CalledBy, p.get)
	}
	if n.Role == node.RoleUser {
		switch n.Metadata.Get("source").Str() {
		case "cli", "agent_spawn":
			return node.RootID // a deliberate root-level fork, or a sub-agent root
		}
		if v := n.Metadata.Get("parent_id"); v.K == node.Null {
			return node.RootID // an explicit null: advance_head's root fork
		}
	}
	return prev
}

// movesHead reports whether writing a conversation row made it the session's
// head, as far as the legacy fields tell: a caller-less append does, and so
// do the writers' set_head calls after web turns, replies and runs. Rows a
// dispatcher or a sub-agent writes under ROOT do not (their reply does), nor
// do attach pointers (the spawn restores the head).
func movesHead(n *node.Node) bool {
	if n.Metadata.Get("function").Str() == "attach" {
		return false
	}
	if n.Role == node.RoleUser && n.CalledBy == node.RootID {
		src := n.Metadata.Get("source").Str()
		return src == "web" || src == ""
	}
	return true
}

// Of returns the predecessor of a conversation-lane node ("ROOT" for a
// root) and whether id is one.
func (p *Preds) Of(id string) (string, bool) {
	v, ok := p.pred[id]
	return v, ok
}

// IsConv reports whether id is a conversation-lane node.
func (p *Preds) IsConv(id string) bool { return p.isConv[id] }

// Walk follows predecessors from the anchor of head to its root, root first,
// through every node (rewound ones included); a repeat or an unknown id ends
// it. It returns the ids walked.
func (p *Preds) Walk(head string) []string {
	start := Anchor(head, p.get)
	if start == node.RootID {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for cur := start; cur != "" && cur != node.RootID && !seen[cur]; {
		if _, ok := p.get(cur); !ok {
			break
		}
		seen[cur] = true
		out = append(out, cur)
		next, ok := p.pred[cur]
		if !ok {
			break
		}
		cur = next
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}
