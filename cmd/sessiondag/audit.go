package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"sessiondag/audit"
	"sessiondag/internal/termtext"
)

// defaultCorpus is where `sessiondag audit` looks without arguments.
const defaultCorpus = "corpus"

func cmdAudit(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("audit", stdout, stderr)
	asJSON := fs.jsonFlag("a line per session, then a summary line, each tagged \"kind\": \"audit\"")
	verbose := fs.Bool("v", false, "list every session, not only those with findings, with the rows each step adds and removes")
	page := fs.String("html", "", "also write a self-contained HTML page of the audit to this `file`")
	shardOf := fs.shardFlag("", "the sorted session directories")
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
	if o.Shard, err = shardOf(); err != nil {
		return fail(stderr, "audit", err)
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
		case s.Listed(*verbose):
			s.WriteText(out, *verbose)
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
	v := sum.Verdict()
	if *asJSON {
		_ = enc.Encode(audit.Record{Kind: audit.Kind, Summary: sum, Verdict: &v})
	} else {
		sum.WriteText(out)
	}
	if *page != "" {
		if err := writePage(*page, &pg, sum); err != nil {
			return fail(stderr, "audit", err)
		}
	}
	return v.Exit()
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

// line makes a one-line field (an id, a path, a reason) safe to print on
// a terminal.
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
