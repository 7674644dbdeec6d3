package writer

import (
	"fmt"
	"sessiondag/impl/webui"

	"sessiondag/impl/adapter"
	"sessiondag/impl/flags"
	"sessiondag/impl/history"
	"sessiondag/impl/lane"
	"sessiondag/impl/node"
	"sessiondag/impl/store"
)

// branchIDs is get_branch(sid) from the in-memory head, as ids.
func branchIDs(s *store.Store) []string {
	var ids []string
	for _, n := range history.BranchNodes(s, "") {
		if !n.IsRoot() && !n.IsRewound() {
			ids = append(ids, n.ID)
		}
	}
	return ids
}

// Retry reruns the turn of message of (legacy §3.8): climb to its user; if
// that user has no assistant reply yet, just move the head back to it;
// otherwise write a new user row with the same parent. newID names that row.
// web writes the row as the older writers did: source web first, no
// display copied.
func (w *Writer) Retry(of, newID string, web bool) error {
	return w.rerun("retry", of, newID, "", false, web)
}

// Edit is a retry with new text; it always writes a new user row.
func (w *Writer) Edit(of, newID, text string, web bool) error {
	return w.rerun("edit", of, newID, text, true, web)
}

func (w *Writer) rerun(what, of, newID, text string, edit, web bool) error {
	if err := w.needIdle(what); err != nil {
		return err
	}
	u, ok := climbToUser(w.S, of)
	if !ok {
		return fmt.Errorf("%w: %s of %q: no user message above it", ErrState, what, of)
	}
	if !edit && !hasAssistantChild(w.S, u.ID) {
		if err := w.S.SetHead(u.ID); err != nil {
			return err
		}
		w.setClient(u.ID)
		w.rerunSaved(u.ID)
		return nil
	}
	if newID == "" {
		return fmt.Errorf("%w: %s of %q writes a new user row and needs its id", ErrState, what, of)
	}
	if !edit {
		text = u.Get("content").Str()
	}
	// R builds the new message from the one it reruns: no source, its
	// display copied when it has one; the older writers wrote the web
	// source first and no display.
	md := meta("parent_id", u.Get("parent_id"), "forked_from", node.Str(u.ID))
	if web {
		md = meta("source", node.Str("web"), "parent_id", u.Get("parent_id"), "forked_from", node.Str(u.ID))
	} else if d := u.Get("display"); d.Truthy() {
		md.Set("display", d)
	}
	if edit {
		md.Set("edit_of", node.Str(u.ID))
	}
	if w.Flags.Has(flags.A) {
		w.predecessor(md, rerunPred(w.S, of, u.ID))
	}
	if err := w.add(&node.Node{ID: newID, Role: node.RoleUser, Output: node.Str(text), Metadata: md}); err != nil {
		return err
	}
	if err := w.S.SetHead(newID); err != nil {
		return err
	}
	w.setClient(newID)
	w.rerunSaved(newID)
	return nil
}

// rerunSaved ends a retry or edit as R's _fork_user_turn_and_run does
// (webui/_chat_routes.py): it saves the conversation before the rerun's
// web action starts. The save names the chat runtime's model alone when
// the conversation has a runtime; with none it names None, which
// update_session drops (R33). The rerun builds the runtime.
func (w *Writer) rerunSaved(user string) {
	if w.runtime {
		*w.saved = modelPlain
	}
	w.runtime = true
	w.pending = &turn{user: user, source: "web"}
}

// rerunPred is flag A's predecessor of a rerun of of whose user row is u:
// the predecessor of the turn it reruns. That is u's own (stored, or
// derived for a turn written before the rollout) when u is a conversation
// row. An ask_user row is none: it belongs to the function run it asked
// in, and the turn rerun is the one that run continues, the nearest user
// turn up the conversation lane from where of stands.
func rerunPred(s *store.Store, of, u string) string {
	src, _ := s.Get(u)
	if pred := src.Metadata.Get("predecessor").Str(); pred != "" {
		return pred
	}
	preds := lane.PredsOf(s)
	if pred, ok := preds.Of(u); ok {
		return pred
	}
	cur := lane.Anchor(of, s.Get)
	for seen := map[string]bool{}; cur != node.RootID && !seen[cur]; {
		seen[cur] = true
		pred, ok := preds.Of(cur)
		if !ok {
			break
		}
		if n, _ := s.Get(cur); n.Role == node.RoleUser {
			return pred
		}
		cur = pred
	}
	return node.RootID
}

// message is the message a reader sees for id (nil when get_messages does
// not show it: unknown, ROOT or rewound).
func message(s *store.Store, id string) *adapter.Message {
	n, ok := s.Get(id)
	if !ok || n.IsRoot() || n.IsRewound() {
		return nil
	}
	return adapter.ToMessage(s.ID, n, s.ParentReads)
}

// climbToUser follows message parent_id from id to the nearest user row.
func climbToUser(s *store.Store, id string) (*adapter.Message, bool) {
	seen := map[string]bool{}
	for id != "" && !seen[id] {
		seen[id] = true
		m := message(s, id)
		if m == nil {
			return nil, false
		}
		if m.Role == "user" {
			return m, true
		}
		id = m.ParentID()
	}
	return nil, false
}

// hasAssistantChild reports whether an assistant message has parent_id id.
// A message's parent_id is its metadata.parent_id or else its called_by, so
// the candidates are the store's children of id by either edge.
func hasAssistantChild(s *store.Store, id string) bool {
	for _, kids := range [][]*node.Node{s.ConvChildren(id), s.CallChildren(id)} {
		for _, n := range kids {
			if n.IsRoot() || n.IsRewound() {
				continue
			}
			m := adapter.ToMessage(s.ID, n, s.ParentReads)
			if m.Role == "assistant" && m.ParentID() == id {
				return true
			}
		}
	}
	return false
}

// Checkout makes any node the head (the WebSocket checkout, docs/rollout.md §1 item 9).
func (w *Writer) Checkout(id string) error {
	if err := w.needIdle("checkout"); err != nil {
		return err
	}
	if _, ok := w.S.Get(id); !ok {
		return fmt.Errorf("%w: checkout of unknown node %q", ErrState, id)
	}
	if err := w.S.SetHead(id); err != nil {
		return err
	}
	// R's checkout sets the head of the conversation the server has made
	// and makes none: after a restart the next web op makes it from the
	// store's head.
	if w.conv {
		w.setClient(id)
	}
	return nil
}

// Reload syncs the browser's head with the head the store's load shows.
// R's load makes the conversation only of a session the store holds.
func (w *Writer) Reload() error {
	if w.S.Len() == 0 {
		return nil
	}
	made := w.conv
	w.conv = true
	switch h := w.S.Head(); {
	case h != "":
		// the load's head: one on a folded row (a tool row) is its reply's
		w.setClient(webui.ShownHead(w.S, w.Flags, h))
	case made && w.clientHead != nil:
		// no head stored: R's load keeps the conversation's (head_or_tip)
	default:
		// … or, with none, takes the last message it shows
		if t := webui.TipHead(w.S, w.Flags); t != "" {
			w.setClient(t)
		} else {
			w.clientHead = nil
		}
	}
	return nil
}
