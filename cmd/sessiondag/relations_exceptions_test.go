package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"pgregory.net/rapid"

	"sessiondag/audit"
)

// Reviewed exceptions drawn from a run's own findings: some accepted (with
// no expiry or one far ahead), some expired, some stale — naming a row
// that is no finding of a session the run reaches, or a session it does
// not reach.

// finding is a row that makes a step a regression, as an exception names it.
type finding struct{ Session, Step, Row string }

func (f finding) String() string { return exceptionName(f.Session, f.Step, f.Row) }

// findingsOf are the findings of the regression steps of the sessions
// (docs/rollout.md §8.6): without an op script the rows the step loses
// and the user's messages no user finds; with one, the rows it takes off
// the chain, or else the rows it adds. Sessions and rows no exception can
// name (a blank id) are left out.
func findingsOf(ss []audit.Session) []finding {
	var out []finding
	for _, s := range ss {
		if strings.TrimSpace(s.ID) == "" {
			continue
		}
		for _, st := range s.Steps {
			if st.Verdict != audit.Regression && st.Verdict != audit.Accepted {
				continue
			}
			for _, r := range findingRows(st, s.Intended) {
				if strings.TrimSpace(r.ID) != "" {
					out = append(out, finding{s.ID, st.From + " → " + st.To, r.ID})
				}
			}
		}
	}
	return out
}

func findingRows(st audit.Step, intended bool) []audit.Row {
	switch {
	case !intended:
		return append(append([]audit.Row(nil), st.Lost...), st.Hidden...)
	case len(st.Removed) > 0:
		return st.Removed
	}
	return st.Added
}

// Expiry dates: one long past (the exception accepts nothing) and one far
// ahead.
const (
	pastDay   = "2001-02-03"
	futureDay = "2999-12-31"
)

// exceptionOf is an exception accepting f, until the day given ("": none).
func exceptionOf(f finding, reason, until string) audit.Exception {
	return audit.Exception{Session: f.Session, Step: f.Step, Row: f.Row, Reason: reason, Expires: until}
}

// drawExceptions draws a reviewed file from the findings of ss, step by
// step: every finding of the step accepted (with no expiry, or one far
// ahead), each accepted or not, each accepted or expired, or none; and
// stale ones naming a row no step finds in a session of ss, or a session
// no run reaches.
func drawExceptions(t *rapid.T, ss []audit.Session) []audit.Exception {
	var out []audit.Exception
	seen := map[finding]bool{}
	var byStep [][]finding // the findings of each step, in order
	for _, f := range findingsOf(ss) {
		if seen[f] {
			continue
		}
		seen[f] = true
		if n := len(byStep); n > 0 && byStep[n-1][0].Session == f.Session && byStep[n-1][0].Step == f.Step {
			byStep[n-1] = append(byStep[n-1], f)
		} else {
			byStep = append(byStep, []finding{f})
		}
	}
	for i, fs := range byStep {
		mode := rapid.IntRange(0, 4).Draw(t, fmt.Sprintf("exceptions of step %d", i))
		for j, f := range fs {
			switch {
			case mode == 1:
				out = append(out, exceptionOf(f, "reviewed", ""))
			case mode == 2:
				out = append(out, exceptionOf(f, "reviewed until later", futureDay))
			case mode == 3 && rapid.Bool().Draw(t, fmt.Sprintf("finding %d.%d accepted", i, j)):
				out = append(out, exceptionOf(f, "reviewed", ""))
			case mode == 4 && rapid.Bool().Draw(t, fmt.Sprintf("finding %d.%d expired", i, j)):
				out = append(out, exceptionOf(f, "reviewed once", pastDay))
			case mode == 4:
				out = append(out, exceptionOf(f, "reviewed", ""))
			}
		}
	}
	steps := audit.NewSummary().Steps
	for k := range rapid.IntRange(0, 2).Draw(t, "stale exceptions") {
		session := "local_unreached"
		if len(ss) > 0 && rapid.Bool().Draw(t, "stale in a session reached") {
			session = ss[rapid.IntRange(0, len(ss)-1).Draw(t, "stale session")].ID
		}
		st := steps[rapid.IntRange(0, len(steps)-1).Draw(t, "stale step")]
		if strings.TrimSpace(session) != "" {
			out = append(out, audit.Exception{Session: session, Step: st.From + " → " + st.To,
				Row: fmt.Sprintf("no-such-row-%d", k), Reason: "stale"})
		}
	}
	return out
}

// writeExceptions writes a reviewed file and returns its path.
func writeExceptions(dir string, es []audit.Exception) (string, error) {
	if es == nil {
		es = []audit.Exception{} // an empty list, not none
	}
	b, err := json.MarshalIndent(map[string]any{"exceptions": es}, "", "  ")
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, fmt.Sprintf("exceptions-%d.json", len(es)))
	for i := 0; fileExists(path); i++ {
		path = filepath.Join(dir, fmt.Sprintf("exceptions-%d-%d.json", len(es), i))
	}
	return path, os.WriteFile(path, b, 0o644)
}

func fileExists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}
