package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"sessiondag/audit"
	"sessiondag/internal/verdict"
)

// What the relations read of a run: its exit code and output, and the
// JSON lines parsed. The sessions' categories and the run's counts are
// derived here from the JSON fields by docs/rollout.md §8's statements,
// not by the audit's own functions, so that each format is held to the
// rules and not to another format's reading of them.

// result is one in-process run of the command.
type result struct {
	args      []string
	code      int
	out, errs string
}

// cli runs the command with args in-process.
func cli(args ...string) result {
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return result{args: args, code: code, out: out.String(), errs: errb.String()}
}

func (r result) String() string {
	return fmt.Sprintf("sessiondag %s: exit %d\n--- stdout\n%s--- stderr\n%s", strings.Join(r.args, " "), r.code, r.out, r.errs)
}

// jsonRun is the JSON lines of `audit --json` or `summary --json`.
type jsonRun struct {
	Sessions []string // each session record as printed, in order
	Decoded  []audit.Session
	Summary  audit.Summary
	Raw      string // the summary record's "summary" as printed
	Verdict  *verdict.Verdict
}

// parseJSON reads JSON lines: session records, then one summary record.
func parseJSON(out string) (jsonRun, error) {
	var r jsonRun
	summaries := 0
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<30)
	for sc.Scan() {
		var rec struct {
			Kind    string           `json:"kind"`
			Session json.RawMessage  `json:"session"`
			Summary json.RawMessage  `json:"summary"`
			Verdict *verdict.Verdict `json:"verdict"`
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			return r, fmt.Errorf("%.200s: %w", sc.Text(), err)
		}
		if rec.Kind != audit.Kind {
			return r, fmt.Errorf("a record of kind %q", rec.Kind)
		}
		switch {
		case rec.Session != nil:
			var s audit.Session
			if err := json.Unmarshal(rec.Session, &s); err != nil {
				return r, err
			}
			r.Sessions = append(r.Sessions, string(rec.Session))
			r.Decoded = append(r.Decoded, s)
		case rec.Summary != nil:
			summaries++
			r.Raw, r.Verdict = string(rec.Summary), rec.Verdict
			if err := json.Unmarshal(rec.Summary, &r.Summary); err != nil {
				return r, err
			}
		}
	}
	if summaries != 1 || r.Verdict == nil {
		return r, fmt.Errorf("%d summary records (one wanted, with its verdict)", summaries)
	}
	return r, sc.Err()
}

// categories are the sessions a report names, by directory, sorted: those
// that block the rollout (a broken session, a violation, a regression),
// those at risk (nothing blocks, but a step moves a user's message to
// another branch or a reviewed exception accepts a finding), those with a
// step the exceptions accept, and the broken ones.
type categories struct {
	Blocking, AtRisk, Accepted, Broken []string
}

func (c *categories) sort() {
	for _, l := range []*[]string{&c.Blocking, &c.AtRisk, &c.Accepted, &c.Broken} {
		slices.Sort(*l)
	}
}

// sessionCategories are the categories of the JSON session records.
func sessionCategories(ss []audit.Session) categories {
	var c categories
	for _, s := range ss {
		broken := s.Error != "" || len(s.Unreadable) > 0
		blocking := broken || len(s.Violations) > 0
		moves, accepts, accepted := false, false, false
		for _, st := range s.Steps {
			blocking = blocking || st.Verdict == audit.Regression
			moves = moves || len(st.Moved) > 0
			accepts = accepts || len(st.Accepted) > 0
			accepted = accepted || st.Verdict == audit.Accepted
		}
		if broken {
			c.Broken = append(c.Broken, s.Dir)
		}
		if blocking {
			c.Blocking = append(c.Blocking, s.Dir)
		} else if moves || accepts {
			c.AtRisk = append(c.AtRisk, s.Dir)
		}
		if accepted {
			c.Accepted = append(c.Accepted, s.Dir)
		}
	}
	c.sort()
	return c
}

// changed reports whether a step of s changes its view.
func changed(s audit.Session) bool {
	for _, st := range s.Steps {
		if st.Verdict != audit.Unchanged {
			return true
		}
	}
	return false
}

// counts are the totals every form of a run's summary states.
type counts struct {
	Sessions, Nodes, Intended                    int
	Broken, Violations, Regressions, Accepted    int
	Hidden, Moved                                int
	Steps                                        [][7]string // from, to, unchanged, fix, regression, accepted, unjudged
	Verdict                                      string      // the verdict line
	Stale, Expired                               []string    // the exceptions listed so, by session, step and row
	ExceptionsUsed, ExceptionsListed, Unreadable int
}

// summaryCounts are the counts of a JSON summary and its verdict.
func summaryCounts(sum audit.Summary, v verdict.Verdict) counts {
	c := counts{Sessions: sum.Sessions, Nodes: sum.Nodes, Intended: sum.Intended, Broken: sum.Broken,
		Violations: sum.Violations, Regressions: sum.Regressions, Accepted: sum.Accepted,
		Hidden: sum.HiddenUsers, Moved: sum.MovedUsers, Verdict: v.Line(), ExceptionsListed: len(sum.Exceptions),
		Unreadable: len(sum.TreeProblems)}
	for _, st := range sum.Steps {
		c.Steps = append(c.Steps, [7]string{st.From, st.To, fmt.Sprint(st.Unchanged), fmt.Sprint(st.Fix),
			fmt.Sprint(st.Regression), fmt.Sprint(st.Accepted), fmt.Sprint(st.Unjudged)})
	}
	whole := sum.Shard == "" && (len(sum.Shards) == 0 || len(sum.ShardProblems()) == 0)
	for _, u := range sum.Exceptions {
		if u.Used {
			c.ExceptionsUsed++
		}
		name := exceptionName(u.Session, u.Step, u.Row)
		if u.Expired {
			c.Expired = append(c.Expired, name)
		}
		// §8.6: stale when it matches no finding of a session the run
		// audited, or of any once the run is whole; an expired one is
		// listed as expired.
		if !u.Used && !u.Expired && (u.Seen || whole) {
			c.Stale = append(c.Stale, name)
		}
	}
	slices.Sort(c.Stale)
	slices.Sort(c.Expired)
	return c
}

// exceptionName is how the relations name an exception in a list.
func exceptionName(session, step, row string) string { return session + " " + step + " row " + row }
