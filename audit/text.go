package audit

import (
	"fmt"
	"io"
	"strings"

	"sessiondag/audit/reconstruct/proof"
	"sessiondag/internal/termtext"
)

// The audit's text report (sessiondag audit without --json): a block per
// session listed, then the summary. The page (page.go) and the JSON
// records (record.go) say the same in their forms.

// WriteText writes the session as the text report lists it: its chain
// under each config, each step that changes it with its verdict and the
// rows that make it so (rows: every row each step adds and removes, and
// the residual), its violations and notes.
func (s *Session) WriteText(w io.Writer, rows bool) {
	fmt.Fprintf(w, "%s  (%s, %d nodes)\n", line(s.Dir), line(s.ID), s.Nodes)
	if s.Error != "" {
		fmt.Fprintf(w, "  BROKEN: %s\n", line(s.Error))
		return
	}
	for _, u := range s.Unreadable {
		fmt.Fprintf(w, "  BROKEN: unreadable: %s\n", line(u))
	}
	s.writeIntent(w)
	var lens []string
	for _, c := range s.Configs {
		d := ""
		if c.Gap != nil {
			d = fmt.Sprintf(" (-%d/!%d)", c.Gap.Missing, c.Gap.Wrong)
		}
		lens = append(lens, fmt.Sprintf("%s:%d%s", c.Flags, c.ChainLen, d))
	}
	fmt.Fprintf(w, "  chain  %s\n", strings.Join(lens, "  "))
	for _, st := range s.Steps {
		if st.Verdict == Unchanged {
			continue
		}
		fmt.Fprintf(w, "  %-6s → %-6s %-10s %s\n", st.From, st.To, st.Verdict, line(st.Detail))
		for _, a := range st.Accepted {
			until := ""
			if a.Expires != "" {
				until = " (until " + a.Expires + ")"
			}
			fmt.Fprintf(w, "      accepted %s: %s%s\n", line(a.Row), line(a.Reason), until)
		}
		if rows {
			printRows(w, "+", st.Added)
			printRows(w, "-", st.Removed)
			continue
		}
		// Without -v: the rows that make the step a regression, and the
		// user's messages it moves, each with where it went.
		printRows(w, "lost", st.Lost)
		printRows(w, "hidden", st.Hidden)
		printRows(w, "moved", st.Moved)
	}
	if rows && len(s.Residual) > 0 {
		what := "conversation rows no config shows"
		if s.Intended {
			what = "intended rows the last config (all) does not show"
		}
		fmt.Fprintf(w, "  %s: %d\n", what, len(s.Residual))
		for i, r := range s.Residual {
			if i == listed {
				fmt.Fprintf(w, "      … %d more\n", len(s.Residual)-listed)
				break
			}
			by := ""
			if r.By != "" {
				by = " (at " + line(r.By) + ")"
			}
			fmt.Fprintf(w, "      %s: %s%s\n", r.Row, line(r.Cause), by)
		}
	}
	for _, v := range s.Violations {
		fmt.Fprintf(w, "  VIOLATION %s\n", line(v))
	}
	for _, n := range s.Notes {
		fmt.Fprintf(w, "  note: %s\n", line(n))
	}
}

// listed is how many rows of a list the text report names (--json has
// every row).
const listed = 20

func printRows(w io.Writer, sign string, rows []Row) {
	for i, r := range rows {
		if i == listed {
			fmt.Fprintf(w, "      %s … %d more\n", sign, len(rows)-listed)
			return
		}
		fmt.Fprintf(w, "      %s %s\n", sign, r)
		if r.Went != nil {
			fmt.Fprintf(w, "        → %s\n", line(r.Went.String()))
		}
	}
}

// Listed reports whether the text report lists the session: with -v every
// one, else those with a finding, a user's message a step hides or moves,
// or a finding reviewed exceptions accept.
func (s *Session) Listed(verbose bool) bool {
	return verbose || s.Failed() || s.HidesUser() || s.MovesUser() || s.accepted()
}

// accepted reports whether reviewed exceptions accept a finding of s.
func (s *Session) accepted() bool {
	for _, st := range s.Steps {
		if len(st.Accepted) > 0 {
			return true
		}
	}
	return false
}

// line makes a one-line field from a session (an id, a path, a reason)
// safe to print on a terminal.
func line(s string) string { return termtext.Line(s) }

// WriteText writes the text form of the summary: the step table, the
// residual by cause, the exceptions, what keeps it from a verdict on the
// whole, and the verdict.
func (sum *Summary) WriteText(w io.Writer) {
	shards := ""
	if sum.Shard != "" {
		shards = ", shard " + sum.Shard
	}
	if len(sum.Shards) > 0 {
		shards = fmt.Sprintf(", %d shards merged", len(sum.Shards))
	}
	fmt.Fprintf(w, "\naudited %d sessions, %d nodes in %.2fs (%d with an op script giving the intended view%s)\n",
		sum.Sessions, sum.Nodes, sum.Seconds, sum.Intended, shards)
	unjudged := 0
	for _, st := range sum.Steps {
		unjudged += st.Unjudged
	}
	fmt.Fprintf(w, "\n%-8s %-8s %10s %6s %11s", "from", "to", "unchanged", "fix", "regression")
	if sum.Accepted > 0 {
		fmt.Fprintf(w, " %9s", "accepted")
	}
	if unjudged > 0 {
		fmt.Fprintf(w, " %9s", "unjudged")
	}
	fmt.Fprintln(w)
	for _, st := range sum.Steps {
		fmt.Fprintf(w, "%-8s %-8s %10d %6d %11d", st.From, st.To, st.Unchanged, st.Fix, st.Regression)
		if sum.Accepted > 0 {
			fmt.Fprintf(w, " %9d", st.Accepted)
		}
		if unjudged > 0 {
			fmt.Fprintf(w, " %9d", st.Unjudged)
		}
		fmt.Fprintln(w)
	}
	printCauses(w, "residual with an op script: intended rows the last config (all) does not show", sum.Residual.Intended, true)
	printCauses(w, "residual without one: conversation rows no config shows", sum.Residual.Unshown, false)
	printExceptions(w, sum)
	printReconstructions(w, sum)
	printOutside(w, sum)
	if len(sum.TreeNotes) > 0 {
		fmt.Fprintln(w)
		for _, n := range sum.TreeNotes {
			fmt.Fprintf(w, "note: %s\n", line(n))
		}
	}
	if ps := sum.Problems(); len(ps) > 0 {
		fmt.Fprintln(w)
		for _, p := range ps {
			fmt.Fprintf(w, "NOT A VERDICT ON THE WHOLE: %s\n", line(p))
		}
	}
	fmt.Fprintf(w, "\nbroken sessions %d, violations %d, regressions %d (%d sessions where a step hides a user's message, %d where one moves it to another branch)\n",
		sum.Broken, sum.Violations, sum.Regressions, sum.HiddenUsers, sum.MovedUsers)
	fmt.Fprintln(w, line(sum.Verdict().Line()))
}

// printReconstructions says what reconstruct made of the sessions without
// an op script.
func printReconstructions(w io.Writer, sum *Summary) {
	r := sum.Reconstruct
	if r.Sessions() == 0 {
		return
	}
	fmt.Fprintf(w, "reconstructed from their rows: %d of the %d sessions without an op script (%d byte for byte, %d up to the values no op carries); ambiguous %d, undecided %d, unexplained %d\n",
		r.Reconstructed, r.Sessions(), r.Exact, r.Reconstructed-r.Exact, r.Ambiguous, r.Undecided, r.Unexplained)
}

// printOutside lists the sessions whose script lies outside what exhaust
// walked whole.
func printOutside(w io.Writer, sum *Summary) {
	p := sum.Proof
	if p.Placed == 0 {
		return
	}
	fmt.Fprintf(w, "\ninside the proof: %d of the %d sessions whose script is known are of shapes exhaust walked whole (at most %d ops of its kinds, %d of the whole vocabulary, repeated turns folded); with a shape the suite does not require every run to reach: %d\n",
		p.Walked, p.Placed, proof.WalkedKindsOps, proof.WalkedAllOps, p.Unrequired)
	if len(p.Outside) > 0 {
		fmt.Fprintf(w, "outside: %d\n", len(p.Outside))
	}
	for i, o := range p.Outside {
		if i == listed {
			fmt.Fprintf(w, "  … %d more (--json lists every one)\n", len(p.Outside)-listed)
			break
		}
		fmt.Fprintf(w, "  %s: %s\n", line(o.Dir), line(o.Why))
	}
}

// writeIntent says where a session's intended view came from (its op
// script, its reconstruction, none and why) and where its script lies
// against what exhaust walked.
func (s *Session) writeIntent(w io.Writer) {
	if r := s.Reconstruction; r != nil {
		how := r.Verdict
		switch {
		case r.Verdict == "reconstructed" && r.Exact:
			how += ", byte for byte"
		case r.Verdict == "reconstructed":
			how += ", up to " + strings.Join(r.Gaps, ", ")
		case r.First != "":
			how += ": " + r.First
		}
		fmt.Fprintf(w, "  intent  %s (%d ops)\n", line(how), r.Ops)
		for _, a := range r.Alternatives {
			fmt.Fprintf(w, "      other reading: %s\n", line(a))
		}
		for _, o := range r.Open {
			fmt.Fprintf(w, "      open: %s\n", line(o))
		}
	}
	if p := s.Proof; p != nil {
		where := fmt.Sprintf("walked whole (%d ops after folding)", p.SkeletonOps)
		if !p.Walked {
			where = "outside: " + p.Why
		}
		fmt.Fprintf(w, "  proof   %s\n", line(where))
	}
}

// printCauses is a residual table; atR adds how many of the rows R did not
// show either (rows no config shows are all such).
func printCauses(w io.Writer, title string, causes []CauseTotal, atR bool) {
	if len(causes) == 0 {
		return
	}
	rows := 0
	for _, c := range causes {
		rows += c.Rows
	}
	fmt.Fprintf(w, "\n%s: %d rows\n", title, rows)
	if atR {
		fmt.Fprintf(w, "%6s %9s %6s  %s\n", "rows", "sessions", "R too", "cause")
	} else {
		fmt.Fprintf(w, "%6s %9s  %s\n", "rows", "sessions", "cause")
	}
	for _, c := range causes {
		if atR {
			fmt.Fprintf(w, "%6d %9d %6d  %s: %s\n", c.Rows, c.Sessions, c.MissingAtR, c.Cause, c.Text)
		} else {
			fmt.Fprintf(w, "%6d %9d  %s: %s\n", c.Rows, c.Sessions, c.Cause, c.Text)
		}
		fmt.Fprintf(w, "%18s e.g. %s, row %s\n", "", line(c.Example), line(c.ExampleRow))
	}
}

// printExceptions says how the reviewed exceptions fared: how many
// regressions they accept, which have expired (they accept nothing) and
// which match no finding any more (stale: remove them).
func printExceptions(w io.Writer, sum *Summary) {
	if len(sum.Exceptions) == 0 {
		return
	}
	used := 0
	var expired []ExceptionUse
	for _, u := range sum.Exceptions {
		if u.Used {
			used++
		}
		if u.Expired {
			expired = append(expired, u)
		}
	}
	steps := fmt.Sprintf("%d accepted steps", sum.Accepted)
	if sum.Accepted == 1 {
		steps = "1 accepted step"
	}
	fmt.Fprintf(w, "\nreviewed exceptions: %d of %d accept a finding (%s, not counted as regressions)\n", used, len(sum.Exceptions), steps)
	for _, u := range expired {
		fmt.Fprintf(w, "  expired on %s (accepts nothing): %s\n", u.Expires, exceptionLine(u.Exception))
	}
	for _, u := range sum.Stale() {
		fmt.Fprintf(w, "  stale (matches no finding: remove it): %s\n", exceptionLine(u.Exception))
	}
}

func exceptionLine(e Exception) string {
	return fmt.Sprintf("%s %s row %s (%s)", line(e.Session), e.Step, line(e.Row), line(e.Reason))
}
