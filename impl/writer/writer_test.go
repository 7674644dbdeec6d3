package writer_test

// The writer scenarios and the dispatcher/load scenarios that
// docs/legacy.md §7 lists as asserted by the original's own tests,
// with the shapes of §1 (how each kind appears) and §3.8.

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"sessiondag/impl/adapter"
	"sessiondag/impl/flags"
	"sessiondag/impl/history"
	"sessiondag/impl/node"
	"sessiondag/impl/store"
	"sessiondag/impl/webui"
	"sessiondag/impl/writer"
)

func newW(t *testing.T) *writer.Writer {
	t.Helper()
	w, err := writer.New("local_0000000001", "", flags.Off)
	require.NoError(t, err)
	return w
}

func get(t *testing.T, s *store.Store, id string) *node.Node {
	t.Helper()
	n, ok := s.Get(id)
	require.Truef(t, ok, "node %q is not stored", id)
	return n
}

// ---- function writers ------------------------------------------------------

func TestExecWithoutFrame(t *testing.T) {
	w := newW(t)
	// The op executor refuses exec outside a function ...
	err := w.Exec("x0", "p", "r")
	require.Error(t, err)
	require.True(t, errors.Is(err, writer.ErrState))
	require.Zero(t, w.S.Len(), "a refused op writes nothing")
	// ... and a top-level model call of a script session is an llm node with
	// an empty caller.
	require.NoError(t, w.Script("exec", "x1", "", ""))
	x := get(t, w.S, "x1")
	require.Equal(t, node.RoleLLM, x.Role)
	require.Equal(t, "", x.CalledBy)
	require.Equal(t, "x1", w.S.Head(), "a caller-less append moves the head")
}

// R0: a manual run first in a session leaves meta's head on ROOT until it
// ends (R's fn-form route creates ROOT, which moves the in-memory head, and
// persists it with the title's update_session before the run).
func TestManualPersistsHeadBeforeRun(t *testing.T) {
	w := newW(t)
	require.NoError(t, w.Manual("F", "f", `{}`, ""))
	require.Equal(t, node.RootID, w.S.PersistedHead())
	require.NoError(t, w.End("", ""))
	require.Equal(t, "F", w.S.PersistedHead())
}

// R13: a manual run that ends in an error leaves the head where it was.
func TestFailedManualRunKeepsHead(t *testing.T) {
	w := newW(t)
	require.NoError(t, w.Manual("F", "f", `{}`, ""))
	require.NoError(t, w.End("", "boom"))
	require.Equal(t, node.RootID, w.S.PersistedHead())
}

func TestExecInsideFunctionCalledByFrame(t *testing.T) {
	w := newW(t)
	require.NoError(t, w.Manual("F", "word_count", `{"text":"hi"}`, ""))
	require.NoError(t, w.Exec("Fx", "count: hi", "2"))
	x := get(t, w.S, "Fx")
	require.Equal(t, node.RoleLLM, x.Role)
	require.Equal(t, "F", x.CalledBy)
	require.Equal(t, `null`, node.Dumps(x.Input))
	require.Equal(t, "2", x.Output.Str())
	require.Equal(t, "completed", x.Meta("status").Str())
	require.Equal(t, "count: hi", x.Meta("prompt_text").Str())
	require.False(t, x.Metadata.Has("parent_id"))
}

func TestNestedFrames(t *testing.T) {
	w := newW(t)
	require.NoError(t, w.WebUser("u1", "go", ""))
	require.NoError(t, w.Reply())
	require.NoError(t, w.Fn("G", "outer", `{}`, "", false))
	require.NoError(t, w.Fn("H", "inner", `{}`, "", false))
	require.NoError(t, w.Exec("Hx", "inner prompt", "inner reply"))
	require.NoError(t, w.End(`1`, ""))
	require.NoError(t, w.Exec("Gx", "outer prompt", "outer reply"))
	// A function called from the exec's tool loop: called_by = the exec llm node.
	require.NoError(t, w.Fn("K", "tool_loop_fn", `{}`, "", true))
	require.NoError(t, w.Ask("Kq", "Proceed?", "yes", false))
	require.NoError(t, w.End(`2`, ""))
	require.NoError(t, w.End(`3`, ""))
	require.NoError(t, w.Done())

	s := w.S
	for _, c := range []struct{ id, calledBy, role string }{
		{"G", "u1_reply", node.RoleCode}, // LLM-called function: caller = reply
		{"H", "G", node.RoleCode},        // nested: enclosing function
		{"Hx", "H", node.RoleLLM},        // exec inside H
		{"Gx", "G", node.RoleLLM},        // back in G after H ended
		{"K", "Gx", node.RoleCode},       // from the exec's tool loop
		{"Kq", "K", node.RoleUser},       // ask_user inside K
	} {
		n := get(t, s, c.id)
		require.Equalf(t, c.calledBy, n.CalledBy, "called_by of %s", c.id)
		require.Equalf(t, c.role, n.Role, "role of %s", c.id)
		require.Falsef(t, n.Metadata.Has("parent_id"), "%s has no conversation parent", c.id)
	}
	require.Equal(t, "u1_reply", s.Head(), "function rows have callers: no head move")
	require.Equal(t, "3", node.Dumps(get(t, s, "G").Output))
	require.Equal(t, "1", node.Dumps(get(t, s, "H").Output))
}

func TestFnViaExecNeedsExec(t *testing.T) {
	w := newW(t)
	require.NoError(t, w.Manual("F", "f", `{}`, ""))
	require.ErrorIs(t, w.Fn("K", "k", `{}`, "", true), writer.ErrState)
}

func TestTwoTopLevelScriptCallsHaveEmptyCaller(t *testing.T) {
	w := newW(t)
	require.NoError(t, w.Script("fn", "s1", "step", ""))
	require.NoError(t, w.Script("fn", "s2", "step", ""))
	require.Equal(t, []string{"s1", "s2"}, node.IDs(w.S.Nodes()), "a script session has no ROOT")
	for _, id := range []string{"s1", "s2"} {
		n := get(t, w.S, id)
		require.Equal(t, "", n.CalledBy)
		require.Equal(t, node.RoleCode, n.Role)
		require.False(t, n.Metadata.Has("parent_id"))
		require.Equal(t, "1.5", n.Metadata.Get("duration_seconds").S, "R9: one tick between the wrapper's two clock readings")
	}
	require.Equal(t, "s2", w.S.Head(), "each caller-less append advances the in-memory head")
	require.Equal(t, "", w.S.PersistedHead(), "R9: nothing in a script (R's session_context) writes meta")
	// Their messages have parent_id "": linear_history returns only the head,
	// get_branch rule 3 chains every root (§6 #26).
	msgs := webui.Messages(w.S)
	require.Equal(t, "", msgs[0].Get("parent_id").Str())
	require.Equal(t, node.String, msgs[0].Get("parent_id").K)
	require.Equal(t, []string{"s2"}, adapter.IDs(history.Linear(msgs, "s2", history.ParentEdge)))
	require.Equal(t, []string{"s1", "s2"}, adapter.IDs(history.Branch(w.S, "")))
}

func TestAskUserRecordsQuestionAndStatus(t *testing.T) {
	w := newW(t)
	require.NoError(t, w.Manual("F", "f", `{}`, ""))
	require.NoError(t, w.Ask("q1", "Proceed?", "yes", false))
	require.NoError(t, w.Ask("q2", "Really?", "", false))
	q1 := get(t, w.S, "q1")
	require.Equal(t, node.RoleUser, q1.Role)
	require.Equal(t, `{"question": "Proceed?"}`, node.Dumps(q1.Input))
	require.Equal(t, "yes", q1.Output.Str())
	require.Equal(t, "answered", q1.Meta("status").Str())
	require.Equal(t, "F", q1.CalledBy)
	q2 := get(t, w.S, "q2")
	require.Equal(t, "unanswered", q2.Meta("status").Str())
	require.Equal(t, "", q2.Output.Str())
	require.Equal(t, "F", q2.CalledBy)
	require.Equal(t, "ROOT", w.S.Head(), "F (caller ROOT) and the ask rows (caller F) do not move the head ensureRoot set")
}

func TestFunctionEntryVisibleMidRunThenUpdatedInPlace(t *testing.T) {
	for _, tc := range []struct {
		name, out, errMsg, wantOut, wantStatus, wantHead string
	}{
		{"ok", `{"n": 2}`, "", `{"n": 2}`, "completed", "F"},
		{"error", "", "boom", `{"error": "boom"}`, "error", "ROOT"}, // R13
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newW(t)
			require.NoError(t, w.Manual("F", "word_count", `{"text":"hi"}`, "full"))
			f := get(t, w.S, "F")
			require.Equal(t, node.Null, f.Output.K, "output null while running")
			require.Equal(t, "running", f.Meta("status").Str())
			require.Equal(t, "full", f.Meta("expose").Str())
			require.Equal(t, node.RootID, f.CalledBy)
			seq, n := f.Seq, w.S.Len()
			require.Equal(t, "ROOT", w.S.Head(), "the head stays where ensureRoot put it until the run ends")

			require.NoError(t, w.End(tc.out, tc.errMsg))
			f = get(t, w.S, "F")
			require.Equal(t, seq, f.Seq)
			require.Equal(t, n, w.S.Len(), "updated in place, not appended")
			require.Equal(t, tc.wantOut, node.Dumps(f.Output))
			require.Equal(t, tc.wantStatus, f.Meta("status").Str())
			require.Equal(t, tc.wantHead, w.S.PersistedHead(), "a manual run becomes the head after it returns")
		})
	}
}

func TestReplyRunningThenCompleted(t *testing.T) {
	w := newW(t)
	require.NoError(t, w.WebUser("u1", "hi", ""))
	require.NoError(t, w.Reply())
	r := get(t, w.S, "u1_reply")
	require.Equal(t, "running", r.Meta("status").Str())
	require.Equal(t, "", r.Output.Str())
	require.Equal(t, "u1", r.CalledBy)
	require.Equal(t, "u1", r.ParentID())
	require.NoError(t, w.Say("  hello "))
	require.NoError(t, w.Done())
	r = get(t, w.S, "u1_reply")
	require.Equal(t, "completed", r.Meta("status").Str())
	require.Equal(t, "hello", r.Output.Str(), "text parts concatenated and stripped")
}

// ---- retry / checkout (§3.8, §6 #7, #8) ---------------------------------------

func TestRetryOfFirstTurn(t *testing.T) {
	w := newW(t)
	require.NoError(t, w.WebUser("u1", "hi", ""))
	require.NoError(t, w.Reply())
	require.NoError(t, w.Done())
	require.NoError(t, w.Retry("u1_reply", "u1b", false))
	n := get(t, w.S, "u1b")
	require.Equal(t, node.RoleUser, n.Role)
	require.Equal(t, "", n.CalledBy, "written via append_message")
	require.Equal(t, "ROOT", n.ParentID(), "the source user's message parent_id, literally ROOT")
	require.Equal(t, "u1", n.Meta("forked_from").Str())
	require.False(t, n.Metadata.Has("source"), "R5: R's rerun writes no source")
	require.Equal(t, "hi", n.Output.Str())
	require.Equal(t, "u1b", w.S.PersistedHead())
	require.NoError(t, w.Reply())
	require.NoError(t, w.Done())
	l := webui.Load(w.S.AtPersistedHead(), flags.Off)
	require.Equal(t, []string{"u1b", "u1b_reply"}, adapter.IDs(l.Chain))
	// u1 and u1b are siblings under "ROOT".
	require.Equal(t, "2", node.Dumps(l.Chain[0].Get("sibling_index")))
	require.Equal(t, "2", node.Dumps(l.Chain[0].Get("sibling_total")))
	require.Equal(t, "u1_reply", l.Chain[0].Get("prev_sibling_id").Str(), "deepest leaf of the previous sibling")
}

// The web chat strips a message and sends no empty one (R's handle_chat).
func TestWebUserStripsAndRefusesEmpty(t *testing.T) {
	w := newW(t)
	require.Error(t, w.WebUser("u1", " \n", ""))
	require.Zero(t, w.S.Len(), "a refused op writes nothing")
	require.NoError(t, w.WebUser("u1", " hi ", ""))
	require.Equal(t, "hi", get(t, w.S, "u1").Output.Str())
}

// R12: a failed web turn's head goes back to where the server's
// conversation stands (R's _save_session at the end of a web action).
func TestFoldedErrorOfWebTurnSavesConversation(t *testing.T) {
	w := newW(t)
	require.NoError(t, w.WebUser("u1", "x", ""))
	require.NoError(t, w.Reply())
	require.NoError(t, w.ErrorFolded("RuntimeError", "boom"))
	require.Equal(t, "u1", w.S.PersistedHead())
}

// R11: the server makes its conversation of a session at the first web op
// that needs it, from the store's head then (a load only of a session the
// store holds); a crash ends it.
func TestConversationMadeOnFirstWebOp(t *testing.T) {
	w := newW(t)
	require.NoError(t, w.Reload())
	require.NoError(t, w.Dispatch("d1", "a", "none", "", false))
	require.NoError(t, w.Reply())
	require.NoError(t, w.Done())
	require.NoError(t, w.WebUser("u1", "b", ""))
	require.Equal(t, "d1_reply", get(t, w.S, "u1").Meta("parent_id").Str())
	require.NoError(t, w.Reply())
	require.NoError(t, w.Crash())
	require.NoError(t, w.WebUser("u2", "c", ""))
	require.Equal(t, "u1_reply", get(t, w.S, "u2").Meta("parent_id").Str())
}

// R5: a rerun copies the display of the message it reruns (a function-form
// turn's "runtime").
func TestRetryCopiesDisplay(t *testing.T) {
	w := newW(t)
	require.NoError(t, w.WebUser("u1", "run", "function"))
	require.NoError(t, w.Reply())
	require.NoError(t, w.Done())
	require.NoError(t, w.Edit("u1", "e1", "again", false))
	require.Equal(t, `{"parent_id": "ROOT", "forked_from": "u1", "display": "runtime", "edit_of": "u1"}`, node.Dumps(node.ObjV(get(t, w.S, "e1").Metadata)))
}

// The older writers' rerun: the web source first, no display copied.
func TestRerunOfTheOlderWriters(t *testing.T) {
	w := newW(t)
	require.NoError(t, w.WebUser("u1", "run", "function"))
	require.NoError(t, w.Reply())
	require.NoError(t, w.Done())
	require.NoError(t, w.Retry("u1", "n1", true))
	require.NoError(t, w.Reply())
	require.NoError(t, w.Done())
	require.NoError(t, w.Edit("n1", "e1", "again", true))
	require.Equal(t, `{"source": "web", "parent_id": "ROOT", "forked_from": "u1"}`, node.Dumps(node.ObjV(get(t, w.S, "n1").Metadata)))
	require.Equal(t, `{"source": "web", "parent_id": "ROOT", "forked_from": "n1", "edit_of": "n1"}`, node.Dumps(node.ObjV(get(t, w.S, "e1").Metadata)))
}

func TestRetryWithoutAssistantChildMovesHeadOnly(t *testing.T) {
	w := newW(t)
	require.NoError(t, w.WebUser("u1", "hi", ""))
	require.NoError(t, w.ErrorStandalone("E1", "RuntimeError", "boom"))
	before := w.S.Len()
	// E1 is a system row: u1 has no assistant child.
	require.NoError(t, w.Retry("E1", "unused", false))
	require.Equal(t, before, w.S.Len(), "no new node")
	require.Equal(t, "u1", w.S.PersistedHead())
}

func TestCheckoutMovesHead(t *testing.T) {
	w := newW(t)
	require.NoError(t, w.WebUser("u1", "one", ""))
	require.NoError(t, w.Reply())
	require.NoError(t, w.Done())
	require.NoError(t, w.WebUser("u2", "two", ""))
	require.NoError(t, w.Reply())
	require.NoError(t, w.Done())
	require.NoError(t, w.Checkout("u1_reply"))
	require.Equal(t, "u1_reply", w.S.PersistedHead())
	require.NoError(t, w.WebUser("u3", "three", ""))
	require.Equal(t, "u1_reply", get(t, w.S, "u3").ParentID(), "the new turn forks at the checked-out node")
}

// ---- dispatcher / load (§7 "Dispatcher / load (R)") --------------------------

func TestDispatcherTurnPersistsUserAndReply(t *testing.T) {
	w := newW(t)
	require.NoError(t, w.Dispatch("d1", "hello", "", "", false))
	require.NoError(t, w.Reply())
	require.NoError(t, w.Say("hi there"))
	require.NoError(t, w.Done())

	require.Equal(t, []string{"ROOT", "d1", "d1_reply"}, node.IDs(w.S.Nodes()))
	d1 := get(t, w.S, "d1")
	require.Equal(t, node.RoleUser, d1.Role)
	// R's dispatcher writes through append_message: caller-less, with an
	// explicit parent_id, null on a first turn (the session had no head).
	require.Equal(t, "", d1.CalledBy)
	require.Equal(t, "cli", d1.Meta("source").Str())
	require.Equal(t, node.Null, d1.Meta("parent_id").K)
	var keys []string
	for _, m := range d1.Metadata.M {
		keys = append(keys, m.Key)
	}
	require.Equal(t, []string{"parent_id", "source", "peer_display", "peer_id", "agent_id"}, keys)
	r := get(t, w.S, "d1_reply")
	require.Equal(t, "d1", r.CalledBy)
	require.Equal(t, "d1", r.ParentID())
	require.Equal(t, "hi there", r.Output.Str())
	require.Equal(t, "d1_reply", w.S.PersistedHead(), "head = last message (the reply)")

	l := webui.Load(w.S.AtPersistedHead(), flags.Off)
	require.Equal(t, webui.HeadAt("d1_reply"), l.HeadID)
	require.Equal(t, []string{"d1", "d1_reply"}, adapter.IDs(l.Chain))

	// The second turn receives the history: INHERIT takes the last id of
	// get_branch.
	require.Equal(t, []string{"d1", "d1_reply"}, adapter.IDs(history.Branch(w.S, "")))
	require.NoError(t, w.Dispatch("d2", "again", "", "", false))
	require.Equal(t, "d1_reply", get(t, w.S, "d2").ParentID())
	require.NoError(t, w.Reply())
	require.NoError(t, w.Done())
	l = webui.Load(w.S.AtPersistedHead(), flags.Off)
	require.Equal(t, []string{"d1", "d1_reply", "d2", "d2_reply"}, adapter.IDs(l.Chain))
}

func TestDispatcherExplicitParent(t *testing.T) {
	w := newW(t)
	require.NoError(t, w.Dispatch("d1", "hello", "", "", false))
	require.NoError(t, w.Reply())
	require.NoError(t, w.Done())
	require.NoError(t, w.Dispatch("d2", "again", "d1", "", false))
	require.Equal(t, "d1", get(t, w.S, "d2").ParentID())
	require.Equal(t, "d2", w.S.PersistedHead(), "R's dispatcher sets the head to its user row")
}

// The direct write of older versions (rooted): called by ROOT, parent_id
// only when there is one, the head left where it was.
func TestRootedDispatcherLeavesTheHead(t *testing.T) {
	w := newW(t)
	require.NoError(t, w.Dispatch("d1", "hello", "", "", true))
	d1 := get(t, w.S, "d1")
	require.Equal(t, node.RootID, d1.CalledBy)
	// INHERIT on an empty session: no branch, no message, the head is ROOT.
	require.Equal(t, "ROOT", d1.ParentID())
	require.NoError(t, w.Reply())
	require.NoError(t, w.Done())
	require.NoError(t, w.Dispatch("d2", "again", "d1", "", true))
	require.Equal(t, "d1_reply", w.S.Head(), "a rooted dispatcher user row does not move the head by itself")
	require.NoError(t, w.Reply())
	require.NoError(t, w.Done())
	require.NoError(t, w.ForkRoot("d3", "third", true))
	require.False(t, get(t, w.S, "d3").Metadata.Has("parent_id"), "explicit None → no parent_id")
}

func TestDispatcherParentNoneForksRootLevelSibling(t *testing.T) {
	w := newW(t)
	require.NoError(t, w.Dispatch("d1", "first", "", "", false))
	require.NoError(t, w.Reply())
	require.NoError(t, w.Done())
	require.NoError(t, w.ForkRoot("d2", "second", false))
	d2 := get(t, w.S, "d2")
	require.Equal(t, node.Null, d2.Meta("parent_id").K, "explicit None → an explicit null parent_id")
	require.NoError(t, w.Reply())
	require.NoError(t, w.Done())

	st := w.S.AtPersistedHead()
	msgs := webui.Messages(st)
	require.Equal(t, []string{"d1", "d1_reply", "d2", "d2_reply"}, adapter.IDs(msgs), "4 messages stored")
	l := webui.Load(st, flags.Off)
	require.Equal(t, webui.HeadAt("d2_reply"), l.HeadID)
	require.Equal(t, []string{"d2", "d2_reply"}, adapter.IDs(l.Chain), "the active branch is only the second turn")
	require.Equal(t, []string{"d2", "d2_reply"}, adapter.IDs(history.Branch(st, "")))
}

func TestProviderExceptionFailsSessionAndFoldsError(t *testing.T) {
	w := newW(t)
	require.NoError(t, w.Dispatch("d1", "hello", "", "", false))
	require.NoError(t, w.Reply())
	require.NoError(t, w.ErrorFolded("RuntimeError", "boom"))

	require.Equal(t, "failed", w.S.Meta.Get("status").Str())
	r := get(t, w.S, "d1_reply")
	require.Equal(t, "[error] RuntimeError: boom", r.Output.Str())
	require.Equal(t, "error", r.Meta("status").Str())
	require.Equal(t, "boom", r.Meta("error").Str())
	require.Equal(t, "RuntimeError", r.Meta("error_type").Str())
	require.Equal(t, "d1_reply", w.S.PersistedHead())
	require.False(t, w.Busy(), "the turn ended")

	l := webui.Load(w.S.AtPersistedHead(), flags.Off)
	require.Equal(t, []string{"d1", "d1_reply"}, adapter.IDs(l.Chain))
	errRows := 0
	for _, m := range l.Chain {
		if m.Get("status").Str() == "error" {
			errRows++
		}
	}
	require.Equal(t, 1, errRows, "exactly one error row: the folded reply")
}

// ---- state checks ------------------------------------------------------------

func TestRefusedOps(t *testing.T) {
	w := newW(t)
	require.ErrorIs(t, w.Reply(), writer.ErrState, "reply needs a pending turn")
	require.ErrorIs(t, w.Done(), writer.ErrState, "done needs an open reply")
	require.ErrorIs(t, w.End("", ""), writer.ErrState, "end needs an open frame")
	require.ErrorIs(t, w.Ask("q", "?", "", false), writer.ErrState, "ask needs an open frame")
	require.NoError(t, w.WebUser("u1", "hi", ""))
	require.ErrorIs(t, w.WebUser("u2", "again", ""), writer.ErrState, "a turn needs no pending turn")
	require.NoError(t, w.Reply())
	require.NoError(t, w.Done())
	require.ErrorIs(t, w.WebUser("u1", "dup", ""), writer.ErrState, "ids must be new")
}

// Two writers of one session: a peer shares the store and the clock, has
// its own flags, browser and turn in progress, and takes over at the
// persisted head.
func TestPeerWriters(t *testing.T) {
	w1 := newW(t)
	w2, err := w1.Peer(flags.All)
	require.NoError(t, err)
	_, err = w1.Peer(flags.B)
	require.Error(t, err, "flags that break a prerequisite")
	require.NoError(t, w1.WebUser("u1", "hi", ""))
	require.NoError(t, w1.Reply())
	require.NoError(t, w1.Tool("c1", "bash", "", "ok", false, true, false)) // moves only the in-memory head
	require.Equal(t, "u1_reply_t_c1", w1.S.Head())
	w2.TakeOver()
	require.Equal(t, "u1_reply", w2.S.Head(), "the persisted head")
	require.Error(t, w2.Reply(), "w1's turn is not w2's")
	require.NoError(t, w2.WebUser("u2", "more", ""))
	u2 := get(t, w2.S, "u2")
	require.Equal(t, "u1_reply", u2.Metadata.Get("parent_id").Str(), "R11: w2 makes its conversation from the head it re-read")
	require.Equal(t, "u1_reply", u2.Metadata.Get("predecessor").Str(), "under A: the store's head")
	require.Equal(t, "1782000006.0", u2.CreatedAt.S, "the shared clock: ROOT, u1, its reply, the tool row, then u2")
	w1.TakeOver()
	require.NoError(t, w1.Done())
	require.Equal(t, "u1_reply", w1.S.Head())
}

// R's task tool runs a sub-agent only where the web chat set its session
// ContextVar: in a dispatcher turn it answers with an error text (a tool
// row), so the writer refuses a task there but the older writers' (rooted).
func TestTaskOnlyInAWebTurn(t *testing.T) {
	w := newW(t)
	require.NoError(t, w.Dispatch("d1", "hello", "", "", false))
	require.NoError(t, w.Reply())
	require.ErrorIs(t, w.Task("c1", "S", "A", "go", "L", false, false), writer.ErrState)
	require.ErrorIs(t, w.Task("c1", "S", "A", "go", "L", true, false), writer.ErrState)
	require.ErrorIs(t, w.TaskTurn("c1", "S", "A", "go", "L", false), writer.ErrState)
	require.NoError(t, w.Task("c1", "S", "A", "go", "L", false, true), "the older writers' task")
}
