package reconstruct

import (
	"sessiondag/checker/campaign"
	"sessiondag/model"
	"sessiondag/ops"
)

// Verdicts of a reconstruction.
const (
	// Reconstructed: one script explains the data, or several that mean
	// the same intended view.
	Reconstructed = "reconstructed"
	// Ambiguous: scripts that explain the data mean different intended
	// views (Alternatives).
	Ambiguous = "ambiguous"
	// Undecided: the data does not hold the intent at some op (ops.Intent)
	// and no alternative was built there, or the alternatives built so far
	// all mean the same view but not every one was built: never unique.
	Undecided = "undecided"
	// Unexplained: no script explains a row (First).
	Unexplained = "unexplained"
)

// Result is the reconstruction of one session directory.
type Result struct {
	Dir     string
	ID      string
	Rows    int
	Verdict string
	// Script explains the rows (for an unexplained session, the rows
	// before First). For an ambiguous one it is one reading: the browser
	// ops placed as late as the data allows.
	Script []ops.Op
	// Exact: the script's writes equal the files (every row's keys, order
	// and values, the file names, meta.json). Otherwise Gaps name the
	// values the op language does not carry, by class.
	Exact bool
	Gaps  []Gap
	// Dropped are the seqs no row holds: rows written and dropped (drop),
	// which the script writes as attach pointers it drops (what they held
	// went with their files; nothing stored says).
	Dropped []int
	// View is the script's intended view (model.Target).
	View model.TargetView
	// First is the first row no script explains (Verdict Unexplained).
	First *FirstRow
	// Alternatives are the other readings, each with its intended view;
	// Rebuilt is how many readings were rebuilt to find them (at most
	// maxTries: the cost of a session is that many linear passes more).
	Alternatives []Alternative
	Rebuilt      int
	// Open are the ops where the data does not hold the intent and no
	// alternative was built (Verdict Undecided), each with the rule's reason.
	Open []string
	// Folder are the edits of the folder beside the script's writes: the
	// model-called runs the function subprocess numbered (subprocess.go).
	// A script file holds them as `#! folder` lines (checker/campaign).
	Folder []campaign.FolderEdit
	// Disagree names a row the implementation's writers (impl/writer,
	// through checker/driver) write otherwise than model.Legacy: a
	// finding about the writers, not about the data.
	Disagree string
}

// Unique reports whether the session has one intended view: reconstructed.
func (r *Result) Unique() bool { return r.Verdict == Reconstructed }

// FirstRow is the first row no script explains, and why.
type FirstRow struct {
	File string // history/<name>, or meta.json
	ID   string
	// Op is the op that would have written the row (a script line), ""
	// when no op of the vocabulary writes a row of its shape.
	Op    string
	Field string // the field that differs ("" when no op writes it)
	// Stored and Written are the field's values (JSON), Written "" when
	// the op writes no such field.
	Stored, Written string
	Why             string
}

// Gap is one class of values the op language does not carry that the
// session's rows hold: how many fields, and the first one.
type Gap struct {
	Class string
	Count int
	First string // file and field of the first
}

// Alternative is another reading of the data: the change to Script and the
// intended view it gives.
type Alternative struct {
	At     int    // the index in Script where it differs
	Reason string // why the data allows it (the shape ops.Intent names)
	Change string // what differs, as script lines
	View   model.TargetView
}
