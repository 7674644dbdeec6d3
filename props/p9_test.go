package props

import (
	"bytes"
	"encoding/json"
	"testing"

	"pgregory.net/rapid"

	"sessiondag/checker/driver"
	"sessiondag/checker/gen"
	"sessiondag/checker/harness"
	"sessiondag/checker/ops"
	"sessiondag/impl/flags"
	"sessiondag/internal/rapidsrc"
	"sessiondag/model"
)

// TestP9Determinism: the same op script gives byte-identical views, from the
// implementation under every config and from the model, also when the script
// is printed and parsed back first (a replay).
func TestP9Determinism(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		opt := gen.Options{Legacy: true, FlagFlips: true}
		opt.Swarm = gen.DrawSwarm(rapidsrc.Source{T: t}, opt)
		script := gen.New(opt).Script(rapidsrc.Source{T: t}, rapid.IntRange(1, 60).Draw(t, "ops"))
		replayed, err := ops.ParseString(ops.String(script))
		if err != nil {
			t.Fatalf("parse back: %v", err)
		}
		for _, fl := range flags.Rollout {
			a, b := implViewBytes(t, script, fl), implViewBytes(t, replayed, fl)
			if !bytes.Equal(a, b) {
				t.Fatalf("flags %s: two runs of one script differ\n%s\n%s\n---\n%s", fl, ops.String(script), a, b)
			}
		}
		m1, m2 := modelViewBytes(t, script), modelViewBytes(t, replayed)
		if !bytes.Equal(m1, m2) {
			t.Fatalf("model: two runs of one script differ\n%s", ops.String(script))
		}
	})
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
