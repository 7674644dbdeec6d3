package model

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"sessiondag/ops"
)

// Tests of the target model. Every expected chain is derived by hand from
// ops/README.md's Intent table (IPs written next to the scripts), never by
// running the code.

// tRun applies a script op by op (each must apply) and returns the run and
// the view after every op.
func tRun(t *testing.T, text string) (*TargetRun, []TargetView) {
	t.Helper()
	r := NewTarget(ops.DefaultSession)
	script, views := applyScript(t, text, r.Apply, r.View)
	all, err := Target(script)
	require.NoError(t, err)
	require.Equal(t, views, all, "Target(script) = view after every op")
	return r, views
}

func tr(id string, calls ...string) TargetRow { return TargetRow{ID: id, Kind: "row", Calls: calls} }
func tc(id string) TargetRow                  { return TargetRow{ID: id, Kind: "card"} }

func chain(rows ...TargetRow) []TargetRow {
	if rows == nil {
		return []TargetRow{}
	}
	return rows
}

func assertIP(t *testing.T, r *TargetRun, id, want string) {
	t.Helper()
	ip, ok := r.IntendedParent(id)
	assert.True(t, ok, "%s is a conversation row", id)
	assert.Equal(t, want, ip, "IP(%s)", id)
}

// §4 worked example: u1 (IP none), a1 (IP u1, calls t1), F (card, IP
// anchor(a1) = a1), u3 (IP anchor(H) = F in both variants: the store's
// in-memory head is F after `end` whether or not the client reloaded), a3.
func TestTargetWorkedExample(t *testing.T) {
	for _, variant := range []struct {
		name   string
		reload bool
	}{{"A", true}, {"B", false}} {
		t.Run(variant.name, func(t *testing.T) {
			r, views := tRun(t, workedScript(variant.reload))
			want := chain(tr(u1), tr(a1, t1), tc(fF), tr(u3), tr(a3))
			last := views[len(views)-1]
			assert.Equal(t, TargetView{HeadID: a3, Chain: want}, last)
			assertIP(t, r, u1, "")
			assertIP(t, r, a1, u1)
			assertIP(t, r, fF, a1)
			assertIP(t, r, u3, fF)
			assertIP(t, r, a3, u3)
			for _, id := range []string{"ROOT", t1, fx} {
				assert.False(t, r.isConversationRow(id), id)
			}
			assert.Equal(t, a1, r.Anchor(t1))
			assert.Equal(t, fF, r.Anchor(fx), "a function internal → its top-level run")
			assert.Equal(t, "", r.Anchor("ROOT"))

			// Intermediate views (ops: 0 session, 1 user, 2 reply, 3 think,
			// 4 say, 5 tool, 6 say, 7 done, 8 manual, 9 exec, 10 end).
			assert.Equal(t, TargetView{Chain: chain()}, views[0], "no head yet")
			assert.Equal(t, TargetView{HeadID: u1, Chain: chain(tr(u1))}, views[1])
			assert.Equal(t, TargetView{HeadID: a1, Chain: chain(tr(u1), tr(a1))}, views[2])
			assert.Equal(t, TargetView{HeadID: a1, Chain: chain(tr(u1), tr(a1, t1))}, views[5],
				"the tool row folds into its reply; the head stays on a1")
			assert.Equal(t, TargetView{HeadID: a1, Chain: chain(tr(u1), tr(a1, t1))}, views[9],
				"F is running: the persisted head is still a1")
			assert.Equal(t, TargetView{HeadID: fF, Chain: chain(tr(u1), tr(a1, t1), tc(fF))}, views[10])
		})
	}
}

// §5.1 L1: three manual runs chain: F1 (IP none), F2 (IP F1), F3 (IP F2).
func TestTargetL1ThreeManualRuns(t *testing.T) {
	r, views := tRun(t, scriptL1)
	assert.Equal(t, TargetView{HeadID: "F3", Chain: chain(tc("F1"), tc("F2"), tc("F3"))}, views[len(views)-1])
	assertIP(t, r, "F1", "")
	assertIP(t, r, "F2", "F1")
}

// L2: a function before the first chat turn: F (IP none), u1 (IP F).
func TestTargetL2FunctionBeforeFirstTurn(t *testing.T) {
	_, views := tRun(t, scriptL2)
	assert.Equal(t, TargetView{HeadID: "u1_reply", Chain: chain(tc("F"), tr("u1"), tr("u1_reply"))},
		views[len(views)-1])
}

// L3: the head on a ROOT function after chat: F (IP a1).
func TestTargetL3HeadOnFunctionAfterChat(t *testing.T) {
	_, views := tRun(t, scriptL3)
	assert.Equal(t, TargetView{HeadID: "F", Chain: chain(tr("u1"), tr("u1_reply"), tc("F"))}, views[len(views)-1])
}

// L4: "two ROOT-parented users". The web server made its conversation of
// the session before anything was stored (the manual run's fn-form route),
// so CH is null and a dispatcher turn does not move it: the legacy web user
// u2 gets no parent_id (ROOT); its intent is to continue after u1_reply
// (IP = anchor(H) = u1_reply). A deliberate fork-root stays a root.
func TestTargetL4TwoRootParentedUsers(t *testing.T) {
	t.Run("continuation", func(t *testing.T) {
		r, views := tRun(t, `
manual id=F name=f args={}
end
dispatch id=u1 text=hi rooted
reply
done
user id=u2 text=again
reply
done
`)
		assert.False(t, r.Legacy().node("u2").Metadata.Has("parent_id"), "legacy: ROOT-parented")
		assert.Equal(t, TargetView{HeadID: "u2_reply",
			Chain: chain(tc("F"), tr("u1"), tr("u1_reply"), tr("u2"), tr("u2_reply"))}, views[len(views)-1])
	})
	t.Run("fork-root", func(t *testing.T) {
		r, views := tRun(t, scriptL4ForkRoot)
		assertIP(t, r, "u2", "")
		assert.Equal(t, TargetView{HeadID: "u2_reply", Chain: chain(tr("u2"), tr("u2_reply"))}, views[len(views)-1])
	})
}

// §5.2: chat after a manual function keeps its user rows.
func TestTargetUserRowsAfterManualFunction(t *testing.T) {
	_, views := tRun(t, script52)
	assert.Equal(t, TargetView{HeadID: "u3_reply",
		Chain: chain(tr("u1"), tr("u1_reply"), tc("F"), tr("u3"), tr("u3_reply"))}, views[len(views)-1])
}

// retry/edit write a sibling of the turn they rerun: IP(N) = IP(U). The head
// on the new branch shows only it.
func TestTargetRetryEditSiblings(t *testing.T) {
	r, views := tRun(t, twoTurns+`retry of=u2 id=u2b
reply
done
edit of=u2_reply id=u2c text=other
reply
done
retry of=u1_reply id=u1b
`)
	assertIP(t, r, "u2", "u1_reply")
	assertIP(t, r, "u2b", "u1_reply")
	assertIP(t, r, "u2c", "u1_reply") // edit of the reply climbs to u2
	assertIP(t, r, "u1b", "")         // retry of the first turn: a root
	assert.Equal(t, TargetView{HeadID: "u2b_reply",
		Chain: chain(tr("u1"), tr("u1_reply"), tr("u2b"), tr("u2b_reply"))}, views[8])
	assert.Equal(t, TargetView{HeadID: "u2c_reply",
		Chain: chain(tr("u1"), tr("u1_reply"), tr("u2c"), tr("u2c_reply"))}, views[11])
	assert.Equal(t, TargetView{HeadID: "u1b", Chain: chain(tr("u1b"))}, views[12])
}

// An edit of a script's top-level ask answer (a row of the intended tree,
// shown as a user message) writes a sibling of that answer; an edit of an ask
// row inside a function (no row of the tree) climbs from the function's
// anchor to the nearest user turn and writes a sibling of it.
func TestTargetEditOfAskRows(t *testing.T) {
	r, views := tRun(t, `
user id=u1 text=hi
reply
done
script what=ask id=q1
edit of=q1 id=e1 text=no
reply
done
manual id=F name=f args={}
ask id=Q question=why answer=because
end
edit of=Q id=e2 text=other
`)
	assertIP(t, r, "q1", "u1_reply")
	assertIP(t, r, "e1", "u1_reply") // IP(q1): the answer's sibling
	assert.Equal(t, TargetView{HeadID: "e1", Chain: chain(tr("u1"), tr("u1_reply"), tr("e1"))}, views[4])
	assertIP(t, r, "F", "e1_reply")
	assertIP(t, r, "e2", "u1_reply") // Q → F → e1_reply → e1, a user turn: IP(e1)
	assert.Equal(t, TargetView{HeadID: "e2", Chain: chain(tr("u1"), tr("u1_reply"), tr("e2"))}, views[10])
}

// A retry that writes no row (the turn has no assistant reply) adds nothing.
func TestTargetRetryWithoutNewRow(t *testing.T) {
	r, views := tRun(t, `
user id=u1 text=hi
error-standalone id=E type=RuntimeError msg=boom
retry of=u1 id=u1b
reply
done
`)
	assertIP(t, r, "E", "u1")
	assert.False(t, r.isConversationRow("u1b"))
	assert.Equal(t, TargetView{HeadID: "E", Chain: chain(tr("u1"), tr("E"))}, views[1])
	assert.Equal(t, TargetView{HeadID: "u1", Chain: chain(tr("u1"))}, views[2])
	assert.Equal(t, TargetView{HeadID: "u1_reply", Chain: chain(tr("u1"), tr("u1_reply"))}, views[4])
}

// checkout to an old node, then a new turn forks there (IP = anchor(H)).
func TestTargetCheckoutThenTurn(t *testing.T) {
	r, views := tRun(t, scriptCheckoutThenTurn)
	assertIP(t, r, "u3", "u1_reply")
	assert.Equal(t, TargetView{HeadID: "u1_reply", Chain: chain(tr("u1"), tr("u1_reply"))}, views[6])
	assert.Equal(t, TargetView{HeadID: "u3_reply",
		Chain: chain(tr("u1"), tr("u1_reply"), tr("u3"), tr("u3_reply"))}, views[len(views)-1])
}

// checkout of a function internal: anchor = the reply its top-level run
// belongs to; the next turn continues there.
func TestTargetCheckoutFunctionInternal(t *testing.T) {
	r, views := tRun(t, `
user id=u1 text=hi
reply
fn id=G name=analyze args={}
exec id=Gx prompt=p reply=r
fn id=H name=helper args={} via-exec
ask id=Q question=why answer=because
end
end
tool call=c1 name=bash args={} result=ok object
done
checkout id=H
user id=u2 text=next
`)
	assert.Equal(t, "u1_reply", r.Anchor("H"))
	assert.Equal(t, "u1_reply", r.Anchor("Q"), "ask rows are function internals")
	assert.False(t, r.isConversationRow("Q"))
	assert.Equal(t, TargetView{HeadID: "u1_reply", Chain: chain(tr("u1"), tr("u1_reply", "G", "u1_reply_t_c1"))},
		views[10], "calls: fn G and tool c1 in seq order; H is nested, not a call of the reply")
	assertIP(t, r, "u2", "u1_reply")
}

// A clean spawn: C (IP u1_reply), S a spawn root, S_reply (IP S); the view
// at S_reply is [S, S_reply] only. A is spliced after u1_reply (C's parent).
func TestTargetSpawnClean(t *testing.T) {
	r, views := tRun(t, `
user id=u1 text=hi
reply
done
spawn mode=clean cmd=C id=S attach=A text=go label=L rooted
checkout id=u1_reply
`)
	assertIP(t, r, "C", "u1_reply")
	assertIP(t, r, "S", "")
	assert.True(t, r.byID["S"].spawnRoot)
	assert.Equal(t, TargetView{HeadID: "S_reply", Chain: chain(tr("S"), tr("S_reply"))}, views[3])
	assert.Equal(t, TargetView{HeadID: "u1_reply", Chain: chain(tr("u1"), tr("u1_reply"), tr("A"))}, views[4])
}

// An inherit spawn: the path runs through C, A right after its anchor.
func TestTargetSpawnInherit(t *testing.T) {
	t.Run("after chat", func(t *testing.T) {
		r, views := tRun(t, `
user id=u1 text=hi
reply
done
spawn mode=inherit cmd=C id=S attach=A text=go label=L rooted
user id=u2 text=next
`)
		assertIP(t, r, "S", "C")
		assert.Equal(t, TargetView{HeadID: "S_reply",
			Chain: chain(tr("u1"), tr("u1_reply"), tr("A"), tr("C"), tr("S"), tr("S_reply"))}, views[3])
		assertIP(t, r, "u2", "S_reply")
	})
	t.Run("fresh session", func(t *testing.T) {
		// C has no parent: A is spliced right after C. R's /spawn leaves
		// the head on C, so the user stays where the command was typed, the
		// card showing the answer.
		_, views := tRun(t, `spawn mode=inherit cmd=C id=S attach=A text=go label=L`)
		assert.Equal(t, TargetView{HeadID: "C", Chain: chain(tr("C"), tr("A"))}, views[0])
	})
	t.Run("head on the attach row", func(t *testing.T) {
		r, views := tRun(t, `
user id=u1 text=hi
reply
done
spawn mode=inherit cmd=C1 id=S1 attach=A1 text=go label=L rooted
checkout id=u1_reply
spawn mode=clean cmd=C2 id=S2 attach=A2 text=go label=L rooted
checkout id=A1
user id=u2 text=next
`)
		// Both attach rows hang after u1_reply, in seq order.
		assert.Equal(t, TargetView{HeadID: "A1",
			Chain: chain(tr("u1"), tr("u1_reply"), tr("A1"), tr("A2"))}, views[6])
		assertIP(t, r, "u2", "A1")
		assert.Equal(t, TargetView{HeadID: "u2",
			Chain: chain(tr("u1"), tr("u1_reply"), tr("A1"), tr("A2"), tr("u2"))}, views[7])
	})
}

// The task tool: S (IP R), S_reply (IP S), A after R; the task tool row is
// one of R's calls. Once the head returns to R, S is off the path.
func TestTargetTask(t *testing.T) {
	r, views := tRun(t, `
user id=u1 text=hi
reply
say text=spawning
task call=c1 id=S attach=A text=sub label=L rooted
done
`)
	assertIP(t, r, "S", "u1_reply")
	assertIP(t, r, "S_reply", "S")
	assert.Equal(t, "u1_reply", r.Anchor("u1_reply_t_c1"))
	assert.Equal(t, TargetView{HeadID: "S_reply", Chain: chain(tr("u1"), tr("u1_reply", "u1_reply_t_c1"),
		tr("A"), tr("S"), tr("S_reply"))}, views[3])
	assert.Equal(t, TargetView{HeadID: "u1_reply", Chain: chain(tr("u1"), tr("u1_reply", "u1_reply_t_c1"),
		tr("A"))}, views[4])
}

// Crash with the head on a legacy tool row: the persisted head is the tool
// row, its anchor the reply; the next turn continues after the reply.
func TestTargetCrashHeadOnToolRow(t *testing.T) {
	r, views := tRun(t, `
user id=u1 text=hi
reply
tool call=c1 name=bash args={} result=ok legacy object
crash
`)
	assert.Equal(t, "u1_reply_t_c1", r.Legacy().Session().HeadID, "persisted head = the tool row")
	assert.Equal(t, TargetView{HeadID: "u1_reply", Chain: chain(tr("u1"), tr("u1_reply", "u1_reply_t_c1"))}, views[3])
	require.NoError(t, r.Apply(ops.UserWeb{ID: "u2", Text: "again"}))
	assertIP(t, r, "u2", "u1_reply")
}

// A rewound row is hidden but walked through; a rewound call is not shown.
func TestTargetRewind(t *testing.T) {
	_, views := tRun(t, `
user id=u1 text=hi
reply
tool call=c1 name=bash args={} result=ok object
tool call=c2 name=bash args={} result=ok object
done
user id=u2 text=two
reply
done
rewind id=u2
rewind id=u1_reply_t_c1
`)
	assert.Equal(t, TargetView{HeadID: "u2_reply",
		Chain: chain(tr("u1"), tr("u1_reply", "u1_reply_t_c1", "u1_reply_t_c2"), tr("u2_reply"))}, views[8])
	assert.Equal(t, TargetView{HeadID: "u2_reply",
		Chain: chain(tr("u1"), tr("u1_reply", "u1_reply_t_c2"), tr("u2_reply"))}, views[9])
}

// A caller-less script session chains every row (IP = anchor(H)).
func TestTargetScriptSession(t *testing.T) {
	r, views := tRun(t, `
script what=fn id=X1 name=f
script what=exec id=X2
script what=fn id=X3 name=g
`)
	assertIP(t, r, "X1", "")
	assertIP(t, r, "X2", "X1")
	assert.Equal(t, TargetView{HeadID: "X3", Chain: chain(tc("X1"), tr("X2"), tc("X3"))}, views[2])
}

// legacy-user: parent=null stays a root; no key → the previous conversation
// row in seq order; parent=X → anchor(X).
func TestTargetLegacyUser(t *testing.T) {
	r, views := tRun(t, `
legacy-user id=L1 text=a
legacy-reply id=A1 text=b parent=L1
legacy-user id=L2 text=c parent=null
legacy-reply id=A2 text=d parent=L2
legacy-user id=L3 text=e
legacy-reply id=A3 text=f parent=L3
`)
	assertIP(t, r, "L1", "")
	assertIP(t, r, "L2", "")
	assertIP(t, r, "L3", "A2")
	assert.Equal(t, TargetView{HeadID: "A2", Chain: chain(tr("L2"), tr("A2"))}, views[3])
	assert.Equal(t, TargetView{HeadID: "A3", Chain: chain(tr("L2"), tr("A2"), tr("L3"), tr("A3"))}, views[5])
}

// Orphans: caller-less → a card after the previous conversation row (a
// rewound one included); with a dangling caller → no conversation row.
func TestTargetOrphans(t *testing.T) {
	r, views := tRun(t, `
user id=u1 text=hi
reply
done
rewind id=u1_reply
orphan id=O name=bash
orphan id=O2 name=bash caller=gone
`)
	assertIP(t, r, "O", "u1_reply")
	assert.Equal(t, TargetView{HeadID: "O", Chain: chain(tr("u1"), tc("O"))}, views[4])
	assert.False(t, r.isConversationRow("O2"))
	assert.Equal(t, "", r.Anchor("O2"))
	assert.Equal(t, views[4], views[5], "a dangling-caller orphan does not move the head")
}

// dispatch: INHERIT = anchor(H), parent=X = anchor(X), none = a root. A
// dispatch does not move the head until its reply.
func TestTargetDispatch(t *testing.T) {
	r, views := tRun(t, `
user id=u1 text=hi
reply
tool call=c1 name=bash args={} result=ok object
done
dispatch id=d1 text=two rooted
reply
done
dispatch id=d2 text=three parent=u1_reply_t_c1 rooted
reply
done
dispatch id=d3 text=four parent=none rooted
`)
	assertIP(t, r, "d1", "u1_reply")
	assertIP(t, r, "d2", "u1_reply")
	assertIP(t, r, "d3", "")
	assert.Equal(t, views[3], views[4], "no head move on dispatch")
	assert.Equal(t, TargetView{HeadID: "d2_reply",
		Chain: chain(tr("u1"), tr("u1_reply", "u1_reply_t_c1"), tr("d2"), tr("d2_reply"))}, views[9])
}

// Folded error of a web turn: R's web action ends by saving the server's
// conversation, whose head the failed turn never moved from u5, so the
// store's head is u5 again and the next web turn continues what the server
// shows, u5 (legacy: a sibling of the failed reply). Of a dispatcher turn
// the head stays on the failed reply.
func TestTargetAfterFoldedError(t *testing.T) {
	r, _ := tRun(t, `
user id=u5 text=x
reply
error-folded type=RuntimeError msg=boom
user id=u6 text=y
`)
	assertIP(t, r, "u6", "u5")
	assert.Equal(t, "u5", r.Legacy().node("u6").Metadata.Val("parent_id"), "legacy: a sibling of the reply")
	r, _ = tRun(t, `
dispatch id=d5 text=x
reply
error-folded type=RuntimeError msg=boom
dispatch id=d6 text=y
`)
	assertIP(t, r, "d6", "d5_reply")
}

// Flags do not change intent: the same script with and without flag ops.
func TestTargetFlagsDoNotChangeIntent(t *testing.T) {
	plain := workedScript(false)
	_, a := tRun(t, plain)
	script, err := ops.ParseString(plain)
	require.NoError(t, err)
	var flagged []ops.Op
	for i, op := range script {
		flagged = append(flagged, op)
		if i%3 == 1 {
			flagged = append(flagged, ops.Flag{Set: "A,B"})
		}
	}
	b, err := Target(flagged)
	require.NoError(t, err)
	var drop []TargetView
	for i, op := range flagged {
		if _, ok := op.(ops.Flag); !ok {
			drop = append(drop, b[i])
		}
	}
	assert.Equal(t, a, drop)
}

// Writers taking turns: w1 writes u1, a1 (IP u1); w2 takes over at the
// persisted head a1 with a browser that has no head, and its web turn u2
// still continues what the server shows: IP anchor(H) = a1; b2 IP u2. Back
// on w1, its turn u3 continues b2 (the head it re-read), whatever its
// browser still shows (a1).
func TestTargetWritersTakeTurns(t *testing.T) {
	r, v := tRun(t, `user id=u1 text=hi
reply
done
writer name=w2 set=all
user id=u2 text=hi
reply
done
writer name=w1 set=off
user id=u3 text=hi
reply
done`)
	assertIP(t, r, "u2", "u1_reply")
	assertIP(t, r, "u3", "u2_reply")
	assert.Equal(t, chain(tr("u1"), tr("u1_reply"), tr("u2"), tr("u2_reply"), tr("u3"), tr("u3_reply")), v[len(v)-1].Chain)
}

// A turn in progress stays with its writer: w1's reply a1 (IP u1) is open
// while w2 writes a whole turn u2 (IP anchor(H) = a1, the head a1's
// placeholder persisted), b2; w1 then ends a1, which moves the head back to
// a1: the view is u1, a1, and u2's branch hangs off a1 beside it. A reply
// on w2 of the turn w1 holds is refused once w1 wrote it.
func TestTargetTurnInProgressStaysWithItsWriter(t *testing.T) {
	r, v := tRun(t, `user id=u1 text=hi
reply
writer name=w2 set=off
user id=u2 text=hi
reply
done
writer name=w1 set=off
say text=done
done`)
	assertIP(t, r, "u2", "u1_reply")
	assert.Equal(t, chain(tr("u2"), tr("u2_reply")), v[5].Chain[2:], "after w2's turn: u1, a1, u2, b2")
	assert.Equal(t, chain(tr("u1"), tr("u1_reply")), v[len(v)-1].Chain)
	r, _ = tRun(t, "dispatch id=d1 text=hi\nwriter name=w2 set=off\nretry of=d1\nreply\nwriter name=w1 set=off")
	require.Error(t, r.Apply(ops.Reply{}), "w1's reply of d1, which w2 answered")
	require.Error(t, r.Apply(ops.Writer{Name: "", Set: "off"}), "a writer without a name")
	require.Error(t, r.Apply(ops.Writer{Name: "w3", Set: "B"}), "flags that break a prerequisite")
}

// A writer that takes over a session whose head no meta write persisted
// yet (w1's manual run created ROOT and moved only the in-memory head)
// reads none: its web turn u2 is a root, and the run m1 stays a root too.
func TestTargetTakeOverReadsThePersistedHead(t *testing.T) {
	r, v := tRun(t, `manual id=m1 name=f args="{}"
writer name=w2 set=off
user id=u2 text=hi
reply
done`)
	assertIP(t, r, "m1", "")
	assertIP(t, r, "u2", "")
	assert.Equal(t, chain(tr("u2"), tr("u2_reply")), v[len(v)-1].Chain)
}

// With no head persisted the view is at the last message the load shows
// (legacy §3.5 step 3: the last row of the aggregated list), and a function
// an exec called is no message of its own: aggregation folds it into the
// exec's message (§3.4), whose seq is earlier. w1's run n1 (exec n2) and
// w2's run n3 (exec n4), no meta write between them; w1's exec then calls
// n5: the aggregated list is n1, n2 (calls n5), n3, n4, so the view is at
// n4, which stands for n3's run (IP none: w2 read no persisted head). The
// runs are a script's (run), which write no meta: a manual run persists the
// in-memory head before it starts (R0), and so leaves no such session. The
// latest node, n5, stands for n1. Rewinding n2 takes it out of the list,
// and n5 stays a row of its own, the last one: the view is at n1's run.
// With one writer the fold changes nothing: n2 and n5 both stand for n1.
func TestTargetUnpersistedHeadSkipsFoldedFunctions(t *testing.T) {
	script := `run id=n1 args="{}"
exec id=n2
writer name=w2 set=all
run id=n3 args="{}"
exec id=n4
writer name=w1 set=all
fn id=n5 args="{}" via-exec`
	r, v := tRun(t, script)
	assertIP(t, r, "n3", "")
	assert.Equal(t, TargetView{HeadID: "n3", Chain: chain(tc("n3"))}, v[len(v)-1])
	_, v = tRun(t, script+"\nrewind id=n2")
	assert.Equal(t, TargetView{HeadID: "n1", Chain: chain(tc("n1"))}, v[len(v)-1])
	_, v = tRun(t, `run id=n1 args="{}"
exec id=n2
fn id=n5 args="{}" via-exec`)
	assert.Equal(t, TargetView{HeadID: "n1", Chain: chain(tc("n1"))}, v[len(v)-1])
}

// An empty message is not sent (R's handle_chat returns on an empty text).
func TestWriteEmptyWebMessageRefused(t *testing.T) {
	r := NewLegacy(ops.DefaultSession)
	require.Error(t, r.Apply(ops.UserWeb{ID: "u1", Text: " \n\t"}))
	require.Equal(t, 0, r.NodeCount())
	require.NoError(t, r.Apply(ops.UserWeb{ID: "u1", Text: " hi "}))
	assert.Equal(t, "hi", r.node("u1").Output, "stripped, as R's handle_chat strips it")
	require.NoError(t, r.Apply(ops.Reply{}))
	require.NoError(t, r.Apply(ops.Done{}))
	require.NoError(t, r.Apply(ops.UserWeb{ID: "u2", Form: "image"}))
	assert.Equal(t, "(see attachment)", r.node("u2").Output)
}

// An invalid op is refused and changes nothing.
func TestTargetInvalidOp(t *testing.T) {
	r, _ := tRun(t, `user id=u1 text=hi`)
	before := r.View()
	assert.Error(t, r.Apply(ops.UserWeb{ID: "u2", Text: "x"}), "a turn is pending")
	assert.False(t, r.isConversationRow("u2"))
	assert.Equal(t, before, r.View())
	views, err := Target([]ops.Op{ops.UserWeb{ID: "u1", Text: "hi"}, ops.Done{}})
	assert.Error(t, err)
	assert.Len(t, views, 1)
}

// Walks are guarded against cycles (cannot arise from ops; forced here).
func TestTargetCycleGuard(t *testing.T) {
	r, _ := tRun(t, `
user id=u1 text=hi
reply
done
`)
	r.byID["u1"].ip = "u1_reply"
	v := r.View()
	assert.Equal(t, "u1_reply", v.HeadID)
	assert.Equal(t, chain(tr("u1"), tr("u1_reply")), v.Chain)
	assert.Equal(t, "", r.turnOf("nope"))
	assert.Equal(t, "u1", r.turnOf("u1_reply"))
}

func TestTargetViewJSON(t *testing.T) {
	b, err := json.Marshal(TargetView{Chain: chain()})
	require.NoError(t, err)
	assert.JSONEq(t, `{"head_id": "", "chain": []}`, string(b))
	b, err = json.Marshal(TargetView{HeadID: "a", Chain: chain(tr("u"), tr("a", "t"), tc("F"))})
	require.NoError(t, err)
	assert.JSONEq(t, `{"head_id": "a", "chain": [{"id": "u", "kind": "row"},
		{"id": "a", "kind": "row", "calls": ["t"]}, {"id": "F", "kind": "card"}]}`, string(b))
}

// A message dict of an attach pointer follows the row it names, as a
// spawn's pointer does: after its called_by (a merge's pointer, called by
// the head), else its parent_id. The two sessions are R's own
// (corpus/realwriter f4_attach_embed, rw_test_task_inherit_default0__p1);
// the chains are those R's load showed for them.
func TestTargetMessageAttach(t *testing.T) {
	_, views := tRun(t, `
legacy-user id=u1 text="spawn a probe"
legacy-reply id=a1 text=ok parent=u1
message id=at1 role=assistant text="probe finished" keys="{\"display\":\"runtime\",\"function\":\"attach\",\"parent_id\":\"a1\",\"attach\":{\"head_id\":\"a1\"}}"
`)
	assert.Equal(t, TargetView{HeadID: "at1", Chain: chain(tr("u1"), tr("a1"), tr("at1"))}, views[2])
	_, views = tRun(t, `
legacy-user id=u1 text=hi parent=null
legacy-reply id=a1 text=ok parent=u1
message id=u_4 role=user text="find the answer" parent=a1 keys="{\"agent_id\":\"main\"}"
message id=a_4 role=assistant text="(spawned reply)" parent=u_4
message id=at role=assistant text="(spawned reply)" keys="{\"display\":\"runtime\",\"function\":\"attach\",\"parent_id\":\"a1\"}"
checkout id=a_4
message id=mt role=assistant text=merged caller=a1 keys="{\"function\":\"attach\"}"
`)
	assert.Equal(t, TargetView{HeadID: "a_4", Chain: chain(tr("u1"), tr("a1"), tr("at"), tr("u_4"), tr("a_4"))}, views[5])
	assert.Equal(t, TargetView{HeadID: "a_4", Chain: chain(tr("u1"), tr("a1"), tr("at"), tr("mt"), tr("u_4"), tr("a_4"))}, views[6],
		"a pointer called by a row follows it and moves no head")
}

// A call the reply waiting on its task turn ran alongside it is one of
// that reply's calls, before the task's own.
func TestTargetParallelCall(t *testing.T) {
	_, views := tRun(t, `
user id=u1 text=hi
reply
task call=t1 id=s1 attach=a1 text=go label=L turn
tool call=c2 name=bash args="{}" result=ok
reply
done
done
`)
	last := views[len(views)-1]
	require.NotEmpty(t, last.Chain)
	var calls []string
	for _, row := range last.Chain {
		if row.ID == "u1_reply" {
			calls = row.Calls
		}
	}
	assert.Equal(t, []string{"u1_reply_t_c2", "u1_reply_t_t1"}, calls, "%+v", last)
}
