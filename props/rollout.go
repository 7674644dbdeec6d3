package props

import (
	"fmt"

	"pgregory.net/rapid"

	"sessiondag/driver"
	"sessiondag/gen"
	"sessiondag/harness"
	"sessiondag/impl/flags"
	"sessiondag/impl/webui"
	"sessiondag/model"
	"sessiondag/ops"
)

// A data kind is how a generated session was written, relative to the
// rollout (docs/rollout.md §5, P3).
type dataKind struct {
	name   string
	writer flags.Set   // the writers' flags at the start
	opt    gen.Options // what the generator may draw
	// legacy is set when some of the data was written before the rollout.
	// Legacy records can contradict the intent (a web turn typed in a
	// browser that never saw another client's turn records the stale
	// parent), so such data is judged by what the rollout promises above
	// all: no step hides a message of the intended conversation, and a
	// step that changes the view shows more of it.
	legacy bool
}

// The three kinds of data every rollout property runs on.
var (
	writtenOn  = dataKind{"written with the flags on", flags.All, gen.Options{Legacy: true, StartStep: 4}, false}
	writtenOff = dataKind{"written with the flags off (migration)", flags.Off, gen.Options{Legacy: true, SyncedBrowser: true}, true}
	flipped    = dataKind{"flags flipped mid-session", flags.Off, gen.Options{Legacy: true, FlagFlips: true, SyncedBrowser: true}, true}
	dataKinds  = []dataKind{writtenOn, writtenOff, flipped}
)

// rolloutRun drives the implementation's writers and model.Target side by
// side and loads the result under every config of the rollout path.
type rolloutRun struct {
	name   string
	kind   dataKind
	gen    *gen.Gen
	impl   *driver.Run
	target *model.TargetRun
	script []ops.Op
}

func newRolloutRun(t *rapid.T, name string, kind dataKind) *rolloutRun {
	r, err := driver.Start(nil, "", kind.writer)
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	return &rolloutRun{name: name + "-" + kind.slug(), kind: kind, gen: gen.New(kind.opt), impl: r, target: model.NewTarget(driver.DefaultSession)}
}

func (r *rolloutRun) step(t *rapid.T) {
	op := r.gen.Next(gen.Rapid{T: t})
	r.script = append(r.script, op)
	ei, et := r.impl.Apply(op), r.target.Apply(op)
	if (ei == nil) != (et == nil) {
		r.fail(t, "writers disagree on whether the op applies", "impl: "+errText(ei)+"\nmodel.Target: "+errText(et))
	}
	if ei != nil {
		t.Fatalf("generator drew an op neither side accepts: %v\n%s", ei, ops.String(r.script))
	}
}

// loads returns the load under every config of the rollout path.
func (r *rolloutRun) loads() []*webui.Loaded {
	st := r.impl.W.S.AtPersistedHead()
	out := make([]*webui.Loaded, len(flags.Rollout))
	for i, fl := range flags.Rollout {
		out[i] = webui.Load(st, fl)
	}
	return out
}

func (r *rolloutRun) fail(t *rapid.T, what, diff string) {
	t.Helper()
	report(t, r.name, r.script, fmt.Sprintf("[%s] %s", r.kind.name, what), diff)
}

// projected is a load reduced to what model.Target describes.
func projected(l *webui.Loaded) model.TargetView {
	return model.TargetView{HeadID: l.HeadID.ID(), Chain: harness.Project(l.Chain)}
}

func sameView(a, b model.TargetView) bool {
	return a.HeadID == b.HeadID && harness.SameChain(a.Chain, b.Chain)
}

func rowIDs(rows []model.TargetRow) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = r.ID
		if r.Kind == "card" {
			out[i] += "(card)"
		}
		if len(r.Calls) > 0 {
			out[i] += fmt.Sprintf("%v", r.Calls)
		}
	}
	return out
}

// slug names a data kind in file names.
func (k dataKind) slug() string {
	switch {
	case !k.legacy:
		return "flags-on"
	case k.opt.FlagFlips:
		return "flipped"
	}
	return "migration"
}
