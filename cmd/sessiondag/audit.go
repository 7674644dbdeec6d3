package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"sessiondag/audit"
)

// defaultCorpus is where `sessiondag audit` looks without arguments.
const defaultCorpus = "corpus"

func cmdAudit(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("audit", stderr)
	asJSON := fs.Bool("json", false, "one JSON record per session, then a summary record")
	verbose := fs.Bool("v", false, "list every session, not only those with findings")
	dirs, err := parseArgs(fs, args)
	if err != nil {
		return 2
	}
	if len(dirs) == 0 {
		if _, err := os.Stat(defaultCorpus); err != nil {
			fmt.Fprintf(stderr, "sessiondag audit: no directory given and no %s/ here: run it from the project root or name directories\n", defaultCorpus)
			return 2
		}
		dirs = []string{defaultCorpus}
	}
	var progress io.Writer
	if isTerminal(stderr) {
		progress = stderr
	}
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false)
	emit := func(s *audit.Session) {
		switch {
		case *asJSON:
			_ = enc.Encode(map[string]any{"session": s})
		case *verbose || s.Failed():
			printSession(stdout, s)
		}
	}
	sum, err := audit.Run(dirs, progress, emit)
	if err != nil {
		return fail(stderr, "audit", err)
	}
	if *asJSON {
		_ = enc.Encode(map[string]any{"summary": sum})
	} else {
		printSummary(stdout, sum)
	}
	if sum.Failed() {
		return 1
	}
	return 0
}

func printSession(w io.Writer, s *audit.Session) {
	fmt.Fprintf(w, "%s  (%s, %d nodes)\n", s.Dir, s.ID, s.Nodes)
	if s.Error != "" {
		fmt.Fprintf(w, "  BROKEN: %s\n", s.Error)
		return
	}
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
		if st.Verdict != audit.Unchanged {
			fmt.Fprintf(w, "  %-6s → %-6s %-10s %s\n", st.From, st.To, st.Verdict, st.Detail)
		}
	}
	for _, v := range s.Violations {
		fmt.Fprintf(w, "  VIOLATION %s\n", v)
	}
	for _, n := range s.Notes {
		fmt.Fprintf(w, "  note: %s\n", n)
	}
}

func printSummary(w io.Writer, sum *audit.Summary) {
	fmt.Fprintf(w, "\naudited %d sessions, %d nodes in %.2fs (%d with an op script giving the intended view)\n",
		sum.Sessions, sum.Nodes, sum.Seconds, sum.Intended)
	fmt.Fprintf(w, "\n%-8s %-8s %10s %6s %11s\n", "from", "to", "unchanged", "fix", "regression")
	for _, st := range sum.Steps {
		fmt.Fprintf(w, "%-8s %-8s %10d %6d %11d\n", st.From, st.To, st.Unchanged, st.Fix, st.Regression)
	}
	fmt.Fprintf(w, "\nbroken sessions %d, violations %d, regressions %d: ", sum.Broken, sum.Violations, sum.Regressions)
	if sum.Failed() {
		fmt.Fprintln(w, "NOT READY")
	} else {
		fmt.Fprintln(w, "ready")
	}
}

// isTerminal reports whether w is a character device (progress is only
// drawn there).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
