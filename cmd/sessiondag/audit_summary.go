package main

import (
	"fmt"
	"io"
	"strings"

	"sessiondag/audit"
	"sessiondag/audit/reconstruct/proof"
)

// printSummary is the text form of an audit summary: the step table, the
// residual by cause, the verdict.
func printSummary(w io.Writer, sum *audit.Summary) {
	shards := ""
	if sum.Shard != "" {
		shards = ", shard " + sum.Shard
	}
	if len(sum.Shards) > 0 {
		shards = fmt.Sprintf(", %d shards merged", len(sum.Shards))
	}
	fmt.Fprintf(w, "\naudited %d sessions, %d nodes in %.2fs (%d with an op script giving the intended view%s)\n",
		sum.Sessions, sum.Nodes, sum.Seconds, sum.Intended, shards)
	printReconstructions(w, sum)
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
	printOutside(w, sum)
	fmt.Fprintf(w, "\nbroken sessions %d, violations %d, regressions %d (%d sessions where a step hides a user's message, %d where one moves it to another branch): ",
		sum.Broken, sum.Violations, sum.Regressions, sum.HiddenUsers, sum.MovedUsers)
	if shares := sum.Shares(); shares != "" {
		fmt.Fprintf(w, "%s; %s\n", sum.Verdict(), shares)
		return
	}
	fmt.Fprintln(w, sum.Verdict())
}

// printReconstructions says what reconstruct made of the sessions without
// an op script.
func printReconstructions(w io.Writer, sum *audit.Summary) {
	r := sum.Reconstruct
	if r.Sessions() == 0 {
		return
	}
	fmt.Fprintf(w, "reconstructed from their rows: %d of the %d sessions without an op script (%d byte for byte, %d up to the values no op carries); ambiguous %d, undecided %d, unexplained %d\n",
		r.Reconstructed, r.Sessions(), r.Exact, r.Reconstructed-r.Exact, r.Ambiguous, r.Undecided, r.Unexplained)
}

// printOutside lists the sessions whose script lies outside what exhaust
// walked whole.
func printOutside(w io.Writer, sum *audit.Summary) {
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

// printCauses is a residual table; atR adds how many of the rows R did not
// show either (rows no config shows are all such).
func printCauses(w io.Writer, title string, causes []audit.CauseTotal, atR bool) {
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
func printExceptions(w io.Writer, sum *audit.Summary) {
	if len(sum.Exceptions) == 0 {
		return
	}
	used := 0
	var expired []audit.ExceptionUse
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

func exceptionLine(e audit.Exception) string {
	return fmt.Sprintf("%s %s row %s (%s)", line(e.Session), e.Step, line(e.Row), line(e.Reason))
}

// printIntent says where a session's intended view came from (its op
// script, its reconstruction, none and why) and where its script lies
// against what exhaust walked.
func printIntent(w io.Writer, s *audit.Session) {
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
