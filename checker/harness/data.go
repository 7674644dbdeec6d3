package harness

import (
	"sessiondag/checker/gen"
	"sessiondag/checker/ops"
	"sessiondag/impl/flags"
)

// Data is how a session's rows were written relative to the rollout
// (docs/rollout.md §5, P3): every rollout property runs on each kind.
type Data struct {
	Name   string      // for reports
	Slug   string      // for file names and `#! check data=…`
	Writer flags.Set   // the writers' flags at the start
	Gen    gen.Options // what the generator draws for this kind
}

// The three kinds of data. Rows written before the rollout can contradict
// the intent (a web turn typed in a stale browser records the stale parent),
// so such data is judged by what the rollout promises above all: no step
// hides a message of the intended conversation (IsFix, not strict).
var (
	WrittenOn = Data{"written with the flags on", "flags-on", flags.All,
		gen.Options{Legacy: true, StartStep: len(ops.RolloutPath) - 1}}
	WrittenOff = Data{"written with the flags off (migration)", "migration", flags.Off,
		gen.Options{Legacy: true, SyncedBrowser: true}}
	Flipped = Data{"flags flipped mid-session", "flipped", flags.Off,
		gen.Options{Legacy: true, FlagFlips: true, SyncedBrowser: true}}
)

// DataKinds are the three kinds, in the order reports list them.
var DataKinds = []Data{WrittenOn, WrittenOff, Flipped}

// DataBySlug finds a kind by its slug.
func DataBySlug(slug string) (Data, bool) {
	for _, d := range DataKinds {
		if d.Slug == slug {
			return d, true
		}
	}
	return Data{}, false
}

// DataFor is the kind a script is when its writers start with fl: written
// on when fl is all, flipped when the script has flag ops, else migration.
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
