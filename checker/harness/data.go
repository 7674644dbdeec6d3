package harness

import (
	"sessiondag/impl/flags"
	"sessiondag/model"
	"sessiondag/ops"
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
	// Flips is how the flags in force may change over the script: not at
	// all, only forward along the rollout path, or any way.
	Flips Flips
	// Synced: only data whose intent is in the data (ops.Intent): legacy
	// shapes that record a parent their user never meant, or none where
	// the place is not in the data, are left out.
	Synced bool
}

// Flips is how the flags in force — those of the writer performing each op
// — change over a script, from the writers' start: Steady (never: one
// writer, or several on the same flags), Forward (only to later steps of the
// rollout path, as a rollout is planned) or Any (a step rolled back, or
// writers on different steps taking turns: a rollout as it happens).
type Flips uint8

const (
	Steady Flips = iota
	Forward
	Any
)

// FlipsFrom is how the flags in force change over script when the writers
// start with the flags at step start of the rollout path.
func FlipsFrom(start int, script []ops.Op) Flips {
	flips, step := Steady, start
	for _, op := range script {
		flips, step = NextFlips(flips, step, op)
	}
	return flips
}

// NextFlips follows the flags in force over one op: given how they changed
// before it (f) and the step in force (step), how they have changed after
// it and the step then in force. Flag ops and writer ops set it; one whose
// set names no step is left to validity.
func NextFlips(f Flips, step int, op ops.Op) (Flips, int) {
	var next int
	var err error
	switch op := op.(type) {
	case ops.Flag:
		next, err = op.Step()
	case ops.Writer:
		next, err = op.Step()
	default:
		return f, step
	}
	switch {
	case err != nil:
		return f, step
	case next < step:
		f = Any
	case next > step:
		f = max(f, Forward)
	}
	return f, next
}

// The kinds of data. Rows written before the rollout can contradict the
// intent (a web turn typed in a stale browser records the stale parent), so
// the rollout properties hold on the synced kinds and judge them by what the
// rollout promises above all: no step hides a message of the intended
// conversation (IsFix, not strict). The implementation's invariants and
// flags-off fidelity hold on every legacy shape. Every kind may have several
// writers; on a kind without flips they all run the same flags.
var (
	WrittenOn  = Data{Name: "written with the flags on", Slug: "flags-on", Writer: flags.All}
	WrittenOff = Data{Name: "written with the flags off (migration)", Slug: "migration", Writer: flags.Off, Synced: true}
	Flipped    = Data{Name: "flags flipped mid-session", Slug: "flipped", Writer: flags.Off, Flips: Forward, Synced: true}
	OffAny     = Data{Name: "written with the flags off, every legacy shape", Slug: "off-any", Writer: flags.Off}
	FlippedAny = Data{Name: "flags flipped mid-session, every legacy shape", Slug: "flipped-any", Writer: flags.Off, Flips: Forward}
	Mixed      = Data{Name: "rolled back or written by writers on different steps", Slug: "mixed", Writer: flags.Off, Flips: Any, Synced: true}
	MixedAny   = Data{Name: "rolled back or written by writers on different steps, every legacy shape", Slug: "mixed-any", Writer: flags.Off, Flips: Any}
)

// DataKinds are every kind, in the order reports list them.
var DataKinds = []Data{WrittenOn, WrittenOff, Flipped, Mixed, OffAny, FlippedAny, MixedAny}

// RolloutData are the kinds the rollout properties hold on.
var RolloutData = []Data{WrittenOn, WrittenOff, Flipped, Mixed}

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
// turn (model.LegacyRun judges validity, as for every reduction), the flags
// in force change no more than the kind allows, and with Synced the intent
// stays in the data after every op.
func (d Data) Admits(script []ops.Op) bool {
	id := SessionIDOf(script)
	if id == "" {
		id = ops.DefaultSession
	}
	run := model.NewLegacy(id)
	in := ops.IntentAt(d.Writer.String())
	flips, step := Steady, stepOf(d.Writer)
	for _, op := range script {
		flips, step = NextFlips(flips, step, op)
		kept := in.Keeps(op, run)
		if run.Apply(op) != nil {
			return false
		}
		in.Track(op, kept, run)
	}
	return d.Takes(flips, in.Holds())
}

// Takes reports whether a valid script belongs to the kind, given how the
// flags in force change over it and whether it keeps its intent in the data
// (ops.Intent): what Admits decides once the script is known to apply.
func (d Data) Takes(flips Flips, intentHolds bool) bool {
	return flips <= d.Flips && (!d.Synced || intentHolds)
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
	return Data{Writer: flags.Off, Flips: Any, Synced: true}.Admits(script)
}

// DataFor is the data a script written by writers starting with fl is, read
// from the flag and writer ops wherever they occur: written on when the flags
// stay all, written off (migration) when they stay off, flipped when they only
// move forward, mixed when a step is rolled back or writers on different
// steps take turns; a writer set off the rollout path keeps that set.
func DataFor(script []ops.Op, fl flags.Set) Data {
	var d Data
	switch FlipsFrom(stepOf(fl), script) {
	case Steady:
		d = WrittenOff
		if fl == flags.All {
			d = WrittenOn
		}
	case Forward:
		d = Flipped
	default:
		d = Mixed
	}
	d.Writer = fl
	return d
}

// stepOf is fl's position on the rollout path.
func stepOf(fl flags.Set) int {
	step, _ := ops.Step(fl.String())
	return step
}
