package props

import (
	"pgregory.net/rapid"
	"sessiondag/harness"

	"sessiondag/driver"
	"sessiondag/gen"
	"sessiondag/impl/flags"
	"sessiondag/impl/webui"
	"sessiondag/model"
	"sessiondag/ops"
)

// legacyPair runs one generated session through the implementation's
// writers (flags off) and the legacy model side by side.
type legacyPair struct {
	name   string
	gen    *gen.Gen
	impl   *driver.Run
	model  *model.LegacyRun
	script []ops.Op
}

func newLegacyPair(t *rapid.T, name string, opt gen.Options) *legacyPair {
	r, err := driver.Start(nil, "", flags.Off)
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	return &legacyPair{name: name, gen: gen.New(opt), impl: r, model: model.NewLegacy(driver.DefaultSession)}
}

// step draws one valid op and applies it to both sides; they must agree on
// whether it applies.
func (p *legacyPair) step(t *rapid.T) {
	op := p.gen.Next(gen.Rapid{T: t})
	p.script = append(p.script, op)
	ei, em := p.impl.Apply(op), p.model.Apply(op)
	if (ei == nil) != (em == nil) {
		report(t, p.name, p.script, "writers disagree on whether the op applies",
			"impl: "+errText(ei)+"\nmodel: "+errText(em))
	}
	if ei != nil {
		t.Fatalf("generator drew an op neither side accepts: %v\n%s", ei, ops.String(p.script))
	}
}

// checkFidelity is P1's invariant: every view of impl (flags off) equals
// the legacy model's.
func (p *legacyPair) checkFidelity(t *rapid.T) {
	iv := webui.Views(p.impl.W.S.AtPersistedHead(), flags.Off)
	mv := p.model.View()
	if s, d := harness.ViewDiff(mv, iv); s != "" {
		report(t, p.name, p.script, "impl (flags off) differs from model.Legacy in view "+s, d)
	}
}

func errText(err error) string {
	if err == nil {
		return "applied"
	}
	return err.Error()
}
