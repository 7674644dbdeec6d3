package harness

import (
	"slices"
	"testing"

	"sessiondag/protocol"
)

// TestChecksFollowTheClaim: which checks judge an implementation follows
// from what it declares — the claim (legacy: P1; target: P2, P4, P5;
// rollout: those, P3 and P10; any: P7), the configs and views each check reads,
// a restart — and no check that reads the internals judges another
// process; the in-process implementation is judged by every check.
func TestChecksFollowTheClaim(t *testing.T) {
	applying := func(a protocol.About) []string {
		var out []string
		for _, c := range Checks {
			if c.Applies(a) == nil {
				out = append(out, c.Name)
			}
		}
		return out
	}
	every := []string{"off", "A", "A,B", "A,B,C", "all"}
	cases := []struct {
		name  string
		about protocol.About
		want  []string
	}{
		{"in-process", InProcessAbout, CheckNames()},
		{"legacy", protocol.About{Name: "r", Claim: protocol.ClaimLegacy, Configs: []string{"off"}, Views: []string{protocol.ViewMessages}, Restart: true},
			[]string{"legacy", "persistence"}},
		{"legacy without restart", protocol.About{Name: "r", Claim: protocol.ClaimLegacy, Configs: []string{"off"}}, []string{"legacy"}},
		{"target", protocol.About{Name: "head", Claim: protocol.ClaimTarget, Configs: []string{protocol.ConfigTarget}, Restart: true},
			[]string{"target", "cutoff", "persistence"}},
		{"target with the chain before the cards", protocol.About{Name: "head", Claim: protocol.ClaimTarget, Configs: []string{protocol.ConfigTarget},
			Views: []string{protocol.ViewBeforeCards}}, []string{"target", "cutoff", "cards"}},
		{"rollout", protocol.About{Name: "port", Claim: protocol.ClaimRollout, Configs: every, Views: protocol.OptionalViews, Restart: true},
			[]string{"legacy", "target", "rollout", "rollback", "cutoff", "cards", "fields", "persistence"}},
		{"rollout at two steps", protocol.About{Name: "port", Claim: protocol.ClaimRollout, Configs: []string{"off", "A"}, Restart: true},
			[]string{"legacy", "rollback", "persistence"}},
	}
	for _, c := range cases {
		if got := applying(c.about); !slices.Equal(got, c.want) {
			t.Errorf("%s: checks %v, want %v", c.name, got, c.want)
		}
	}
	legacy := protocol.About{Name: "r", Claim: protocol.ClaimLegacy, Configs: []string{"off"}}
	target := protocol.About{Name: "head", Claim: protocol.ClaimTarget, Configs: []string{protocol.ConfigTarget}}
	for _, d := range []struct {
		about protocol.About
		data  Data
		takes bool
	}{
		{legacy, WrittenOff, true}, {legacy, WrittenOn, false}, {legacy, Flipped, false}, {legacy, MixedAny, false},
		{target, WrittenOn, true}, {target, WrittenOff, false},
	} {
		if err := TakesData(d.about, d.data); (err == nil) != d.takes {
			t.Errorf("%s takes %s: %v, want %v", d.about.Name, d.data.Name, err, d.takes)
		}
	}
}
