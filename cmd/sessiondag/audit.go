package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"sessiondag/audit"
	"sessiondag/checker/mutant"
	"sessiondag/internal/shard"
	"sessiondag/internal/termtext"
)

// defaultCorpus is where `sessiondag audit` looks without arguments.
const defaultCorpus = "corpus"

func cmdAudit(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("audit", stdout, stderr)
	asJSON := fs.Bool("json", false, "one JSON record per session, then a summary record (JSON lines, tagged \"kind\": \"audit\")")
	verbose := fs.Bool("v", false, "list every session, not only those with findings, with the rows each step adds and removes")
	page := fs.String("html", "", "also write a self-contained HTML page of the audit to this `file`")
	shardArg := fs.String("shard", "", "audit only shard `i/n` (0-based) of the sorted session directories; merge with 'sessiondag summary'")
	exceptions := fs.String("exceptions", "", "accept the reviewed findings of this JSON `file` (session, step, row, reason, expires)")
	rebuild := fs.Bool("reconstruct", true, "reconstruct the op script of a session without one (false: judge it by where removed rows went alone, faster)")
	dirs, err := fs.parse(args)
	if err != nil {
		return fs.usageError(err)
	}
	o := audit.Options{Columns: *page != "", Reconstruct: *rebuild}
	if *page != "" {
		o.Writes = []string{*page}
	}
	if *shardArg != "" {
		if o.Shard, err = shard.Parse(*shardArg); err != nil {
			return fail(stderr, "audit", err)
		}
	}
	if *exceptions != "" {
		if o.Exceptions, err = audit.ReadExceptions(*exceptions, time.Now()); err != nil {
			return fail(stderr, "audit", err)
		}
	}
	if len(dirs) == 0 {
		if _, err := os.Stat(defaultCorpus); err != nil {
			fmt.Fprintf(stderr, "sessiondag audit: no directory given and no %s/ here: run it from the project root or name directories\n", defaultCorpus)
			return 2
		}
		dirs = []string{defaultCorpus}
	}
	o.Progress = progressFor(stderr)
	o.Context = interrupt
	// Each session's loads are short-lived garbage: collecting less often
	// saves about a fifth of the processor time (a GOGC the caller sets
	// wins).
	if os.Getenv("GOGC") == "" {
		defer debug.SetGCPercent(debug.SetGCPercent(400))
	}
	out := bufio.NewWriter(stdout)
	defer out.Flush()
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	var pg audit.Page
	emit := func(s *audit.Session) {
		if o.Columns {
			pg.Add(s)
		}
		switch {
		case *asJSON:
			_ = enc.Encode(audit.Record{Kind: audit.Kind, Session: s})
		case *verbose || s.Failed() || s.HidesUser() || s.MovesUser() || accepted(s):
			printSession(out, s, *verbose)
		}
	}
	sum, err := audit.RunWith(dirs, o, emit)
	if errors.Is(err, audit.ErrInterrupted) {
		out.Flush()
		done := "while walking the tree"
		if sum != nil {
			done = fmt.Sprintf("after %d of %d sessions", sum.Sessions, sum.Found)
		}
		fmt.Fprintf(stderr, "sessiondag audit: interrupted %s: no verdict\n", done)
		return exitInterrupted
	}
	if err != nil {
		return fail(stderr, "audit", err)
	}
	if *asJSON {
		_ = enc.Encode(audit.Record{Kind: audit.Kind, Summary: sum})
	} else {
		printSummary(out, sum)
	}
	if *page != "" {
		if err := writePage(*page, &pg, sum); err != nil {
			return fail(stderr, "audit", err)
		}
	}
	if sum.Failed() && !(mutant.On(mutant.CmdAuditExitIgnoresBroken) && sum.Regressions+sum.Violations == 0 && len(sum.Problems()) == 0) {
		return 1
	}
	return 0
}

func writePage(path string, pg *audit.Page, sum *audit.Summary) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	if err := pg.Write(w, sum); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return f.Close()
}

func printSession(w io.Writer, s *audit.Session, rows bool) {
	fmt.Fprintf(w, "%s  (%s, %d nodes)\n", line(s.Dir), line(s.ID), s.Nodes)
	if s.Error != "" {
		fmt.Fprintf(w, "  BROKEN: %s\n", line(s.Error))
		return
	}
	for _, u := range s.Unreadable {
		fmt.Fprintf(w, "  BROKEN: unreadable: %s\n", line(u))
	}
	printIntent(w, s)
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
		if st.Verdict == audit.Unchanged {
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

func printRows(w io.Writer, sign string, rows []audit.Row) {
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

// accepted reports whether reviewed exceptions accept a finding of s.
func accepted(s *audit.Session) bool {
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

// progressFor is the progress report of a command whose stderr is w: on a
// terminal a line redrawn in place, elsewhere a plain line every few
// seconds (SESSIONDAG_PROGRESS_EVERY, a duration, sets how often). A
// writer that is no file (a test's buffer) gets none.
func progressFor(w io.Writer) *audit.Progress {
	f, ok := w.(*os.File)
	if !ok {
		return nil
	}
	p := &audit.Progress{W: f, Redraw: isTerminal(f)}
	if d, err := time.ParseDuration(os.Getenv("SESSIONDAG_PROGRESS_EVERY")); err == nil {
		p.Every = d
	}
	return p
}

// isTerminal reports whether w is a character device (progress is
// redrawn in place there).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
