package gen

import (
	"fmt"
	"slices"
	"testing"

	"sessiondag/model"
	"sessiondag/ops"
)

// TestNoCompactionOnACycle: a user naming a later id as parent, edited into
// a row of that id's user, then answered, closes a parent_id cycle of two
// rows; the shadow must not offer a compaction there (the writers refuse
// it: get_branch holds two rows). TestChecks/D-retire-d/migration drew one
// (seed 12312257968966915376).
func TestNoCompactionOnACycle(t *testing.T) {
	script, err := ops.ParseString("legacy-user id=u1 text=hello parent=u2_reply\n" +
		"edit of=u1 id=u2 text=hello\nreply\ndone\n")
	if err != nil {
		t.Fatal(err)
	}
	g := New(Options{Legacy: true})
	for _, op := range script {
		g.apply(op)
	}
	if g.st.compactable() {
		t.Fatalf("the shadow offers a compaction at %s, on a parent cycle of two rows", g.st.head)
	}
}

// TestShadowCountsACallersReply: an assistant message dict with a caller
// and no parent_id key is, to get_messages, an answer of its caller (the
// parent_id the legacy copies from called_by): a retry of that caller writes
// a new row, and the next reply is that row's. A shadow that counted only
// a recorded parent drew a rewind of the reply a rerun of the same row
// would have written (the hunt, seed 20261206, iteration 58305).
func TestShadowCountsACallersReply(t *testing.T) {
	for _, tc := range []struct {
		message string
		fork    bool
	}{
		{"message id=m1 role=assistant text=x caller=u1", true},
		{`message id=m1 role=assistant text=x keys="{\"called_by\": \"u1\"}"`, true},
		{"message id=m1 role=assistant text=x parent=u1", true},
		{"message id=m1 role=assistant text=x caller=u1 parent=null", false},
		{"message id=m1 role=user text=x caller=u1", false},
	} {
		script, err := ops.ParseString("user id=u1 text=hi\ncrash\n" + tc.message + "\n")
		if err != nil {
			t.Fatal(err)
		}
		g := New(Options{Legacy: true})
		run := model.NewLegacy(ops.DefaultSession)
		for _, op := range script {
			g.apply(op)
			if err := run.Apply(op); err != nil {
				t.Fatal(err)
			}
		}
		if err := run.Apply(ops.Retry{Of: "u1", ID: "u2"}); err != nil {
			t.Fatal(err)
		}
		wrote := run.Node("u2") != nil
		if wrote != tc.fork || g.st.hasAssistant("u1") != tc.fork {
			t.Errorf("%s: model.Legacy's retry writes a row: %v, the shadow counts an answer: %v, want %v",
				tc.message, wrote, g.st.hasAssistant("u1"), tc.fork)
		}
	}
}

// TestShadowSpawnHeadOnCommand: a /spawn answered at once leaves the stored
// head on its command row (R's _run_spawn), so a reload puts the browser
// there and the next /spawn's pointer answers that command: a retry of it
// then writes a new row. A shadow that left the head on the sub-agent's
// reply drew a retry of the command's reply, which does not exist
// (TestChecks/P4-cutoff/flipped, 44 ops). The older writers' rooted form
// leaves it on the sub-agent's reply, an async task on its follow-up's.
func TestShadowSpawnHeadOnCommand(t *testing.T) {
	for _, tc := range []struct{ spawn, head string }{
		{"spawn mode=inherit cmd=c1 id=s1 attach=a1 text=go label=l", "c1"},
		{"spawn mode=clean cmd=c1 id=s1 attach=a1 text=go label=l", "c1"},
		{"spawn mode=inherit cmd=c1 id=s1 attach=a1 text=go label=l rooted", "s1_reply"},
		{"spawn mode=async cmd=c1 id=s1 attach=a1 text=go label=l followup=f1", "f1_reply"},
		{"spawn mode=async cmd=c1 id=s1 attach=a1 text=go label=l rooted", "s1_reply"},
	} {
		script, err := ops.ParseString("user id=u1 text=hi\nreply\ndone\n" + tc.spawn + "\n")
		if err != nil {
			t.Fatal(err)
		}
		g := New(Options{Legacy: true})
		for _, op := range script {
			g.apply(op)
		}
		if g.st.head != tc.head {
			t.Errorf("%s: the shadow's head is %s, the writers' %s", tc.spawn, g.st.head, tc.head)
		}
	}
}

// TestShadowReloadsAsTheModel: a reload puts the browser where the load
// shows the head, as the writers do: on the reply for a head on one of its
// calls (a tool row, a function the model called), on the row itself for
// an older writer's tool row (its edge in metadata stops the load's climb)
// and for any other row; with no head at all (every row written has a
// caller) on the last row the load shows, a rewound one aside. The
// shadow's browser is the model's after the same ops.
func TestShadowReloadsAsTheModel(t *testing.T) {
	const turn = "user id=u1 text=hi\nreply\n"
	for _, tail := range []string{
		turn + "tool call=c1 name=grep args=\"{}\"\ncrash\ncheckout id=u1_reply_t_c1\nreload\n",
		turn + "tool call=c1 name=grep args=\"{}\" legacy\ncrash\ncheckout id=u1_reply_t_c1\nreload\n",
		turn + "fn id=f1 name=word_count args=\"{}\"\nend\ncrash\ncheckout id=f1\nreload\n",
		turn + "done\ncheckout id=u1\nreload\n",
		"orphan id=o1 name=grep caller=gone_1\nreload\n",
		"orphan id=o1 name=grep caller=gone_1\norphan id=o2 name=grep caller=gone_2\nrewind id=o2\nreload\n",
		"message id=m1 role=tool text=x parent=gone_1\nreload\n",
	} {
		script, err := ops.ParseString(tail)
		if err != nil {
			t.Fatal(err)
		}
		g, m := applyBoth(t, script)
		if want, _ := m.ClientHead(); g.st.client != want {
			t.Errorf("after %q the shadow's browser is on %s, the model's on %s", tail, g.st.client, want)
		}
	}
}

// TestShadowKeepsTheRecursionGuard: inside five runs of one name the
// generator calls none of that name (the writers refuse it: R's recursion
// guard), and inside five runs of every name it calls no function at all.
func TestShadowKeepsTheRecursionGuard(t *testing.T) {
	if got := New(Options{Legacy: true}).st.callable(); len(got) != len(fnNames) {
		t.Fatalf("a fresh shadow offers %v, want every name", got)
	}
	text := "user id=u1 text=hi\nreply\n"
	n := 0
	var g *Gen
	for _, name := range fnNames {
		for range maxNesting {
			n++
			text += fmt.Sprintf("fn id=f%d name=%s args=\"{}\"\n", n, name)
		}
		script, err := ops.ParseString(text)
		if err != nil {
			t.Fatal(err)
		}
		g = New(Options{Legacy: true})
		for _, op := range script {
			g.apply(op)
		}
		if slices.Contains(g.st.callable(), name) {
			t.Fatalf("after %d runs of %s the shadow offers another: %v", maxNesting, name, g.st.callable())
		}
	}
	for _, c := range g.inFrame() {
		if c.kind == kFn || c.kind == kFnViaExec {
			t.Fatalf("inside %d runs of every name the shadow offers a call (%v)", maxNesting, c.kind)
		}
	}
}

// TestShadowRootAtReply: a reply writes ROOT where none is (a retry or an
// edit of an older writer's row starts its turn), as the writers do, so
// the shadow knows ROOT is stored after it.
func TestShadowRootAtReply(t *testing.T) {
	for _, rerun := range []string{"retry of=u1 id=u2", "edit of=u1 id=u2 text=again"} {
		script, err := ops.ParseString("legacy-user id=u1 text=hi\n" + rerun + "\nreply\n")
		if err != nil {
			t.Fatal(err)
		}
		g := New(Options{Legacy: true})
		for _, op := range script {
			g.apply(op)
		}
		if !g.st.Rooted() {
			t.Errorf("%s, reply: the shadow holds no ROOT, the writers wrote it before the reply", rerun)
		}
	}
}

// TestShadowDropsAsTheModel: a dropped attach pointer is no assistant
// message of its anchor any more, so a retry of the /spawn's command row
// writes no row once it is gone (the model's retry finds no answer), and
// the shadow knows it (TestGeneratedLegacyDataIsSynced, seed 185, drew a
// checkout of the row the shadow thought the retry wrote).
func TestShadowDropsAsTheModel(t *testing.T) {
	script, err := ops.ParseString(`spawn mode=inherit cmd=c1 id=s1 attach=a1 text="sub task" label=helper
user id=u1 text=hi
reply
done
drop id=a1
retry of=c1 id=r1
`)
	if err != nil {
		t.Fatal(err)
	}
	g, m := applyBoth(t, script)
	if m.Node("r1") != nil || g.st.written["r1"] {
		t.Errorf("the retry wrote r1: model %v, shadow %v; want neither", m.Node("r1") != nil, g.st.written["r1"])
	}
	if g.st.written["a1"] {
		t.Errorf("a1 still written in the shadow after its drop")
	}
}

// applyBoth follows script with a generator's shadow and model.Legacy,
// failing where the model refuses an op.
func applyBoth(t *testing.T, script []ops.Op) (*Gen, *model.LegacyRun) {
	t.Helper()
	g, m := New(Options{Legacy: true}), model.NewLegacy(ops.DefaultSession)
	for _, op := range script {
		g.apply(op)
		if err := m.Apply(op); err != nil {
			t.Fatalf("%s: the model refuses it: %v", ops.Format(op), err)
		}
	}
	return g, m
}
