package harness

import (
	"sessiondag/checker/ops"
	"sessiondag/impl/flags"
	"sessiondag/model"
)

// Data is a kind of session data, named by how its rows were written
// relative to the rollout (docs/rollout.md §5). A check declares the kinds it
// holds on (Check.Data); a kind says which scripts belong to it (Admits), so
// the generator draws them (campaign.GenOptions), exhaust sorts its scripts by
// them, and a reduction stays inside the kind of the failure it reduces.
type Data struct {
	Name   string    // for reports
	Slug   string    // for file names and `#! check data=…`
	Writer flags.Set // the writers' flags at the start
	Flips  bool      // flag ops may change the writers' flags mid-session
	// Synced: only data whose intent is in the data (ops.Intent): legacy
	// shapes that record a parent their user never meant, or none where
	// the place is not in the data, are left out.
	Synced bool
}

// The kinds of data. Rows written before the rollout can contradict the
// intent (a web turn typed in a stale browser records the stale parent), so
// the rollout properties hold on the synced kinds and judge them by what the
// rollout promises above all: no step hides a message of the intended
// conversation (IsFix, not strict). The implementation's invariants and
// flags-off fidelity hold on every legacy shape.
var (
	WrittenOn  = Data{Name: "written with the flags on", Slug: "flags-on", Writer: flags.All}
	WrittenOff = Data{Name: "written with the flags off (migration)", Slug: "migration", Writer: flags.Off, Synced: true}
	Flipped    = Data{Name: "flags flipped mid-session", Slug: "flipped", Writer: flags.Off, Flips: true, Synced: true}
	OffAny     = Data{Name: "written with the flags off, every legacy shape", Slug: "off-any", Writer: flags.Off}
	FlippedAny = Data{Name: "flags flipped mid-session, every legacy shape", Slug: "flipped-any", Writer: flags.Off, Flips: true}
)

// DataKinds are every kind, in the order reports list them.
var DataKinds = []Data{WrittenOn, WrittenOff, Flipped, OffAny, FlippedAny}

// RolloutData are the kinds the rollout properties hold on.
var RolloutData = []Data{WrittenOn, WrittenOff, Flipped}

// DataBySlug finds a kind by its slug.
func DataBySlug(slug string) (Data, bool) {
	for _, d := range DataKinds {
		if d.Slug == slug {
			return d, true
		}
	}
	return Data{}, false
}

// Admits reports whether script is data of this kind: every op applies in
// turn (model.LegacyRun judges validity, as for every reduction), flag ops
// only where the kind has flips, and with Synced the intent stays in the
// data after every op.
func (d Data) Admits(script []ops.Op) bool {
	id := SessionIDOf(script)
	if id == "" {
		id = ops.DefaultSession
	}
	run := model.NewLegacy(id)
	in := ops.IntentAt(d.Writer.String())
	flagged := false
	for _, op := range script {
		_, isFlag := op.(ops.Flag)
		flagged = flagged || isFlag
		kept := in.Keeps(op, run)
		if run.Apply(op) != nil {
			return false
		}
		in.Track(op, kept, run)
	}
	return d.Takes(flagged, in.Holds())
}

// Takes reports whether a valid script belongs to the kind, given whether
// it has flag ops and whether it keeps its intent in the data (ops.Intent):
// what Admits decides once the script is known to apply.
func (d Data) Takes(flagged, intentHolds bool) bool {
	return (d.Flips || !flagged) && (!d.Synced || intentHolds)
}

// FirstAdmitting is the first of kinds whose writers start with fl and that
// admits script: the most specific kind a check declares for the script.
func FirstAdmitting(kinds []Data, fl flags.Set, script []ops.Op) (Data, bool) {
	for _, d := range kinds {
		if d.Writer == fl && d.Admits(script) {
			return d, true
		}
	}
	return Data{}, false
}

// IntentInData reports whether a script written with the flags off holds
// its intent in the data (ops.Intent), false if the writer model refuses
// one of its ops.
func IntentInData(script []ops.Op) bool {
	return Data{Writer: flags.Off, Flips: true, Synced: true}.Admits(script)
}

// DataFor is the data a script written by writers starting with fl is: written
// on when fl is all, flipped when the script has flag ops, else migration;
// a writer set off the rollout path keeps that set.
func DataFor(script []ops.Op, fl flags.Set) Data {
	d := WrittenOff
	for _, op := range script {
		if _, ok := op.(ops.Flag); ok {
			d = Flipped
		}
	}
	if fl == flags.All {
		d = WrittenOn
	}
	d.Writer = fl
	return d
}
