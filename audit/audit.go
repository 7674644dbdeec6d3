package audit

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"sessiondag/audit/reconstruct/proof"
	"sessiondag/checker/harness"
	"sessiondag/impl/flags"
	"sessiondag/impl/lane"
	"sessiondag/impl/store"
	"sessiondag/impl/webui"
	"sessiondag/model"
	"sessiondag/ops"
)

// ScriptName is the op script `sessiondag gen` leaves beside a session it
// wrote; with it the audit knows the intended conversation exactly.
const ScriptName = "session.ops"

// Verdicts of a rollout step.
const (
	Unchanged  = "unchanged"
	Fix        = "fix"
	Regression = "regression"
	// Unjudged: the step changes the view of a broken session, whose files
	// could not all be read (ruleBrokenNoVerdict).
	Unjudged = "unjudged"
	// Accepted: a regression whose every finding a reviewed exception
	// accepts (ruleAccepted).
	Accepted = "accepted"
)

// Config is one config's load of a session.
type Config struct {
	Flags    string `json:"flags"`
	HeadID   string `json:"head_id"`
	ChainLen int    `json:"chain_len"`
	Fallback bool   `json:"fallback_used"`
	// Gap to the intended conversation (rows missing, rows wrong); nil
	// when the session has no op script to say what was intended.
	Gap *harness.Gap `json:"gap,omitempty"`
}

// Step is what one rollout step changes.
type Step struct {
	From    string `json:"from"`
	To      string `json:"to"`
	Verdict string `json:"verdict"`
	Detail  string `json:"detail,omitempty"`
	// Added and Removed are the rows the step shows that the config before
	// did not, and the other way round (a row folded into a shown reply
	// counts as shown), in chain order.
	Added   []Row `json:"added"`
	Removed []Row `json:"removed"`
	// Hidden are the removed rows that are a user's message no user finds
	// in the new config (with an op script: a message of the intended
	// conversation the step takes off the chain).
	Hidden []Row `json:"hidden_users,omitempty"`
	// Moved are the removed rows that are a user's message now on another
	// branch a user reaches (Went says which and how).
	Moved []Row `json:"moved_users,omitempty"`
	// Lost are the removed rows, other than a user's message, that no
	// user finds under the new config: shown by no load, or only at a
	// head nothing leads to (and not rows R's fallback glued on).
	Lost []Row `json:"lost,omitempty"`
	// Accepted are the findings reviewed exceptions accept.
	Accepted []Acceptance `json:"accepted,omitempty"`
}

// Session is the audit of one session directory.
type Session struct {
	Dir      string `json:"dir"`
	ID       string `json:"session_id"`
	Nodes    int    `json:"nodes"`
	Intended bool   `json:"intended"` // an op script gave the intended view
	// IntentFrom says where that script came from: ScriptName, or
	// "reconstructed" (from the session's rows, the only reading).
	IntentFrom string `json:"intent_from,omitempty"`
	// Reconstruction is what reconstruct made of a session without an op
	// script; Proof where its script (an op script's, a reconstruction's,
	// an ambiguous one's first reading) lies against what was checked.
	Reconstruction *Reconstruction  `json:"reconstruction,omitempty"`
	Proof          *proof.Placement `json:"proof,omitempty"`
	Configs        []Config         `json:"configs"`
	Steps          []Step           `json:"steps"`
	Violations     []string         `json:"violations"`
	Notes          []string         `json:"notes,omitempty"`
	// Error: the session could not be opened at all. Unreadable: files
	// of it that could not be used, each with the reason (its op script
	// included). Either makes the session broken.
	Error      string   `json:"error,omitempty"`
	Unreadable []string `json:"unreadable,omitempty"`
	// Residual is what the last config still does not show: with an op
	// script the intended rows it misses, without one the conversation
	// rows no config shows.
	Residual []Residue `json:"residual"`
	// Columns are the chains of every config laid out for the page
	// (kept only when asked for: Options.Columns).
	Columns []Column `json:"-"`
}

// MovesUser reports whether a step moves a user's message to another
// branch.
func (s *Session) MovesUser() bool {
	for _, st := range s.Steps {
		if len(st.Moved) > 0 {
			return true
		}
	}
	return false
}

// HidesUser reports whether a step hides a user's message.
func (s *Session) HidesUser() bool {
	for _, st := range s.Steps {
		if len(st.Hidden) > 0 {
			return true
		}
	}
	return false
}

// Broken reports whether the session could not be read whole.
func (s *Session) Broken() bool { return s.Error != "" || len(s.Unreadable) > 0 }

// Failed reports whether the session has a regression, a violation or
// could not be audited.
func (s *Session) Failed() bool {
	if s.Broken() || len(s.Violations) > 0 {
		return true
	}
	for _, st := range s.Steps {
		if st.Verdict == Regression {
			return true
		}
	}
	return false
}

// One audits a session directory. It opens every file read-only.
// Without an op script beside it, the session is judged by where each
// removed row went (docs/rollout.md §8.3); OneWith with Reconstruct set
// reconstructs one from its rows first.
func One(dir string) *Session { return one(dir, Options{}) }

// OneWith audits a session directory with the options that apply to one
// session (Reconstruct, Columns).
func OneWith(dir string, o Options) *Session { return one(dir, o) }

// one audits a session directory, reconstructing the script of one without
// when o.Reconstruct is set and laying out its chains for the page when
// o.Columns is.
func one(dir string, o Options) *Session {
	rep := &Session{Dir: dir, Violations: []string{}, Residual: []Residue{}}
	// The intended view comes from the op script alone: the models replay
	// it while the implementation reads and loads the session.
	intent := make(chan intention, 1)
	go func() { intent <- intended(dir, o.Reconstruct) }()
	st, err := store.Open(dir)
	if err != nil {
		rep.Error = err.Error()
		<-intent
		return rep
	}
	rep.ID, rep.Nodes = st.ID, st.Len()
	for _, p := range st.Problems {
		rep.Unreadable = append(rep.Unreadable, p.Error())
	}
	rep.Notes = append(rep.Notes, st.Notes...) // a write in progress, seen and left alone
	if st.LexicalMisorder {
		rep.Notes = append(rep.Notes, "the original would order history files differently (seq ≥ 10000)")
	}
	loads := loadAll(st, rep)
	in := <-intent
	if in.err != nil {
		// The intended view cannot be known; judging without it could
		// pass what the script says is wrong.
		rep.Unreadable = append(rep.Unreadable, in.err.Error())
	}
	script := in.script
	rep.IntentFrom, rep.Reconstruction, rep.Proof = in.from, in.rec, in.proof
	var want *model.TargetView
	if script != nil {
		v := script.Intended()
		want = &v
	}
	rep.Intended = want != nil
	strict := script != nil && script.Strict()

	preds := lane.PredsOf(st) // the loads derive the same ones: shared
	budget := placeLoads
	anc := newAnchors(st) // one memory for every step: anchors do not depend on the flags
	for i, fl := range flags.Rollout {
		l := loads[i]
		c := Config{Flags: fl.String(), HeadID: l.HeadID.ID(), ChainLen: len(l.Chain), Fallback: l.FallbackUsed}
		if want != nil {
			g := harness.ViewGap(project(l), *want)
			c.Gap = &g
		}
		rep.Configs = append(rep.Configs, c)
		if i > 0 {
			step := classify(flags.Rollout[i-1], fl, loads[i-1], l, want, strict, preds.IsConv, newPlacer(st, anc, fl, l, &budget))
			ruleBrokenNoVerdict(rep, &step)
			rep.Steps = append(rep.Steps, step)
		}
	}
	if want != nil {
		rep.Residual = intendedResidual(st, preds, script.Target, *want, loads[0], loads[len(loads)-1])
	} else {
		rep.Residual = unshownResidual(st, preds, loads)
	}
	if rep.Residual == nil {
		rep.Residual = []Residue{}
	}
	if o.Columns {
		rep.Columns = layout(loads, rep.Steps)
	}
	return rep
}

// intention is what intended gives back, across the goroutine that runs it.
type intention struct {
	script *harness.Session
	from   string
	rec    *Reconstruction
	proof  *proof.Placement
	err    error
}

// loadAll loads the session under every config of the rollout path and
// reports what no load may do, whatever the data.
func loadAll(st *store.Store, rep *Session) []*webui.Loaded {
	agg := harness.NewAggregationCheck()
	loads := make([]*webui.Loaded, len(flags.Rollout))
	for i, fl := range flags.Rollout {
		var l *webui.Loaded
		reads := harness.CountParentReads(st, func() { l = webui.Load(st, fl) })
		for _, v := range invariants(l, agg) {
			rep.Violations = append(rep.Violations, fl.String()+": "+v)
		}
		if fl.Has(flags.D) && reads != 0 {
			rep.Violations = append(rep.Violations, fmt.Sprintf("%s: %d reads of parent_id under flag D", fl, reads))
		}
		loads[i] = l
	}
	return loads
}

// intended replays the op script beside a session, if there is one, else
// (when reconstruct is set) the one reconstructed from its rows when that
// is the only reading,
// through the models alone (harness.Session): its Intended view is what the
// session means, its Strict flag is set when every row was written with the
// flags on, as the script's flag and writer ops say wherever they occur (one
// writer or several, from the first op or later): then every change must be
// a fix by harness.Gap; data with rows written before the rollout, or by a
// writer on an earlier step, is judged by the no-lost-message rule
// (harness.IsFix). A session that is ambiguous, undecided or unexplained
// gets no script: it is judged as one without.
func intended(dir string, reconstruct bool) intention {
	path := filepath.Join(dir, ScriptName)
	text, err := readRegular(path)
	if errors.Is(err, fs.ErrNotExist) && !reconstruct {
		return intention{}
	}
	if errors.Is(err, fs.ErrNotExist) {
		rec, script, placed := reconstructed(dir)
		in := intention{rec: rec, proof: place(placed)}
		if script != nil {
			in.script, in.err = replayed(script, "reconstructed script")
			in.from = "reconstructed"
		}
		return in
	}
	if err != nil {
		return intention{err: fmt.Errorf("%s: %w", ScriptName, err)}
	}
	script, err := ops.Parse(strings.NewReader(text), path)
	if err != nil {
		return intention{err: err} // names the file and the line
	}
	s, err := replayed(script, ScriptName)
	return intention{script: s, from: ScriptName, proof: place(script), err: err}
}

// replayed is a script replayed through the models (named what in an
// error).
func replayed(script []ops.Op, what string) (*harness.Session, error) {
	s, err := harness.NewSession(harness.Options{Data: harness.DataFor(script, flags.Off), SessionID: harness.SessionIDOf(script), ModelOnly: true})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	for _, op := range script {
		if _, err := s.Apply(op); err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
	}
	return s, nil
}

func project(l *webui.Loaded) model.TargetView { return harness.Projected(l) }
