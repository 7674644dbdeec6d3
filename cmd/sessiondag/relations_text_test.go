package main

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"sessiondag/audit"
)

// The text report as a reader takes it in: the sessions it lists, each
// with its steps' verdicts and the rows named under them, then the
// summary's counts, exceptions and verdict line (audit/text.go writes it).

// textSession is one session block of the text report.
type textSession struct {
	Dir, ID           string
	Broken, Violation bool
	Verdicts          map[string]string // "FROM → TO" → the step's verdict word
	Moved, Accepts    int               // rows named moved; findings named accepted
	Block             string            // the block as printed
}

// textReport is a parsed text report.
type textReport struct {
	Sessions []textSession
	Summary  string // from the "audited …" line to the end
	Head     string // the "audited …" line
	Counts   counts
	Problems []string // "NOT A VERDICT ON THE WHOLE" lines
	Notes    []string
}

var (
	headerLine = regexp.MustCompile(`^(\S+)  \((.*), (\d+) nodes\)$`)
	stepLine   = regexp.MustCompile(`^  (\S+)\s+→ (\S+)\s+(\S+)`)
	auditedRe  = regexp.MustCompile(`^audited (\d+) sessions, (\d+) nodes in [0-9.]+s \((\d+) with an op script giving the intended view(.*)\)$`)
	totalsRe   = regexp.MustCompile(`^broken sessions (\d+), violations (\d+), regressions (\d+) \((\d+) sessions where a step hides a user's message, (\d+) where one moves it to another branch\)$`)
	reviewedRe = regexp.MustCompile(`^reviewed exceptions: (\d+) of (\d+) accept a finding`)
	listedRe   = regexp.MustCompile(`^  (expired on \S+ \(accepts nothing\)|stale \(matches no finding: remove it\)): (\S+) (\S+ → \S+) row (\S+) \(`)
)

// parseText reads a text report (audit without --json, or summary).
func parseText(out string) (textReport, error) {
	var r textReport
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	at := slices.IndexFunc(lines, func(l string) bool { return auditedRe.MatchString(l) })
	if at < 1 || lines[at-1] != "" {
		return r, fmt.Errorf("no summary (an \"audited …\" line after an empty one)")
	}
	var err error
	if r.Sessions, err = textSessions(lines[:at-1]); err != nil {
		return r, err
	}
	r.Summary, r.Head = strings.Join(lines[at:], "\n")+"\n", lines[at]
	return r, r.summary(lines[at:])
}

// textSessions parses the session blocks.
func textSessions(lines []string) ([]textSession, error) {
	var out []textSession
	for _, l := range lines {
		if m := headerLine.FindStringSubmatch(l); m != nil {
			out = append(out, textSession{Dir: m[1], ID: m[2], Verdicts: map[string]string{}})
			continue
		}
		if len(out) == 0 || !strings.HasPrefix(l, "  ") {
			return nil, fmt.Errorf("a line outside a session block: %q", l)
		}
		s := &out[len(out)-1]
		s.Block += l + "\n"
		switch {
		case strings.HasPrefix(l, "  BROKEN: "):
			s.Broken = true
		case strings.HasPrefix(l, "  VIOLATION "):
			s.Violation = true
		case strings.HasPrefix(l, "      moved ") && !strings.HasPrefix(l, "      moved … "):
			s.Moved++
		case strings.HasPrefix(l, "      accepted "):
			s.Accepts++
		case strings.HasPrefix(l, "  chain "), strings.HasPrefix(l, "  note: "), strings.HasPrefix(l, "   "):
		default:
			m := stepLine.FindStringSubmatch(l)
			if m == nil {
				continue // the -v residual's title
			}
			s.Verdicts[m[1]+" → "+m[2]] = m[3]
		}
	}
	return out, nil
}

// summary parses the summary's lines.
func (r *textReport) summary(lines []string) error {
	c := &r.Counts
	m := auditedRe.FindStringSubmatch(lines[0])
	c.Sessions, c.Nodes, c.Intended = atoi(m[1]), atoi(m[2]), atoi(m[3])
	c.Verdict = lines[len(lines)-1]
	var cols []string
	for i, l := range lines {
		f := strings.Fields(l)
		switch {
		case len(f) > 2 && f[0] == "from" && f[1] == "to":
			cols = f
		case cols != nil && len(f) == len(cols) && len(c.Steps) < len(audit.NewSummary().Steps):
			row := [7]string{f[0], f[1], "0", "0", "0", "0", "0"}
			for j, name := range cols[2:] {
				row[2+slices.Index([]string{"unchanged", "fix", "regression", "accepted", "unjudged"}, name)] = f[2+j]
			}
			c.Steps = append(c.Steps, row)
			c.Accepted += atoi(row[5])
		case strings.HasPrefix(l, "NOT A VERDICT ON THE WHOLE: "):
			r.Problems = append(r.Problems, strings.TrimPrefix(l, "NOT A VERDICT ON THE WHOLE: "))
			if strings.HasPrefix(l, "NOT A VERDICT ON THE WHOLE: unreadable: ") {
				c.Unreadable++
			}
		case strings.HasPrefix(l, "note: "):
			r.Notes = append(r.Notes, strings.TrimPrefix(l, "note: "))
		case reviewedRe.MatchString(l):
			m := reviewedRe.FindStringSubmatch(l)
			c.ExceptionsUsed, c.ExceptionsListed = atoi(m[1]), atoi(m[2])
		case listedRe.MatchString(l):
			m := listedRe.FindStringSubmatch(l)
			if strings.HasPrefix(m[1], "expired") {
				c.Expired = append(c.Expired, exceptionName(m[2], m[3], m[4]))
			} else {
				c.Stale = append(c.Stale, exceptionName(m[2], m[3], m[4]))
			}
		case totalsRe.MatchString(l) && i == len(lines)-2:
			m := totalsRe.FindStringSubmatch(l)
			c.Broken, c.Violations, c.Regressions, c.Hidden, c.Moved = atoi(m[1]), atoi(m[2]), atoi(m[3]), atoi(m[4]), atoi(m[5])
		}
	}
	slices.Sort(c.Stale)
	slices.Sort(c.Expired)
	if len(c.Steps) != len(audit.NewSummary().Steps) {
		return fmt.Errorf("a step table of %d rows", len(c.Steps))
	}
	return nil
}

// categories are the text report's categories of the sessions it lists.
func (r textReport) categories() categories {
	var c categories
	for _, s := range r.Sessions {
		blocking, accepted := s.Broken || s.Violation, false
		for _, v := range s.Verdicts {
			blocking = blocking || v == audit.Regression
			accepted = accepted || v == audit.Accepted
		}
		if s.Broken {
			c.Broken = append(c.Broken, s.Dir)
		}
		if blocking {
			c.Blocking = append(c.Blocking, s.Dir)
		} else if s.Moved > 0 || s.Accepts > 0 {
			c.AtRisk = append(c.AtRisk, s.Dir)
		}
		if accepted {
			c.Accepted = append(c.Accepted, s.Dir)
		}
	}
	c.sort()
	return c
}

func atoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		panic(fmt.Sprintf("not a number: %q", s))
	}
	return n
}
