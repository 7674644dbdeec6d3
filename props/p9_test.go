package props

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"sessiondag/protocol"

	"pgregory.net/rapid"

	"sessiondag/checker/campaign"
	"sessiondag/checker/driver"
	"sessiondag/checker/gen"
	"sessiondag/checker/gen/rapidsrc"
	"sessiondag/checker/harness"
	"sessiondag/impl/flags"
	"sessiondag/model"
	"sessiondag/ops"
)

// TestP9Determinism: the same op script gives byte-identical views, from the
// implementation under every config and from the model, also when the script
// is printed and parsed back first (a replay).
//
// Against another implementation, the views it returns under each config
// it loads under, on data its writers write with that config's flags.
func TestP9Determinism(t *testing.T) {
	t.Parallel()
	track(t)
	configs := flags.Rollout
	viewBytes := implViewBytes
	if underTest != nil {
		configs = remoteConfigs()
		viewBytes = remoteViewBytes
		if len(configs) == 0 {
			notRun(t, "a config it writes and loads with", fmt.Errorf("%w: %s loads under no config it writes with", harness.ErrNotApplicable, about().Name))
		}
	}
	draw := budget.begin(t)
	rapid.Check(t, func(t *rapid.T) {
		if !draw.more() {
			return
		}
		opt := drawnFor(gen.Options{Legacy: true, FlagFlips: about().Writes("flag") && about().Claim == protocol.ClaimRollout})
		opt.Swarm = gen.DrawSwarm(rapidsrc.Source{T: t}, opt)
		script := gen.New(opt).Script(rapidsrc.Source{T: t}, rapid.IntRange(1, 60).Draw(t, "ops"))
		if underTest != nil {
			script = campaign.Taken(about(), script) // cut before an op it does not take
		}
		replayed, err := ops.ParseString(ops.String(script))
		if err != nil {
			t.Fatalf("parse back: %v", err)
		}
		for _, fl := range configs {
			a, b := viewBytes(t, script, fl), viewBytes(t, replayed, fl)
			if !bytes.Equal(a, b) {
				t.Fatalf("flags %s: two runs of one script differ\n%s\n%s\n---\n%s", fl, ops.String(script), a, b)
			}
		}
		m1, m2 := modelViewBytes(t, script), modelViewBytes(t, replayed)
		if !bytes.Equal(m1, m2) {
			t.Fatalf("model: two runs of one script differ\n%s", ops.String(script))
		}
	})
	if underTest != nil {
		if draw.count() == 0 {
			undecided(t, fmt.Sprintf("no case checked within its share (%s)", draw))
		}
		covered(t, draw.String())
	}
}

func implViewBytes(t *rapid.T, script []ops.Op, fl flags.Set) []byte {
	r, err := driver.Build(script, "", fl)
	if err != nil {
		t.Fatalf("build: %v", err)
	}
	b, err := json.Marshal(harness.Views(r.W.S.AtPersistedHead(), fl))
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	return b
}

// modelViewBytes is the model's view after the script's last op, as the
// implementation's is taken at the persisted head.
func modelViewBytes(t *rapid.T, script []ops.Op) []byte {
	views, err := model.Legacy(script)
	if err != nil {
		t.Fatalf("model: %v", err)
	}
	if len(views) == 0 {
		return nil
	}
	b, err := json.Marshal(views[len(views)-1])
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	return b
}

// remoteConfigs are the flag sets the implementation under test both
// writes and loads with, one per config it declares.
func remoteConfigs() []flags.Set {
	var out []flags.Set
	seen := map[string]bool{}
	for _, fl := range flags.Rollout {
		c, err := about().Config(fl)
		if err != nil || seen[c] || harness.TakesData(about(), harness.Data{Name: "flags " + fl.String(), Writer: fl}) != nil {
			continue
		}
		seen[c] = true
		out = append(out, fl)
	}
	return out
}

// remoteViewBytes is the view the implementation under test returns after
// the script, written with fl and loaded under it, with its ids renamed to
// the script's.
func remoteViewBytes(t *rapid.T, script []ops.Op, fl flags.Set) []byte {
	s, err := harness.NewSession(harness.Options{Data: harness.Data{Name: "flags " + fl.String(), Writer: fl}, Impl: underTest})
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	defer s.Close()
	for _, op := range script {
		f, err := s.Apply(op)
		if notWritten(err) {
			t.Skip(err)
		}
		if err != nil {
			t.Fatalf("apply: %v", err)
		}
		if f != nil {
			t.Fatalf("%s", campaign.Report(campaign.Case{Check: harness.Validity, Data: s.Data, Script: s.Script, Impl: underTest}, f, ""))
		}
	}
	v := s.Views(fl)
	if f := s.Broken(); f != nil {
		t.Fatalf("%s", campaign.Report(campaign.Case{Check: harness.Validity, Data: s.Data, Script: s.Script, Impl: underTest}, f, ""))
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	return b
}
