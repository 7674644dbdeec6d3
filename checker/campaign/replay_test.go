package campaign

import (
	"strings"
	"testing"

	"sessiondag/checker/harness"
	"sessiondag/impl/flags"
	"sessiondag/ops"

	"github.com/stretchr/testify/require"
)

// A finding saved as a file replays to the same finding: the `#! check`
// line names the check and the data, so `sessiondag replay FILE` runs
// exactly that and fails where the suite failed.
func TestSavedFindingReplays(t *testing.T) {
	planted := harness.Check{Name: "planted", Prop: "test", Doc: "fails once a web turn has a reply",
		Data: harness.DataKinds, Run: func(s *harness.Session) *harness.Finding {
			if s.Run().W.S.Len() >= 3 {
				return &harness.Finding{What: "three nodes"}
			}
			return nil
		}}
	saved := harness.Checks
	harness.Checks = append(append([]harness.Check(nil), harness.Checks...), planted)
	defer func() { harness.Checks = saved }()

	s := script(t, "user id=u1 text=a\nreply\ndone\nuser id=u2 text=b\nreply\ndone")
	for _, data := range harness.DataKinds {
		c := Case{Check: planted, Data: data, Script: s}
		f, err := c.Play("")
		if err != nil || f == nil {
			t.Fatalf("%s: the planted check did not fail (%v)", data.Name, err)
		}
		c.Script = c.Script[:f.Step]
		text := File(c, f, "TestPlanted").String()
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

// Without a `#! check` line a replay runs each check that runs after every
// op where its declared data admits the script, on data written with the
// flags on and with them off.
func TestReplayPlan(t *testing.T) {
	f := &ops.File{Ops: script(t, "user id=u1 text=a\nflag set=A\nreply")}
	groups, err := Plan(f, ReplayOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// Written on, a flag op that turns flags off rolls a step back, which no
	// kind starting with the flags on has; written off, it is flipped data,
	// which the rollout checks, the rollback check, the card pass, the
	// load's columns and the fields hold on, and flags-off fidelity not.
	require.Len(t, groups, 1)
	require.Equal(t, "flipped", groups[0].Data.Slug)
	require.Equal(t, []string{"retire-d", "rollout", "rollback", "cutoff", "cards", "columns", "fields"}, names(groups[0].Checks))
	groups, err = Plan(&ops.File{Ops: script(t, "user id=u1 text=a\nreply")}, ReplayOptions{})
	require.NoError(t, err)
	require.Len(t, groups, 2)
	require.Equal(t, "flags-on", groups[0].Data.Slug)
	require.Equal(t, []string{"retire-d", "target", "rollout", "rollback", "cutoff", "cards", "fields"}, names(groups[0].Checks))
	require.Equal(t, "migration", groups[1].Data.Slug)
	require.Equal(t, []string{"retire-d", "legacy", "rollout", "rollback", "cutoff", "cards", "aggregation", "columns", "fields", "persistence"},
		names(groups[1].Checks))
	f.Directives = []ops.Directive{{Name: "check", Args: []ops.Arg{{Key: "name", Value: "rollout"}, {Key: "data", Value: "migration"}, {Key: "writer", Value: "A"}}}}
	groups, err = Plan(f, ReplayOptions{})
	if err != nil || len(groups) != 1 || len(groups[0].Checks) != 1 || groups[0].Checks[0].Name != "rollout" || groups[0].Data.Writer != flags.A {
		t.Fatalf("plan of a #! check line: %+v %v", groups, err)
	}
	f.Directives[0].Args[0].Value = "no-such-check"
	if _, err := Plan(f, ReplayOptions{}); err == nil {
		t.Fatal("a #! check naming no check is accepted")
	}
}

func names(checks []harness.Check) []string {
	var out []string
	for _, c := range checks {
		out = append(out, c.Name)
	}
	return out
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
	groups, err := Plan(f, ReplayOptions{})
	if err != nil || len(groups) != 1 || len(groups[0].Checks) != 1 || groups[0].Checks[0].Name != "validity" || groups[0].Data.Slug != "flags-on" {
		t.Fatalf("plan of a validity finding: %+v %v", groups, err)
	}
}
