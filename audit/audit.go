package audit

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"sessiondag/harness"
	"sessiondag/impl/adapter"
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
}

// Session is the audit of one session directory.
type Session struct {
	Dir        string   `json:"dir"`
	ID         string   `json:"session_id"`
	Nodes      int      `json:"nodes"`
	Intended   bool     `json:"intended"` // an op script gave the intended view
	Configs    []Config `json:"configs"`
	Steps      []Step   `json:"steps"`
	Violations []string `json:"violations"`
	Notes      []string `json:"notes,omitempty"`
	Error      string   `json:"error,omitempty"`
}

// Failed reports whether the session has a regression, a violation or
// could not be audited.
func (s *Session) Failed() bool {
	if s.Error != "" || len(s.Violations) > 0 {
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
func One(dir string) *Session {
	rep := &Session{Dir: dir, Violations: []string{}}
	st, err := store.Open(dir)
	if err != nil {
		rep.Error = err.Error()
		return rep
	}
	rep.ID, rep.Nodes = st.ID, st.Len()
	for _, p := range st.Problems {
		rep.Violations = append(rep.Violations, "unreadable: "+p.Error())
	}
	if st.LexicalMisorder {
		rep.Notes = append(rep.Notes, "the original would order history files differently (seq ≥ 10000)")
	}
	want, strict, err := intended(dir)
	if err != nil {
		rep.Notes = append(rep.Notes, "op script ignored: "+err.Error())
	}
	rep.Intended = want != nil

	preds := lane.NewPreds(st)
	var prev *webui.Loaded
	for i, fl := range flags.Rollout {
		before := adapter.ParentReads()
		l := webui.Load(st, fl)
		reads := adapter.ParentReads() - before
		c := Config{Flags: fl.String(), HeadID: l.HeadID.ID(), ChainLen: len(l.Chain), Fallback: l.FallbackUsed}
		if want != nil {
			g := harness.ViewGap(project(l), *want)
			c.Gap = &g
		}
		rep.Configs = append(rep.Configs, c)
		for _, v := range invariants(l) {
			rep.Violations = append(rep.Violations, fl.String()+": "+v)
		}
		if fl.Has(flags.D) && reads != 0 {
			rep.Violations = append(rep.Violations, fmt.Sprintf("%s: %d reads of parent_id under flag D", fl, reads))
		}
		if prev != nil {
			rep.Steps = append(rep.Steps, classify(flags.Rollout[i-1], fl, prev, l, want, strict, preds.IsConv))
		}
		prev = l
	}
	return rep
}

// intended replays the op script beside a session, if there is one. strict
// is set when the whole session was written with the flags on (the script
// starts by turning them on): then every change must be a fix by
// harness.Gap; data written before the rollout is judged by the no-lost-
// message rule (props, TestP3RolloutSafety).
func intended(dir string) (view *model.TargetView, strict bool, err error) {
	f, err := os.Open(filepath.Join(dir, ScriptName))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	script, err := ops.Parse(f, filepath.Join(dir, ScriptName))
	if err != nil {
		return nil, false, err
	}
	r := model.NewTarget(driverSession(script))
	for i, op := range script {
		if err := r.Apply(op); err != nil {
			return nil, false, fmt.Errorf("op %d: %w", i+1, err)
		}
	}
	for _, op := range script {
		if _, ok := op.(ops.Session); ok {
			continue
		}
		if fo, ok := op.(ops.Flag); ok && fo.Set == "all" {
			strict = true
		}
		break
	}
	v := r.View()
	return &v, strict, nil
}

func project(l *webui.Loaded) model.TargetView {
	return model.TargetView{HeadID: l.HeadID.ID(), Chain: harness.Project(l.Chain)}
}

func driverSession(script []ops.Op) string {
	if len(script) > 0 {
		if s, ok := script[0].(ops.Session); ok && s.ID != "" {
			return s.ID
		}
	}
	return model.DefaultSessionID
}
