package gen

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"sessiondag/model"
	"sessiondag/ops"
)

// variantsOf names the variants an op holds, as Without names them.
func variantsOf(op ops.Op) []string {
	var out []string
	add := func(on bool, name string) {
		if on {
			out = append(out, name)
		}
	}
	switch o := op.(type) {
	case ops.End:
		add(o.Duration != "", "end-duration")
	case ops.UserDispatch:
		add(o.Rooted, "rooted")
		add(o.Source != "", "followup")
	case ops.ForkRoot:
		add(o.Rooted, "rooted")
	case ops.Spawn:
		add(o.Rooted, "rooted")
	case ops.Task:
		add(o.Rooted, "rooted")
	case ops.Tool:
		add(o.Object, "object")
		add(o.Legacy, "tool-legacy")
	case ops.UserWeb:
		add(o.Form != "", "user-form")
		add(o.Form == "image", "user-image")
		add(o.Form == "function", "user-function")
	case ops.LegacyReply:
		add(o.Blocks, "reply-blocks")
	case ops.Retry:
		add(o.Web, "rerun-web")
	case ops.Edit:
		add(o.Web, "rerun-web")
	case ops.Fn:
		add(o.ViaExec, "fn-via-exec")
	}
	return out
}

// TestWithout: a generator told what an implementation cannot write draws
// none of it, draw kinds and field variants alike, and the same seeds
// without it draw each (so the test can fail); a name that is neither is
// an error.
func TestWithout(t *testing.T) {
	names := append(slices.Clone(Variants), "tool-legacy", "fn-via-exec", "followup")
	kinds, variants, err := Without(names, nil)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for seed := range uint64(200) {
		plain := New(Options{Legacy: true})
		script := plain.Script(NewSeeded(seed), 60)
		for _, op := range script {
			for _, v := range variantsOf(op) {
				seen[v]++
			}
		}
		if slices.Contains(Holds(script), "later") { // told by the script, not by one op
			seen["later"]++
		}
		g := New(Options{Legacy: true, Only: kinds, Without: variants})
		script = g.Script(NewSeeded(seed), 60)
		run := model.NewLegacy(ops.DefaultSession) // the plain ops are ops the writers apply
		for i, op := range script {
			if v := variantsOf(op); len(v) > 0 {
				t.Fatalf("seed %d: drew %s, which holds %v", seed, ops.Format(op), v)
			}
			require.NoError(t, run.Apply(op), "seed %d, op %d of\n%s", seed, i+1, ops.String(script))
		}
		if slices.Contains(Holds(script), "later") {
			t.Fatalf("seed %d: a parent names an id a later op writes:\n%s", seed, ops.String(script))
		}
	}
	for _, n := range names {
		if seen[n] == 0 {
			t.Errorf("the generator without Without never drew %s in these seeds: the test shows nothing of it", n)
		}
	}
	if _, _, err := Without([]string{"no-such"}, nil); err == nil {
		t.Error("an unknown name is accepted")
	}
}

// TestTogether: with a pair of op kinds written in one step, every op of
// the first kind is followed by one of the second and no script ends
// between them; the same seeds without the pair draw both (so the test can
// fail).
func TestTogether(t *testing.T) {
	split := func(script []ops.Op) bool {
		for i, op := range script {
			if op.Kind() == "user" && (i+1 == len(script) || script[i+1].Kind() != "reply") {
				return true
			}
		}
		return false
	}
	apart := 0
	for seed := range uint64(300) {
		n := 1 + int(seed%40)
		if split(New(Options{Legacy: true}).Script(NewSeeded(seed), n)) {
			apart++
		}
		if s := New(Options{Legacy: true, Together: [][2]string{{"user", "reply"}}}).Script(NewSeeded(seed), n); split(s) {
			t.Fatalf("seed %d: a user op not followed by its reply:\n%s", seed, ops.String(s))
		}
	}
	if apart == 0 {
		t.Fatal("no seed drew a user op apart from its reply without the pair: the test shows nothing")
	}
}

// Held names the variant an op holds that an implementation declares it
// cannot write, field variants and the draw kinds an op's fields make.
func TestHeld(t *testing.T) {
	without := []string{"rooted", "object", "tool-legacy", "fn-via-exec", "followup", "end-duration"}
	for _, c := range []struct {
		op   ops.Op
		want string
	}{
		{ops.UserDispatch{ID: "d", Rooted: true}, "rooted"},
		{ops.UserDispatch{ID: "d", Source: "task_followup"}, "followup"},
		{ops.UserDispatch{ID: "d"}, ""},
		{ops.Tool{CallID: "c", Object: true}, "object"},
		{ops.Tool{CallID: "c", Legacy: true}, "tool-legacy"},
		{ops.Fn{ID: "f", ViaExec: true}, "fn-via-exec"},
		{ops.End{Duration: "2"}, "end-duration"},
		{ops.End{}, ""},
		{ops.Spawn{Mode: "inherit", Rooted: true}, "rooted"},
	} {
		require.Equal(t, c.want, Held(c.op, without), ops.Format(c.op))
		require.Equal(t, "", Held(c.op, nil), "declared nothing")
	}
}

// TestHeldTellsTurnForms: a spawn or task whose sub-agent's turn is spread
// over the ops that follow holds the draw kind of that form, which an
// implementation that declares it cannot write leaves out; the op answered
// at once holds none.
func TestHeldTellsTurnForms(t *testing.T) {
	without := []string{"spawn-turn", "task-turn"}
	require.Equal(t, "spawn-turn", Held(ops.Spawn{Mode: "inherit", Cmd: "c", ID: "s", Attach: "a", Text: "x", Turn: true}, without))
	require.Equal(t, "task-turn", Held(ops.Task{CallID: "c", ID: "s", Attach: "a", Text: "x", Turn: true}, without))
	require.Equal(t, "", Held(ops.Spawn{Mode: "inherit", Cmd: "c", ID: "s", Attach: "a", Text: "x"}, without))
	require.Equal(t, "", Held(ops.Task{CallID: "c", ID: "s", Attach: "a", Text: "x"}, without))
}

// An older writer's async task (rooted, with its running card) written for
// an implementation without the rooted form becomes R's task tool waiting
// for its sub-agent: an op the writers apply in a web turn and in a
// sub-agent's, not R's runner form, which needs a follow-up id.
func TestPlainOlderAsyncTask(t *testing.T) {
	op := Plain(ops.Task{CallID: "c1", ID: "s1", Attach: "a1", Text: "go", Label: "l", Async: true, Rooted: true},
		[]string{"rooted"})
	require.Equal(t, ops.Task{CallID: "c1", ID: "s1", Attach: "a1", Text: "go", Label: "l"}, op)
	run := model.NewLegacy(ops.DefaultSession)
	script, err := ops.ParseString("user id=u1 text=hi\nreply\n")
	require.NoError(t, err)
	for _, o := range append(script, op) {
		require.NoError(t, run.Apply(o), ops.Format(o))
	}
}
