package harness

import (
	"strings"
	"testing"

	"sessiondag/checker/ops"
	"sessiondag/impl/flags"
)

// A finding saved as a file replays to the same finding: the `#! check`
// line names the check and the data, so `sessiondag replay FILE` runs
// exactly that and fails where the suite failed.
func TestSavedFindingReplays(t *testing.T) {
	planted := Check{Name: "planted", Prop: "test", Doc: "fails once a web turn has a reply",
		Run: func(s *Session) *Finding {
			if s.Run().W.S.Len() >= 3 {
				return &Finding{What: "three nodes"}
			}
			return nil
		}}
	saved := Checks
	Checks = append(append([]Check(nil), Checks...), planted)
	defer func() { Checks = saved }()

	s := script(t, "user id=u1 text=a\nreply\ndone\nuser id=u2 text=b\nreply\ndone")
	for _, data := range DataKinds {
		f, err := Play(data, s, planted)
		if err != nil || f == nil {
			t.Fatalf("%s: the planted check did not fail (%v)", data.Name, err)
		}
		text := f.File("TestPlanted", s).String()
		if !strings.Contains(text, "#! check name=planted data="+data.Slug) {
			t.Fatalf("the saved file does not name the check and data:\n%s", text)
		}
		file, err := ops.ParseString(text)
		if err != nil || len(file) != f.Step {
			t.Fatalf("the saved file keeps %d ops (%v), want the %d up to the failure", len(file), err, f.Step)
		}
		parsed, err := ops.ParseFile(strings.NewReader(text), "saved.ops")
		if err != nil {
			t.Fatal(err)
		}
		again, err := Replay(parsed, ReplayOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(again) != 1 || again[0].Check != "planted" || again[0].Step != f.Step || again[0].Data.Slug != data.Slug {
			t.Fatalf("%s: the replay found %+v, want the planted failure after op %d", data.Name, again, f.Step)
		}
	}
}

// Without a `#! check` line a replay runs every check on data written with
// the flags on and with them off; --flags picks the writers' flags.
func TestReplayPlan(t *testing.T) {
	f := &ops.File{Ops: script(t, "user id=u1 text=a\nflag set=A\nreply")}
	checks, data, err := Plan(f, ReplayOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(checks) != len(Checks) || len(data) != 2 || data[0].Slug != "flags-on" || data[1].Slug != "flipped" {
		t.Fatalf("plan: %d checks, data %v", len(checks), data)
	}
	f.Directives = []ops.Directive{{Name: "check", Args: []ops.Arg{{Key: "name", Value: "rollout"}, {Key: "data", Value: "migration"}, {Key: "writer", Value: "A"}}}}
	checks, data, err = Plan(f, ReplayOptions{})
	if err != nil || len(checks) != 1 || checks[0].Name != "rollout" || len(data) != 1 || data[0].Writer != flags.A {
		t.Fatalf("plan of a #! check line: %v %v %v", checks, data, err)
	}
	f.Directives[0].Args[0].Value = "no-such-check"
	if _, _, err := Plan(f, ReplayOptions{}); err == nil {
		t.Fatal("a #! check naming no check is accepted")
	}
}

// The rollout path the flag op spells (ops.RolloutPath) is the one the
// implementation's flags walk (flags.Rollout).
func TestRolloutPathsAgree(t *testing.T) {
	if len(ops.RolloutPath) != len(flags.Rollout) {
		t.Fatalf("ops.RolloutPath has %d configs, flags.Rollout %d", len(ops.RolloutPath), len(flags.Rollout))
	}
	for i, name := range ops.RolloutPath {
		fl, err := flags.Parse(name)
		if err != nil || fl != flags.Rollout[i] {
			t.Errorf("step %d: %q parses to %v (%v), want %v", i, name, fl, err, flags.Rollout[i])
		}
	}
}

// A saved disagreement on whether an op applies replays without a check:
// Session.Apply finds it.
func TestValidityFindingPlans(t *testing.T) {
	f := &ops.File{Ops: script(t, "user id=u1 text=a"), Directives: []ops.Directive{{Name: "check",
		Args: []ops.Arg{{Key: "name", Value: "validity"}, {Key: "data", Value: "flags-on"}}}}}
	checks, data, err := Plan(f, ReplayOptions{})
	if err != nil || len(checks) != 0 || len(data) != 1 || data[0].Slug != "flags-on" {
		t.Fatalf("plan of a validity finding: %v %v %v", checks, data, err)
	}
}
