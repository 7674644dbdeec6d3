package model

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"sessiondag/ops"
)

// Tests of the write half: op scripts (ops/README.md) → nodes, heads, views.
// Expected values come from ops/README.md and docs/legacy.md §4, §5.

// wRun applies a script op by op (each must apply), collects the view after
// every op, and checks the session survives writeSessionDir → ReadSessionDir.
func wRun(t *testing.T, text string) (*LegacyRun, []View) {
	t.Helper()
	r := NewLegacy(ops.DefaultSession)
	_, views := applyScript(t, text, r.Apply, r.View)
	wRoundTrip(t, r)
	return r, views
}

// wRoundTrip: write the model's session as files, read it back: same nodes,
// same head, same view.
func wRoundTrip(t *testing.T, r *LegacyRun) {
	t.Helper()
	s := r.Session()
	dir := filepath.Join(t.TempDir(), s.ID)
	require.NoError(t, writeSessionDir(s, dir))
	back, err := ReadSessionDir(dir)
	require.NoError(t, err)
	assert.Equal(t, s.HeadID, back.HeadID)
	assert.Equal(t, wJSON(t, s.Nodes), wJSON(t, back.Nodes), "nodes round trip")
	assert.Equal(t, wJSON(t, s.Meta), wJSON(t, back.Meta), "meta round trip")
	assert.Equal(t, wJSON(t, LegacyView(s)), wJSON(t, LegacyView(back)), "view round trip")
}

func wJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

func wNode(t *testing.T, r *LegacyRun, id string) *Node {
	t.Helper()
	n := r.Session().byID(id)
	require.NotNil(t, n, id)
	return n
}

func wIDs(s *Session) []string {
	var out []string
	for _, n := range s.Nodes {
		out = append(out, n.ID)
	}
	return out
}

func wKeys(o *Object) []string {
	out := []string{}
	for _, f := range o.Fields {
		out = append(out, f.Key)
	}
	return out
}

// ------------------------------------------------ §4 worked example

// workedScript is §4 turns 1–3; reload between the manual run and turn 3
// gives variant A, none gives variant B.
func workedScript(reload bool) string {
	r := ""
	if reload {
		r = "reload"
	}
	return `session id=local_0a1b2c3d4e
user id=9f1c2a7b text="list files"
reply
think text=hmm
say text="Let me look"
tool call=toolu_01 name=bash args="{\"cmd\":\"ls\"}" result="a.txt\nb.txt" object
say text="There are 2 files"
done
manual id=5e6f7a8b9c0d name=word_count args="{\"text\": \"hi\"}"
exec id=1a2b3c4d5e6f prompt="count the words" reply="2 words"
end output=2
` + r + `
user id=c0ffee12 text=thanks
reply
say text="you're welcome"
done
`
}

func TestWriteWorkedExampleNodes(t *testing.T) {
	for _, variant := range []struct {
		name     string
		reload   bool
		u3Parent string
	}{{"A", true, fF}, {"B", false, a1}} {
		t.Run(variant.name, func(t *testing.T) {
			r, _ := wRun(t, workedScript(variant.reload))
			s := r.Session()
			assert.Equal(t, "local_0a1b2c3d4e", s.ID)
			assert.Equal(t, a3, s.HeadID)
			// The node table of §4 (Fx's name is the README's "model-x").
			want := []struct {
				seq                      int
				id, role, name, calledBy string
				parent                   any // nil = no metadata.parent_id
			}{
				{0, "ROOT", "user", "", "", nil},
				{1, u1, "user", "", "ROOT", nil},
				{2, a1, "llm", "", u1, u1},
				{3, t1, "code", "bash", a1, nil},
				{4, fF, "code", "word_count", "ROOT", nil},
				{5, fx, "llm", "model-x", fF, nil},
				{6, u3, "user", "", "ROOT", variant.u3Parent},
				{7, a3, "llm", "", u3, u3},
			}
			require.Len(t, s.Nodes, len(want))
			for i, w := range want {
				n := s.Nodes[i]
				assert.Equal(t, w.id, n.ID)
				assert.Equal(t, w.seq, n.Seq, w.id)
				assert.Equal(t, Float(1782000000.0+1.5*float64(w.seq)), n.CreatedAt, w.id)
				assert.Equal(t, w.role, n.Role, w.id)
				assert.Equal(t, w.name, n.Name, w.id)
				assert.Equal(t, w.calledBy, n.CalledBy, w.id)
				p, has := n.Metadata.Get("parent_id")
				assert.Equal(t, w.parent != nil, has, w.id)
				assert.Equal(t, w.parent, p, w.id)
			}
			// The message columns of the table.
			v := r.View()
			msgs := []struct {
				id, role, parent string
				calledBy         any
			}{
				{u1, "user", "ROOT", nil}, {a1, "assistant", u1, u1}, {t1, "tool", a1, nil},
				{fF, "tool", "ROOT", nil}, {fx, "assistant", fF, fF},
				{u3, "user", variant.u3Parent, nil}, {a3, "assistant", u3, u3},
			}
			require.Len(t, v.Messages, len(msgs))
			for i, w := range msgs {
				m := v.Messages[i]
				assert.Equal(t, w.id, msgID(m))
				assert.Equal(t, w.role, m.Val("role"), w.id)
				assert.Equal(t, w.parent, m.Val("parent_id"), w.id)
				cb, has := m.Get("called_by")
				assert.Equal(t, w.calledBy != nil, has, w.id)
				assert.Equal(t, w.calledBy, cb, w.id)
			}
			// Aggregation: t1 folds into a1; all has 6 rows.
			assert.Equal(t, []string{u1, a1, fF, fx, u3, a3}, ids(v.All))
			calls := rowByID(v.All, a1).Val("tool_calls").([]any)
			require.Len(t, calls, 1)
			assert.Equal(t, newObject("tool_call_id", t1, "tool", "bash", "input", `{"cmd": "ls"}`,
				"result", "a.txt\nb.txt", "is_error", false), calls[0])
			assert.Len(t, rowByID(v.All, a1).Val("blocks").([]any), 4, "thinking, text, tool, text")
		})
	}
}

func TestWriteWorkedExampleTurnOne(t *testing.T) {
	r, _ := wRun(t, workedScript(true))
	root := wNode(t, r, "ROOT")
	assert.Equal(t, `{"display": "root"}`, pyDumps(root.Metadata))
	assert.Equal(t, "", root.Output)
	assert.Equal(t, `{"source": "web"}`, pyDumps(wNode(t, r, u1).Metadata), "CH null: parent omitted")
	n := wNode(t, r, a1)
	assert.Equal(t, "Let me lookThere are 2 files", n.Output, "text blocks concatenated, stripped")
	assert.Equal(t, []string{"parent_id", "source", "status", "worker_id", "model", "provider", "token_model", "extra"},
		wKeys(n.Metadata))
	assert.Equal(t, "completed", n.Metadata.Val("status"))
	// The tool block as R's dispatcher builds it, type first and no id
	// (corpus/realwriter dispatcher_1_0's reply has the same form).
	assert.Equal(t, `{"tool_calls": [{"id": "toolu_01", "tool_call_id": "toolu_01", "tool": "bash", "input": "{\"cmd\": \"ls\"}", "result": "a.txt\nb.txt", "is_error": false}], `+
		`"blocks": [{"type": "thinking", "text": "hmm"}, {"type": "text", "text": "Let me look"}, `+
		`{"type": "tool", "tool": "bash", "tool_call_id": "toolu_01", "input": "{\"cmd\": \"ls\"}", "result": "a.txt\nb.txt", "is_error": false}, `+
		`{"type": "text", "text": "There are 2 files"}]}`, n.Metadata.Val("extra"))
	tool := wNode(t, r, t1)
	assert.Equal(t, `{"cmd": "ls"}`, pyDumps(tool.Input))
	assert.Equal(t, `{"tool_call_id": "toolu_01", "is_error": false}`, pyDumps(tool.Metadata))
	f := wNode(t, r, fF)
	assert.Equal(t, `{"text": "hi", "runtime": "<Runtime>"}`, pyDumps(f.Input))
	assert.Equal(t, Int("2"), f.Output)
	assert.Equal(t, `{"expose": "io", "status": "completed", "duration_seconds": 0.5}`, pyDumps(f.Metadata))
	x := wNode(t, r, fx)
	assert.Equal(t, `null`, pyDumps(x.Input))
	assert.Equal(t, `{"status": "completed", "prompt_text": "count the words"}`, pyDumps(x.Metadata))
}

func TestWriteWorkedExampleHeads(t *testing.T) {
	_, views := wRun(t, workedScript(false))
	var stored []string
	for _, v := range views {
		stored = append(stored, v.StoredHead)
	}
	// session user reply think say tool say done manual exec end user reply say done
	assert.Equal(t, []string{"", u1, a1, a1, a1, a1, a1, a1, a1, a1, fF, u3, a3, a3, a3}, stored)
	// After turn 2 the head sits on F: §5.1 L3, only the F card.
	afterEnd := views[10]
	assert.Equal(t, []string{fF}, ids(afterEnd.Chain))
	assert.Equal(t, "status", afterEnd.Chain[0].Val("type"))
}

func TestWriteWorkedExampleVariantA(t *testing.T) {
	r, _ := wRun(t, workedScript(true))
	s := r.Session()
	all := aggregateToolMessages(getMessages(s))
	assert.Equal(t, []string{fF, u3, a3}, ids(linearHistory(all, a3)))
	v := r.View()
	assert.Equal(t, []string{fF, u3, a3}, ids(v.Branch), "get_branch stops: u1 has a conv child")
	assert.False(t, v.FallbackUsed, "not longer → keep")
	require.Equal(t, []string{fF, u3, a3}, ids(v.Chain), "R: [F-card, u3, a3]; u1, a1 missing")
	assert.Equal(t, "status", v.Chain[0].Val("type"))
	assert.Equal(t, "runtime", v.Chain[0].Val("display"))
	assert.Equal(t, "word_count", v.Chain[0].Val("function"))
	assert.Equal(t, []string{"ROOT", u1, a1, t1, fF, u3, a3}, v.Render, "Fx hidden by expose io")
	assert.Equal(t, headAt(a3), v.HeadID)
}

func TestWriteWorkedExampleVariantB(t *testing.T) {
	r, _ := wRun(t, workedScript(false))
	s := r.Session()
	all := aggregateToolMessages(getMessages(s))
	assert.Equal(t, []string{u1, a1, u3, a3}, ids(linearHistory(all, a3)))
	v := r.View()
	assert.Equal(t, []string{u1, a1, u3, a3}, ids(v.Branch))
	assert.False(t, v.FallbackUsed)
	assert.Equal(t, []string{u1, a1, u3, a3}, ids(v.Chain), "the F card is what is missing")
	assert.True(t, v.Chain[1].Has("tool_calls"))
}

// TestWriteWorkedExampleContinuation is §4's continuation (turns 4–6),
// variant A, without a reload after the failed turn 5.
func TestWriteWorkedExampleContinuation(t *testing.T) {
	r, _ := wRun(t, workedScript(true)+`
user id=u4 text="analyze it"
reply
fn id=G name=analyze args={}
exec id=Gx prompt=plan reply=ok
fn id=H name=helper args={} via-exec
end output="\"h\""
end output="\"g\""
task call=toolu_03 id=S attach=A text="look around" label=scout rooted
done
user id=u5 text=again
reply
error-folded type=RuntimeError msg=boom
user id=u6 text=more
reply
say text=partial
cancel
`)
	s := r.Session()
	seqs := map[string]int{}
	for _, n := range s.Nodes {
		seqs[n.ID] = n.Seq
	}
	for id, seq := range map[string]int{"u4": 8, "u4_reply": 9, "G": 10, "Gx": 11, "H": 12, "S": 13,
		"S_reply": 14, "A": 15, "u4_reply_t_toolu_03": 16, "u5": 17, "u5_reply": 18, "u6": 19, "u6_reply": 20} {
		assert.Equal(t, seq, seqs[id], id)
	}
	assert.Equal(t, "u4_reply", wNode(t, r, "G").CalledBy)
	assert.Equal(t, "G", wNode(t, r, "Gx").CalledBy)
	assert.Equal(t, "Gx", wNode(t, r, "H").CalledBy)
	assert.Equal(t, "", wNode(t, r, "A").CalledBy)
	assert.Equal(t, "u4_reply", wNode(t, r, "A").Metadata.Val("parent_id"))
	// a4 has three conversation children: S, A and u5.
	var kids []string
	for _, n := range s.Nodes {
		if n.Metadata.Val("parent_id") == "u4_reply" {
			kids = append(kids, n.ID)
		}
	}
	assert.Equal(t, []string{"S", "A", "u5"}, kids)
	a5 := wNode(t, r, "u5_reply")
	assert.Equal(t, "[error] RuntimeError: boom", a5.Output)
	assert.Equal(t, "failed", s.Meta.Val("status"))
	assert.Equal(t, "u5", wNode(t, r, "u6").Metadata.Val("parent_id"), "no reload: u6 is a sibling of a5")
	a6 := wNode(t, r, "u6_reply")
	assert.Equal(t, "cancelled", a6.Metadata.Val("status"))
	assert.Equal(t, "partial", a6.Output)
	assert.Equal(t, "u6_reply", s.HeadID)

	v := r.View()
	// G and the task tool row fold into a4, H into Gx.
	var folded []string
	for _, c := range rowByID(v.All, "u4_reply").Val("tool_calls").([]any) {
		folded = append(folded, c.(*Object).Str("tool_call_id"))
	}
	assert.Equal(t, []string{"G", "u4_reply_t_toolu_03"}, folded)
	require.NotNil(t, rowByID(v.All, "Gx").Val("tool_calls"))
	// a6→u6→u5→a4→u4→a3→u3→F; A spliced after a4; F becomes a card.
	assert.Equal(t, []string{fF, u3, a3, "u4", "u4_reply", "A", "u5", "u6", "u6_reply"}, ids(v.Chain))
	assert.False(t, v.FallbackUsed)
}

// ------------------------------------------------------------ §5

func TestWriteL1ThreeManualRuns(t *testing.T) {
	r, _ := wRun(t, scriptL1)
	v := r.View()
	assert.Equal(t, "F3", v.StoredHead)
	assert.Equal(t, []string{"F1", "F2", "F3"}, ids(v.Branch))
	assert.True(t, v.FallbackUsed)
	require.Equal(t, []string{"F1", "F2", "F3"}, ids(v.Chain), "R: all three cards")
	for _, row := range v.Chain {
		assert.Equal(t, "status", row.Val("type"))
	}
}

// R0: the fn-form route (R's webui/routes/chat.py, post_function) creates
// ROOT through the graph shim, whose append moves the in-memory head there,
// then sets the session's title with update_session, which persists the
// in-memory head: meta holds ROOT while a run first in a session is under
// way, and the run once it ends.
func TestWriteManualPersistsHeadBeforeRun(t *testing.T) {
	_, views := wRun(t, `
manual id=F name=f args="{}"
end
`)
	require.Len(t, views, 2)
	assert.Equal(t, "ROOT", views[0].StoredHead)
	assert.Equal(t, "F", views[1].StoredHead)
}

// R13: a manual run that ends in an error leaves the head where it was:
// R's forced-tool path moves it only to the row its subprocess reports,
// which it reports only for a run that returned (process_runner.py).
func TestWriteFailedManualRunKeepsHead(t *testing.T) {
	_, views := wRun(t, `
manual id=F name=f args="{}"
end error=boom
`)
	assert.Equal(t, "ROOT", views[1].StoredHead)
}

func TestWriteL2FunctionBeforeFirstTurn(t *testing.T) {
	r, _ := wRun(t, scriptL2)
	assert.False(t, wNode(t, r, "u1").Metadata.Has("parent_id"), "CH still null")
	v := r.View()
	assert.Equal(t, "u1_reply", v.StoredHead)
	assert.Equal(t, []string{"F", "u1", "u1_reply"}, ids(v.Branch))
	assert.True(t, v.FallbackUsed)
	require.Equal(t, []string{"F", "u1", "u1_reply"}, ids(v.Chain), "R shows the F card")
	assert.Equal(t, "status", v.Chain[0].Val("type"))
	assert.Equal(t, "null", v.Chain[0].Val("content"), "end without output: null")
}

func TestWriteL3HeadOnFunctionAfterChat(t *testing.T) {
	r, _ := wRun(t, scriptL3)
	v := r.View()
	assert.Equal(t, "F", v.StoredHead)
	assert.Equal(t, []string{"F"}, ids(v.Branch))
	assert.False(t, v.FallbackUsed)
	assert.Equal(t, []string{"F"}, ids(v.Chain), "not fixed at R")
}

func TestWriteL4TwoRootParentedUsers(t *testing.T) {
	r, _ := wRun(t, scriptL4ForkRoot)
	assert.Equal(t, `{"source": "cli"}`, pyDumps(wNode(t, r, "u2").Metadata))
	assert.Equal(t, "cli", wNode(t, r, "u2_reply").Metadata.Val("source"))
	v := r.View()
	assert.Equal(t, []string{"u2", "u2_reply"}, ids(v.Branch))
	assert.Equal(t, []string{"u2", "u2_reply"}, ids(v.Chain), "not fixed at R")
	assert.Equal(t, Int("2"), v.Chain[0].Val("sibling_total"))
	c, ok := r.ClientHead()
	assert.True(t, ok)
	assert.Equal(t, "u1_reply", c, "a cli turn does not move CH")
}

func TestWriteUserRowsKeptByRuntimeCards(t *testing.T) {
	// §5.2: u1 a1 F(ROOT) u3(parent F) a3, chain contains F, u3, a3.
	r, _ := wRun(t, script52)
	assert.Equal(t, []string{"F", "u3", "u3_reply"}, ids(r.View().Chain), "u3, a3 survive (476aa8f6)")
	r, _ = wRun(t, script52+"checkout id=Fx\n")
	assert.Equal(t, []string{"F"}, ids(r.View().Chain), "Fx absorbed by the card")
}

// -------------------------------------------------------------- ops

func TestWriteClock(t *testing.T) {
	r, views := wRun(t, `
flag set=A
user id=u1 text=hi
reply
done
user id=u2 text=again
`)
	var got []any
	for _, n := range r.Session().Nodes {
		got = append(got, n.CreatedAt)
	}
	assert.Equal(t, []any{Float(1782000000.0), Float(1782000001.5), Float(1782000003.0), Float(1782000004.5)}, got)
	assert.Equal(t, "", views[0].StoredHead, "flag writes nothing")
	assert.Equal(t, "u2", r.Session().HeadID)
	assert.True(t, r.Busy())
	assert.Equal(t, "u2", r.pendingTurn())
}

// TestWriteDispatchFirstTurnClock: R's dispatcher stamps its user row as it
// builds it, before it writes ROOT, so a session's first turn has ROOT's
// time (corpus/realwriter dispatcher_1_0: ROOT 1796119626.8832245, the
// user 1796119626.8832); a later turn reads the clock after the rows before
// it. (The rooted form, an older writer, is stamped as it is appended.)
func TestWriteDispatchFirstTurnClock(t *testing.T) {
	r, _ := wRun(t, `
dispatch id=d1 text=one
reply
done
dispatch id=d2 text=two
`)
	var got []any
	for _, n := range r.Session().Nodes {
		got = append(got, n.CreatedAt)
	}
	assert.Equal(t, []any{Float(1782000000.0), Float(1782000000.0), Float(1782000003.0), Float(1782000004.5)}, got, "the clock ticks once per node appended")
}

// R11: the web server's conversation of a session (R's _sessions entry,
// webui/server.py _get_or_create_session) is made when a web op first needs
// it, from the head the store's index holds then (a load makes it only of a
// session the store holds); a crash ends it with the server.
func TestWriteConversationMadeOnFirstWebOp(t *testing.T) {
	r, _ := wRun(t, `
reload
fork-root id=d1 text=a
reply
done
user id=u1 text=b
reply
crash
user id=u2 text=c
`)
	assert.Equal(t, "d1_reply", wNode(t, r, "u1").Metadata.Val("parent_id"), "made at u1, from the store's head")
	assert.Equal(t, "u1_reply", wNode(t, r, "u2").Metadata.Val("parent_id"), "made again after the crash, from the head it persisted")
}

// R12: a web action in R ends with _save_session (webui/_execute/__init__.py:
// _execute_in_context), which hands the server's conversation to
// update_session: a failed web turn's head goes back to where the
// conversation stands, the user row; a dispatcher turn's stays on the
// failed reply.
func TestWriteFoldedErrorOfWebTurn(t *testing.T) {
	_, views := wRun(t, `
user id=u1 text=x
reply
error-folded type=RuntimeError msg=boom
dispatch id=d1 text=y
reply
error-folded type=RuntimeError msg=boom
`)
	assert.Equal(t, "u1", views[2].StoredHead)
	assert.Equal(t, "d1_reply", views[5].StoredHead)
}

func TestWriteDispatchInherit(t *testing.T) {
	r, _ := wRun(t, `
dispatch id=d1 text=one rooted
`)
	// Fresh session: ensureRoot moves the in-memory head to ROOT, get_branch
	// and get_messages are empty → the in-memory head.
	assert.Equal(t, `{"source": "cli", "parent_id": "ROOT"}`, pyDumps(wNode(t, r, "d1").Metadata))
	assert.Equal(t, "ROOT", r.InMemoryHead())
	assert.Equal(t, "", r.Session().HeadID, "no meta write yet")
	// No web op has made the server's conversation yet: the next one makes
	// it from the in-memory head (R11).
	ch, ok := r.ClientHead()
	assert.True(t, ok)
	assert.Equal(t, "ROOT", ch)

	r, _ = wRun(t, `
dispatch id=d1 text=one rooted
reply
done
dispatch id=d2 text=two rooted
reply
done
dispatch id=d3 text=three parent=d1 rooted
reply
done
dispatch id=d4 text=four parent=none rooted
`)
	assert.Equal(t, "d1_reply", wNode(t, r, "d2").Metadata.Val("parent_id"), "last id of get_branch")
	assert.Equal(t, "d1", wNode(t, r, "d3").Metadata.Val("parent_id"))
	assert.False(t, wNode(t, r, "d4").Metadata.Has("parent_id"))
	assert.Equal(t, "d3_reply", r.InMemoryHead(), "dispatch moves no head")

	// get_branch empty but messages exist: the head is a rewound reply.
	r, _ = wRun(t, `
legacy-user id=x1 text=a
legacy-reply id=x2 text=b parent=x1
rewind id=x2
dispatch id=d1 text=c rooted
`)
	assert.Equal(t, "x1", wNode(t, r, "d1").Metadata.Val("parent_id"), "last id of get_messages")
}

// R5: the rerun of a turn is built from the message it reruns, as R's
// _fork_user_turn_and_run (webui/_chat_routes.py) builds it: parent_id,
// forked_from, the message's display when it has one, edit_of; no source
// (the original's own retries in corpus/realwriter hold none).
func TestWriteRetryCopiesDisplay(t *testing.T) {
	r, _ := wRun(t, `
user id=u1 text=run form=function
reply
done
retry of=u1 id=n1
reply
done
edit of=n1 id=e1 text=again
`)
	assert.Equal(t, `{"parent_id": "ROOT", "forked_from": "u1", "display": "runtime"}`, pyDumps(wNode(t, r, "n1").Metadata))
	assert.Equal(t, `{"parent_id": "ROOT", "forked_from": "n1", "display": "runtime", "edit_of": "n1"}`, pyDumps(wNode(t, r, "e1").Metadata))
}

// The older writers' rerun (`web`): the web source first, no display
// copied, as the reruns of corpus/conformance hold.
func TestWriteRerunOfTheOlderWriters(t *testing.T) {
	r, _ := wRun(t, `
user id=u1 text=run form=function
reply
done
retry of=u1 id=n1 web
reply
done
edit of=n1 id=e1 text=again web
`)
	assert.Equal(t, `{"source": "web", "parent_id": "ROOT", "forked_from": "u1"}`, pyDumps(wNode(t, r, "n1").Metadata))
	assert.Equal(t, `{"source": "web", "parent_id": "ROOT", "forked_from": "n1", "edit_of": "n1"}`, pyDumps(wNode(t, r, "e1").Metadata))
}

func TestWriteRetryAndEdit(t *testing.T) {
	r, _ := wRun(t, `
user id=u1 text=hi
reply
done
user id=u2 text=more
reply
say text=x
done
retry of=u2_reply id=n2
reply
done
edit of=u1 id=e1 text=changed
`)
	n2 := wNode(t, r, "n2")
	assert.Equal(t, "", n2.CalledBy)
	assert.Equal(t, "more", n2.Output)
	// R5: R's _fork_user_turn_and_run writes no source
	assert.Equal(t, `{"parent_id": "u1_reply", "forked_from": "u2"}`, pyDumps(n2.Metadata))
	e1 := wNode(t, r, "e1")
	assert.Equal(t, "changed", e1.Output)
	assert.Equal(t, `{"parent_id": "ROOT", "forked_from": "u1", "edit_of": "u1"}`, pyDumps(e1.Metadata))
	assert.Equal(t, "e1", r.Session().HeadID)
	c, _ := r.ClientHead()
	assert.Equal(t, "e1", c)
	assert.Equal(t, "e1", r.pendingTurn())

	// No assistant child (a standalone error row is role system): head moves back to the user.
	r, _ = wRun(t, `
user id=u1 text=hi
error-standalone id=E type=ValueError msg=bad
retry of=u1 id=unused
`)
	assert.Equal(t, "u1", r.Session().HeadID)
	assert.Equal(t, "u1", r.pendingTurn())
	assert.Nil(t, r.Session().byID("unused"))
	e := wNode(t, r, "E")
	assert.Equal(t, "[error] ValueError: bad", e.Output)
	assert.Equal(t, `{"role": "system", "parent_id": "u1", "trace": "Traceback ..."}`, pyDumps(e.Metadata))
	require.NoError(t, r.Apply(ops.Reply{}))
	assert.Equal(t, "u1_reply", r.Session().HeadID)

	// Retry of a legacy user with parent null keeps the null.
	r, _ = wRun(t, `
legacy-user id=x1 text=a parent=null
legacy-reply id=x2 text=b parent=x1
retry of=x2 id=x3
`)
	p, has := wNode(t, r, "x3").Metadata.Get("parent_id")
	assert.True(t, has)
	assert.Nil(t, p)
}

func TestWriteCheckoutAndReload(t *testing.T) {
	r, _ := wRun(t, scriptCheckoutThenTurn)
	assert.Equal(t, "u1_reply", wNode(t, r, "u3").Metadata.Val("parent_id"))

	r, _ = wRun(t, `
manual id=F name=fn args={}
end
`)
	_, ok := r.ClientHead()
	assert.False(t, ok, "a manual run does not move CH")
	require.NoError(t, r.Apply(ops.Reload{}))
	c, ok := r.ClientHead()
	assert.True(t, ok)
	assert.Equal(t, "F", c)
}

// Writers (ops/README.md, writer): each has its own CH and turn in
// progress; the store, meta.json and the clock are the session's; one that
// takes over reads the in-memory head from meta.json's head_id.
func TestWriteWriters(t *testing.T) {
	r, _ := wRun(t, `
user id=u1 text=hi
reply
done
writer name=w2 set=A
user id=u2 text=more
reply
done
writer name=w1 set=off
user id=u3 text=again
`)
	// R11: w2 makes its conversation at its first web op, from the head it
	// re-read (the persisted u1_reply)
	assert.Equal(t, "u1_reply", wNode(t, r, "u2").Metadata.Val("parent_id"))
	assert.Equal(t, "u1_reply", wNode(t, r, "u3").Metadata.Val("parent_id"), "w1's browser still shows a1")
	assert.Equal(t, Float(1782000000.0+1.5*5), wNode(t, r, "u3").CreatedAt, "one clock: ROOT, u1, a1, u2, b2, then u3")
	assert.Equal(t, "u3", r.Session().HeadID)

	// Mid-turn: w1's legacy tool row moved only the in-memory head; w2
	// takes over at the persisted head (the reply) and its script row's
	// meta write persists its own head, not the tool row.
	r, _ = wRun(t, `
user id=u1 text=hi
reply
tool call=c1 name=bash args={} result=ok legacy
writer name=w2 set=off
script what=fn id=s1 name=f
writer name=w1 set=off
done
`)
	assert.Equal(t, "u1_reply", r.Session().HeadID)
	require.NoError(t, r.Apply(ops.Writer{Name: "w2", Set: "off"}))
	assert.Equal(t, "u1_reply", r.InMemoryHead())
	assert.False(t, r.Busy(), "w2's turn ended when it wrote its script row")
	require.NoError(t, r.Apply(ops.Writer{Name: "w1", Set: "off"}))
	require.Error(t, r.Apply(ops.Reply{}), "w1's turn ended with done")
}

func TestWriteSpawn(t *testing.T) {
	r, _ := wRun(t, `
session id=local_spawn
user id=u1 text=hi
reply
done
spawn mode=inherit cmd=C id=S attach=A text="do it" label=L rooted
`)
	c := wNode(t, r, "C")
	assert.Equal(t, "/spawn do it", c.Output)
	assert.Equal(t, `{"source": "web", "function": "task", "parent_id": "u1_reply"}`, pyDumps(c.Metadata))
	assert.Equal(t, `{"parent_id": "C", "source": "agent_spawn"}`, pyDumps(wNode(t, r, "S").Metadata))
	sr := wNode(t, r, "S_reply")
	assert.Equal(t, "sub done", sr.Output)
	assert.Equal(t, `{"parent_id": "S", "status": "completed"}`, pyDumps(sr.Metadata))
	a := wNode(t, r, "A")
	assert.Equal(t, "u1_reply", a.CalledBy, "C's parent_id")
	assert.Equal(t, "(done)", a.Output)
	assert.Equal(t, `{"display": "runtime", "function": "attach", "is_error": false, "attach": {"session_id": "local_spawn", "head_id": "S_reply", "label": "L", "prompt": "do it"}}`,
		pyDumps(a.Metadata))
	assert.Equal(t, "S_reply", r.Session().HeadID)
	ch, _ := r.ClientHead()
	assert.Equal(t, "C", ch)
	assert.Equal(t, []string{"ROOT", "u1", "u1_reply", "C", "S", "S_reply", "A"}, wIDs(r.Session()))

	r, _ = wRun(t, `spawn mode=clean cmd=C id=S attach=A text=x label=L rooted`)
	assert.Equal(t, `{"source": "web", "function": "task"}`, pyDumps(wNode(t, r, "C").Metadata))
	assert.Equal(t, `{"source": "agent_spawn"}`, pyDumps(wNode(t, r, "S").Metadata))
	assert.Equal(t, "C", wNode(t, r, "A").CalledBy, "no parent: C itself")
}

// R's /spawn (the adapter's run of this script through the original at R:
// webui/_execute/__init__.py, _run_spawn): the command as typed, the
// sub-agent's reply as every agent turn's (its model once the session
// records one: a web turn saved it), the attach pointer with the final
// text, and the head back on the command row.
func TestWriteSpawnAsR(t *testing.T) {
	r, _ := wRun(t, `
session id=local_0000000001
user id=u1 text=hello
reply
done
spawn mode=inherit cmd=C id=S attach=A text="look around" label=scout
spawn mode=clean cmd=C2 id=S2 attach=A2 text=" again "
`)
	assert.Equal(t, "/spawn scout: look around", wNode(t, r, "C").Output)
	assert.Equal(t, `{"source": "web", "function": "task", "parent_id": "u1_reply"}`, pyDumps(wNode(t, r, "C").Metadata))
	assert.Equal(t, `{"parent_id": "C", "source": "agent_spawn", "peer_display": null, "peer_id": null, "agent_id": "main"}`,
		pyDumps(wNode(t, r, "S").Metadata))
	assert.Equal(t, `{"parent_id": "S", "source": "agent_spawn", "status": "completed", "worker_id": "w1", "model": "model-x", "token_model": "model-x", "extra": "{\"tool_calls\": [], \"blocks\": [{\"type\": \"text\", \"text\": \"sub done\"}]}"}`,
		pyDumps(wNode(t, r, "S_reply").Metadata))
	a := wNode(t, r, "A")
	assert.Equal(t, "u1_reply", a.CalledBy)
	assert.Equal(t, "sub done", a.Output)
	assert.Equal(t, `{"display": "runtime", "function": "attach", "is_error": false, "agent_id": "main", "attach": {"session_id": "local_0000000001", "head_id": "S_reply", "label": "scout", "prompt": "look around", "source_commit_id": null}}`,
		pyDumps(a.Metadata))
	assert.Equal(t, "/spawn --clean :  again", wNode(t, r, "C2").Output, "the line typed, stripped at its ends")
	assert.Equal(t, "again", wNode(t, r, "S2").Output)
	assert.Equal(t, "C", wNode(t, r, "A2").CalledBy, "C2's parent")
	assert.Equal(t, "C2", r.Session().HeadID)

	// First in a session: no model saved yet, the head on the command row.
	r, _ = wRun(t, `spawn mode=inherit cmd=C id=S attach=A text="look around" label=scout`)
	assert.False(t, wNode(t, r, "S_reply").meta().Has("model"))
	assert.Equal(t, "C", r.Session().HeadID)
	assert.Equal(t, "C", wNode(t, r, "A").CalledBy)
}

func TestWriteTask(t *testing.T) {
	r, views := wRun(t, `
user id=u1 text=hi
reply
task call=c1 id=S attach=A text=go label=L async rooted
say text=ok
done
`)
	assert.Equal(t, "S_reply", views[2].StoredHead, "A's head move is undone")
	assert.Equal(t, "S_reply", r.Session().Nodes[4].ID)
	a := wNode(t, r, "A")
	assert.Equal(t, "", a.CalledBy)
	assert.Equal(t, "(running)", a.Output)
	assert.Equal(t, `{"parent_id": "u1_reply", "display": "runtime", "function": "attach", "is_error": false, "attach": {"session_id": "local_0000000000", "head_id": "S_reply", "label": "L", "prompt": "go", "status": "running"}}`,
		pyDumps(a.Metadata))
	tr := wNode(t, r, "u1_reply_t_c1")
	assert.Equal(t, "task", tr.Name)
	assert.Equal(t, "u1_reply", tr.CalledBy)
	assert.Equal(t, "(running)", tr.Output)
	assert.Equal(t, `{"prompt": "go"}`, pyDumps(tr.Input))
	assert.Equal(t, []string{"ROOT", "u1", "u1_reply", "S", "S_reply", "A", "u1_reply_t_c1"}, wIDs(r.Session()))
	extra := wNode(t, r, "u1_reply").Metadata.Str("extra")
	assert.Contains(t, extra, `{"id": "c1", "tool_call_id": "c1", "tool": "task", "input": "{\"prompt\": \"go\"}", "result": "(running)", "is_error": false}`)
	assert.Equal(t, "u1_reply", r.Session().HeadID)
}

func TestWriteLegacyToolAndCrash(t *testing.T) {
	r, views := wRun(t, `
user id=u1 text=hi
reply
tool call=k1 name=bash args={} result=out legacy object
crash
`)
	tool := wNode(t, r, "u1_reply_t_k1")
	assert.Equal(t, "", tool.CalledBy)
	assert.Equal(t, `{"tool_call_id": "k1", "is_error": false, "called_by": "u1_reply"}`, pyDumps(tool.Metadata))
	assert.Equal(t, "u1_reply", views[2].StoredHead, "the append moves only the in-memory head")
	assert.Equal(t, "u1_reply_t_k1", r.InMemoryHead())
	v := r.View()
	assert.Equal(t, "u1_reply_t_k1", v.StoredHead, "crash persists the in-memory head")
	assert.Equal(t, headAt("u1_reply_t_k1"), v.HeadID, "fix-up cannot walk: the legacy row's message parent_id is \"\"")
	assert.NotContains(t, ids(v.All), "u1_reply_t_k1", "it folds through extra.tool_use.called_by")
	assert.Equal(t, "running", wNode(t, r, "u1_reply").Metadata.Val("status"))
	assert.False(t, r.Busy())
}

func TestWriteCrashInFunction(t *testing.T) {
	r, _ := wRun(t, `
user id=u1 text=hi
reply
fn id=G name=g args="{\"n\": 1.0}" expose=full
ask id=Q question=why answer=because
ask id=Q2 question=what
crash
`)
	g := wNode(t, r, "G")
	assert.Equal(t, "u1_reply", g.CalledBy)
	assert.Equal(t, `{"n": 1.0, "runtime": "<Runtime>"}`, pyDumps(g.Input))
	assert.Nil(t, g.Output)
	assert.Equal(t, `{"expose": "full", "status": "running"}`, pyDumps(g.Metadata))
	q := wNode(t, r, "Q")
	assert.Equal(t, "G", q.CalledBy)
	assert.Equal(t, `{"question": "why"}`, pyDumps(q.Input))
	assert.Equal(t, "because", q.Output)
	assert.Equal(t, `{"status": "answered"}`, pyDumps(q.Metadata))
	assert.Equal(t, `{"status": "unanswered"}`, pyDumps(wNode(t, r, "Q2").Metadata))
	assert.Equal(t, "", wNode(t, r, "Q2").Output)
	assert.Empty(t, r.openFrames())
	assert.Equal(t, "u1_reply", r.Session().HeadID)
}

func TestWriteEndError(t *testing.T) {
	r, _ := wRun(t, `
manual id=F name=fn args={} expose=llm
end error=boom
`)
	f := wNode(t, r, "F")
	assert.Equal(t, `{"error": "boom"}`, pyDumps(f.Output))
	assert.Equal(t, `{"expose": "llm", "status": "error", "duration_seconds": 0.5}`, pyDumps(f.Metadata))
	assert.Equal(t, "ROOT", r.Session().HeadID, "R13: a run that raised leaves the head")
}

func TestWriteScriptLegacyOrphanRewind(t *testing.T) {
	r, views := wRun(t, `
script what=fn id=s1 name=prep
script what=exec id=s2
legacy-user id=x1 text=hello
legacy-reply id=x2 text=world parent=x1
orphan id=o1 name=ghost caller=nowhere
orphan id=o2 name=lost
rewind id=x1
`)
	s1 := wNode(t, r, "s1")
	assert.Equal(t, 0, s1.Seq, "no ROOT in a script session")
	assert.Equal(t, `{}`, pyDumps(s1.Input))
	assert.Equal(t, "ok", s1.Output)
	// R9: the wrapper's two clock readings are one tick apart
	assert.Equal(t, `{"expose": "io", "status": "completed", "duration_seconds": 1.5}`, pyDumps(s1.Metadata))
	s2 := wNode(t, r, "s2")
	assert.Equal(t, "model-x", s2.Name)
	assert.Nil(t, s2.Input)
	assert.Equal(t, "script reply", s2.Output)
	// R9: a script (R's session_context) moves only the in-memory head;
	// legacy-user's commit_turn persists it (x1).
	assert.Equal(t, []string{"", "", "x1", "x2", "x2", "o2", "o2"},
		[]string{views[0].StoredHead, views[1].StoredHead, views[2].StoredHead, views[3].StoredHead,
			views[4].StoredHead, views[5].StoredHead, views[6].StoredHead}, "o1 has a caller: no head move")
	assert.Equal(t, "o2", r.InMemoryHead())
	assert.Equal(t, `{"parent_id": "x1"}`, pyDumps(wNode(t, r, "x2").Metadata))
	o1 := wNode(t, r, "o1")
	assert.Equal(t, "nowhere", o1.CalledBy)
	assert.Equal(t, `{"tool_call_id": "o1", "is_error": false}`, pyDumps(o1.Metadata))
	assert.Equal(t, "orphan", o1.Output)
	assert.Equal(t, `{"rewound": true}`, pyDumps(wNode(t, r, "x1").Metadata))
	assert.NotContains(t, ids(r.View().Messages), "x1")
}

// R9: a script's function lasts one tick of the op clock, the difference of
// two readings in binary floating point as R's wrapper takes it
// (agentic_programming/function.py: time.time() - _started_at).
func TestWriteScriptFunctionDuration(t *testing.T) {
	r, _ := wRun(t, `
clock at=3.0000000000000004
script what=fn id=s1 name=prep
clock at=1e16
script what=fn id=s2 name=prep
`)
	assert.Equal(t, `{"expose": "io", "status": "completed", "duration_seconds": 1.4999999999999996}`, pyDumps(wNode(t, r, "s1").Metadata))
	assert.Equal(t, `{"expose": "io", "status": "completed", "duration_seconds": 2.0}`, pyDumps(wNode(t, r, "s2").Metadata))
}

// ---------------------------------------------------------- validity

func TestWriteValidity(t *testing.T) {
	base := `
user id=u1 text=hi
reply
done
`
	cases := []struct{ name, setup, op string }{
		{"session not first", base, "session id=x"},
		{"reply without turn", base, "reply"},
		{"think without reply", base, "think text=x"},
		{"say without reply", base, "say text=x"},
		{"tool without reply", base, "tool call=c name=n args={} result=r"},
		{"done without reply", base, "done"},
		{"cancel without reply", base, "cancel"},
		{"error-folded without reply", base, "error-folded type=T msg=m"},
		{"task without reply", base, "task call=c id=S attach=A text=t label=l"},
		{"error-standalone without turn", base, "error-standalone id=E type=T msg=m"},
		{"error-standalone after reply", base + "user id=u2 text=x\nreply\n", "error-standalone id=E type=T msg=m"},
		{"second reply", base + "user id=u2 text=x\nreply\n", "reply"},
		{"user while pending", base + "user id=u2 text=x\n", "user id=u3 text=y"},
		{"user while reply open", base + "user id=u2 text=x\nreply\n", "user id=u3 text=y"},
		{"manual while frame open", base + "manual id=F name=f args={}\n", "manual id=G name=f args={}"},
		{"checkout while pending", base + "user id=u2 text=x\n", "checkout id=u1"},
		{"exec without frame", base, "exec id=X prompt=p reply=r"},
		{"ask without frame", base, "ask id=Q question=q"},
		{"end without frame", base, "end"},
		{"fn without reply or frame", base, "fn id=G name=g args={}"},
		{"via-exec without exec", base + "manual id=F name=f args={}\n", "fn id=G name=g args={} via-exec"},
		{"duplicate user id", base, "user id=u1 text=again"},
		{"duplicate derived id", base + "legacy-user id=u2_reply text=x\nuser id=u2 text=y\n", "reply"},
		{"duplicate tool row", base + "user id=u2 text=x\nreply\ntool call=c name=n args={} result=r\n", "tool call=c name=n args={} result=r"},
		{"reserved ROOT", base, "legacy-user id=ROOT text=x"},
		{"empty id", base, "legacy-user text=x"},
		{"spawn ids collide", base, "spawn mode=inherit cmd=C id=S attach=S_reply text=t label=l"},
		{"spawn bad mode", base, "spawn mode=other cmd=C id=S attach=A text=t label=l"},
		{"bad args", base + "user id=u2 text=x\nreply\n", `tool call=c name=n args="[1]" result=r`},
		{"unparsable args", base, `manual id=F name=f args="{"`},
		{"bad end output", base + "manual id=F name=f args={}\n", `end output="{"`},
		{"retry of unknown", base, "retry of=nope id=n"},
		{"retry needs id", base, "retry of=u1"},
		{"retry above no user", base + "manual id=F name=f args={}\nend\n", "retry of=F id=n"},
		{"checkout unknown", base, "checkout id=nope"},
		{"rewind unknown", base, "rewind id=nope"},
		{"script bad what", base, "script what=other id=s"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, _ := wRun(t, c.setup)
			op, err := ops.ParseLine(c.op)
			require.NoError(t, err)
			before := wJSON(t, r.Session())
			busy, head := r.Busy(), r.InMemoryHead()
			ch, chOK := r.ClientHead()
			assert.Error(t, r.Apply(op))
			assert.Equal(t, before, wJSON(t, r.Session()), "state unchanged")
			assert.Equal(t, busy, r.Busy())
			assert.Equal(t, head, r.InMemoryHead())
			ch2, chOK2 := r.ClientHead()
			assert.Equal(t, ch, ch2)
			assert.Equal(t, chOK, chOK2)
		})
	}
	// Valid anytime: reload, rewind, crash, flag (here mid-reply).
	r, _ := wRun(t, base+"user id=u2 text=x\nreply\nreload\nrewind id=u1\nflag set=A\ncrash\n")
	assert.False(t, r.Busy())
}

func TestLegacyScript(t *testing.T) {
	text := workedScript(true)
	script, err := ops.ParseString(text)
	require.NoError(t, err)
	views, err := Legacy(script)
	require.NoError(t, err)
	_, want := wRun(t, text)
	require.Len(t, views, len(script))
	assert.Equal(t, wJSON(t, want), wJSON(t, views))
	assert.Equal(t, "local_0a1b2c3d4e", views[0].SessionID)

	// Default session id; an invalid op stops the run with its position.
	views, err = Legacy([]ops.Op{ops.UserWeb{ID: "u1", Text: "hi"}, ops.Think{Text: "x"}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "op 2")
	require.Len(t, views, 1)
	assert.Equal(t, ops.DefaultSession, views[0].SessionID)
}

// ------------------------------------------------------ writeSessionDir

func TestWriteSessionDirLayout(t *testing.T) {
	r, _ := wRun(t, `
session id=local_files
user id=u1 text="café ☕"
reply
think text="hmm"
tool call=c1 name=bash args="{\"q\": [1, 2.5, {}], \"e\": []}" result="line1\nline2 \"q\"" object
say text=" done\n"
done
`)
	dir := filepath.Join(t.TempDir(), "local_files")
	require.NoError(t, writeSessionDir(r.Session(), dir))
	entries, err := os.ReadDir(filepath.Join(dir, "history"))
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	assert.Equal(t, []string{"0000-u-ROOT.json", "0001-u-u1.json", "0002-l-u1_reply.json", "0003-c-u1_reply_t_c1.json"}, names)

	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(dir, name))
		require.NoError(t, err)
		return string(b)
	}
	// Byte layouts checked against CPython json.dumps(indent=2, ensure_ascii=False).
	assert.Equal(t, `{
  "id": "u1",
  "created_at": 1782000001.5,
  "seq": 1,
  "role": "user",
  "name": "",
  "input": null,
  "output": "café ☕",
  "called_by": "ROOT",
  "reads": [],
  "metadata": {
    "source": "web"
  }
}`, read("history/0001-u-u1.json"))
	assert.Equal(t, `{
  "id": "u1_reply_t_c1",
  "created_at": 1782000004.5,
  "seq": 3,
  "role": "code",
  "name": "bash",
  "input": {
    "q": [
      1,
      2.5,
      {}
    ],
    "e": []
  },
  "output": "line1\nline2 \"q\"",
  "called_by": "u1_reply",
  "reads": [],
  "metadata": {
    "tool_call_id": "c1",
    "is_error": false
  }
}`, read("history/0003-c-u1_reply_t_c1.json"))
	assert.Equal(t, `{
  "id": "local_files",
  "agent_id": "main",
  "title": "generated",
  "source": "web",
  "created_at": 1782000000.0,
  "updated_at": 1782000000.0,
  "head_id": "u1_reply",
  "status": "idle",
  "branches": {},
  "merged_heads": []
}`, read("meta.json"))
	assert.Equal(t, "done", wNode(t, r, "u1_reply").Output, "stripped")
	assert.True(t, strings.HasSuffix(wNode(t, r, "u1_reply").Metadata.Str("extra"),
		`{"type": "text", "text": " done\n"}]}`))
}

func TestWriteSessionDirSeqPadding(t *testing.T) {
	s := &Session{ID: "local_pad", HeadID: "big", Nodes: []*Node{
		{ID: "big", CreatedAt: Float(1), Seq: 12345, Role: "llm", Metadata: &Object{}},
	}}
	dir := filepath.Join(t.TempDir(), "local_pad")
	require.NoError(t, writeSessionDir(s, dir))
	_, err := os.Stat(filepath.Join(dir, "history", "12345-l-big.json"))
	require.NoError(t, err)
	back, err := ReadSessionDir(dir)
	require.NoError(t, err)
	require.Len(t, back.Nodes, 1)
	assert.Equal(t, []any{}, back.Nodes[0].Reads)
	assert.Equal(t, "big", back.HeadID)
	assert.Equal(t, `{"id": "local_pad", "head_id": "big"}`, pyDumps(back.Meta))
}

// A dispatcher turn stopped (R, through the adapter: its own cancel event)
// ends cancelled and marks nothing of the web server's: the session's
// cancel flag stays clear.
func TestWriteCancelDispatcherTurn(t *testing.T) {
	r, _ := wRun(t, "dispatch id=n1\nreply\nsay text=partial\ncancel\n")
	assert.Equal(t, "cancelled", wNode(t, r, "n1_reply").meta().Val("status"))
	assert.False(t, r.Stopped())
	r, _ = wRun(t, "user id=u1 text=hi\nreply\ncancel\n")
	assert.True(t, r.Stopped(), "the web stop button sets it")
}

// R's task tool runs a sub-agent only where the web chat set its session
// ContextVar: in a dispatcher turn it answers with an error text (a tool
// op's row), so the task op is refused there in every form but the older
// writers' (rooted); in a web turn it runs.
func TestWriteTaskOnlyInAWebTurn(t *testing.T) {
	for _, task := range []ops.Op{
		ops.Task{CallID: "c1", ID: "S", Attach: "A", Text: "go", Label: "L"},
		ops.Task{CallID: "c1", ID: "S", Text: "go", Label: "L", Async: true, Followup: "F"},
		ops.Task{CallID: "c1", ID: "S", Attach: "A", Text: "go", Label: "L", Turn: true},
	} {
		r, _ := wRun(t, "dispatch id=u1 text=hi\nreply")
		assert.Error(t, r.Apply(task), "%s in a dispatcher turn", ops.Format(task))
		r, _ = wRun(t, "user id=u1 text=hi\nreply")
		assert.NoError(t, r.Apply(task), "%s in a web turn", ops.Format(task))
	}
	r, _ := wRun(t, "dispatch id=u1 text=hi\nreply")
	assert.NoError(t, r.Apply(ops.Task{CallID: "c1", ID: "S", Attach: "A", Text: "go", Label: "L", Rooted: true}), "the older writers' task")
}

// An async task call as R (c69b08e49, through the adapter) stored it: the
// tool's answer first, then the runner's sub-agent under the reply, then its
// follow-up under the reply (the head set back there), and no attach
// pointer; the reply stays open and its done takes the head back.
func TestWriteTaskRunnerAsR(t *testing.T) {
	r, _ := wRun(t, "user id=u1 text=why?\nreply\n"+
		"task call=c1 id=s1 text=\"look around\" label=scout async followup=f1 task=t_64b6610a489a4b\n")
	assert.Equal(t, []string{"ROOT", "u1", "u1_reply", "u1_reply_t_c1", "s1", "s1_reply", "f1", "f1_reply"}, wIDs(r.Session()))
	tool := wNode(t, r, "u1_reply_t_c1")
	assert.Equal(t, `{"prompt": "look around", "description": "scout", "context": "inherit", "wait": false}`, tool.Input)
	assert.Equal(t, "[task spawned async] task_id=t_64b6610a489a4b\nCall await_task(task_id='t_64b6610a489a4b') "+
		"to retrieve result, or cancel_task(task_id='t_64b6610a489a4b') to stop it.", tool.Output)
	assert.Equal(t, "u1_reply", wNode(t, r, "s1").meta().Val("parent_id"))
	f := wNode(t, r, "f1")
	assert.Equal(t, "u1_reply", f.meta().Val("parent_id"))
	assert.Equal(t, "task_followup", f.meta().Val("source"))
	assert.Equal(t, "[系统消息] 你派发的子 agent \"scout\" 已经跑完了，它完整的对话记录作为附加内容嵌在上面。\n用户原本让子 agent 做的事是：look around\n"+
		"现在请你直接面向原始用户给出完整回答，基于子 agent 跑出来的结果做总结、解读、给出后续建议。不要原样复读子 agent 的最后一句话。"+
		"如果子 agent 的输出已经直接回答了用户问题，用你自己的话重新组织一遍，并补充必要的背景或上下文。", f.Output)
	assert.Equal(t, "f1_reply", r.Session().HeadID)
	require.NoError(t, r.Apply(ops.Say{Text: "after"}), "the reply is open again")
	require.NoError(t, r.Apply(ops.Done{}))
	assert.Equal(t, "u1_reply", r.Session().HeadID)
	assert.Equal(t, "after", wNode(t, r, "u1_reply").Output)
}

// TestReloadOnAFoldedHead: R's load climbs from a head on a tool row (which
// its aggregation folds into the reply) to the reply, and makes that the
// conversation's head (webui/ws_actions/session.py, handle_load_session):
// the next web turn records the reply as its parent, as R stored it for
// this script.
func TestReloadOnAFoldedHead(t *testing.T) {
	r, _ := wRun(t, "user id=n1 text=\"{}\"\nreply\ntool call=n2 name=grep args=\"{}\"\ncrash\n"+
		"checkout id=n1_reply_t_n2\nreload\nuser id=n3 text=\"{}\"\n")
	assert.Equal(t, "n1_reply", wNode(t, r, "n3").meta().Val("parent_id"))
	assert.False(t, r.View().FallbackUsed, "the chain reaches the first turn without R's fallback")
}

// message unsaved: the append alone moves the in-memory head, and meta.json
// keeps the head it held until an op persists it (R's store persists meta
// on set_head and commit_turn, never on append_message).
func TestWriteMessageUnsaved(t *testing.T) {
	r, _ := wRun(t, `
message id=m1 role=user text=hi unsaved
message id=m2 role=assistant text=yo parent=m1 unsaved
`)
	assert.Equal(t, "m2", r.InMemoryHead())
	assert.Equal(t, "", r.Session().HeadID, "nothing persisted a head")
	require.NoError(t, r.Apply(ops.Message{ID: "m3", Role: "user", Text: "again", Parent: "m2"}))
	assert.Equal(t, "m3", r.Session().HeadID, "a saved append persists the head its append moved")
}

// A call the reply waiting on its task turn ran alongside it (R runs a
// reply's tool calls in parallel), ended while the sub-agent's user is
// pending with no reply: its row is that reply's, and its call and block
// come before the task's in the reply's extra, as R recorded them
// (corpus/realwriter local_fef26bad89: call_toolu_4 before the task
// call_x_5).
func TestWriteParallelCall(t *testing.T) {
	r, _ := wRun(t, `
user id=u1 text=hi
reply
task call=t1 id=s1 attach=a1 text=go label=L turn clean
tool call=c2 name=bash args="{}" result=ok
reply
done
done
`)
	row := wNode(t, r, "u1_reply_t_c2")
	assert.Equal(t, "u1_reply", row.CalledBy)
	extra := wNode(t, r, "u1_reply").Metadata.Str("extra")
	assert.Less(t, strings.Index(extra, `"tool_call_id": "c2"`), strings.Index(extra, `"tool_call_id": "t1"`), extra)
	require.Error(t, r.Apply(ops.Tool{CallID: "c3", Name: "bash", Args: "{}"}), "no reply open, none waiting")
}
