package harness

import (
	"encoding/json"
	"fmt"

	"sessiondag/driver"
	"sessiondag/impl/flags"
	"sessiondag/impl/webui"
	"sessiondag/internal/jsoncmp"
	"sessiondag/model"
	"sessiondag/ops"
)

// Mismatch is the first place a replay found the implementation wrong.
type Mismatch struct {
	Step    int    // 1-based op number
	Op      string // the op, as a script line
	Against string // which model disagreed
	Section string // which view
	Diff    string // go-cmp diff, -want +got
}

func (m *Mismatch) String() string {
	return fmt.Sprintf("after op %d (%s): %s, view %s differs (-want +got):\n%s", m.Step, m.Op, m.Against, m.Section, m.Diff)
}

// Replay builds a session from a script through the implementation's
// writers with flag set fl and checks every view after every op: against
// model.Legacy when fl is off, against model.Target when fl is all. For the
// configs in between it checks the rollout's first promise: the loaded chain
// misses no more rows of the intended conversation than R's.
func Replay(script []ops.Op, fl flags.Set) (*Mismatch, error) {
	var first ops.Op
	if len(script) > 0 {
		first = script[0]
	}
	run, err := driver.Start(first, "", fl)
	if err != nil {
		return nil, err
	}
	sid := run.W.S.ID
	legacyWrites := fl == flags.Off // model.Legacy describes data written with every flag off
	leg := model.NewLegacy(sid)
	tgt := model.NewTarget(sid)
	for i, op := range script {
		if err := run.Apply(op); err != nil {
			return nil, fmt.Errorf("op %d (%s): %w", i+1, ops.Format(op), err)
		}
		if err := leg.Apply(op); err != nil {
			return nil, fmt.Errorf("op %d (%s): model.Legacy refuses it: %w", i+1, ops.Format(op), err)
		}
		if err := tgt.Apply(op); err != nil {
			return nil, fmt.Errorf("op %d (%s): model.Target refuses it: %w", i+1, ops.Format(op), err)
		}
		if f, ok := op.(ops.Flag); ok && f.Set != "off" {
			legacyWrites = false
		}
		st := run.W.S.AtPersistedHead()
		mm := &Mismatch{Step: i + 1, Op: ops.Format(op)}
		switch {
		case fl == flags.Off && !legacyWrites:
			// Rows written with flags on carry fields R never wrote; the
			// rollout rule below still applies to what R shows of them.
		case fl == flags.Off:
			if s, d := ViewDiff(leg.View(), webui.Views(st, fl)); s != "" {
				mm.Against, mm.Section, mm.Diff = "model.Legacy", s, d
				return mm, nil
			}
		case fl == flags.All:
			if d := TargetDiff(tgt.View(), webui.Load(st, fl)); d != "" {
				mm.Against, mm.Section, mm.Diff = "model.Target", "chain", d
				return mm, nil
			}
		default:
			want := tgt.View()
			got := ViewGap(model.TargetView{HeadID: "", Chain: Project(webui.Load(st, fl).Chain)}, want)
			base := ViewGap(model.TargetView{HeadID: "", Chain: Project(webui.Load(st, flags.Off).Chain)}, want)
			if got.Missing > base.Missing {
				mm.Against, mm.Section = "model.Target", "chain"
				mm.Diff = fmt.Sprintf("flags %s miss %d rows of the intended conversation; flags off miss %d", fl, got.Missing, base.Missing)
				return mm, nil
			}
		}
	}
	return nil, nil
}

// TargetDiff compares a load with the intended view: the head and the
// projected chain, key order included ("" when they agree).
func TargetDiff(want model.TargetView, l *webui.Loaded) string {
	got := model.TargetView{HeadID: l.HeadID.ID(), Chain: Project(l.Chain)}
	if got.Chain == nil {
		got.Chain = []model.TargetRow{}
	}
	if want.Chain == nil {
		want.Chain = []model.TargetRow{}
	}
	w, err := roundTrip(want)
	if err != nil {
		return err.Error()
	}
	g, err := roundTrip(got)
	if err != nil {
		return err.Error()
	}
	return jsoncmp.Diff(w, g)
}

func roundTrip(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return jsoncmp.Decode(b)
}
