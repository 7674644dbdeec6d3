package gate

import (
	"errors"
	"fmt"
	"io"

	"sessiondag/internal/verdict"
)

// Exit codes of Main: the project's verdicts' (internal/verdict).
const (
	ExitOK         = verdict.ExitPass  // no regression
	ExitRegression = verdict.ExitFail  // at least one regression
	ExitError      = verdict.ExitUsage // bad usage, or an input file missing or unreadable
	// ExitInconclusive: no regression found, but a gated comparison had
	// too few samples to find one: the gate cannot say PASS (undecided).
	ExitInconclusive = verdict.ExitUndecided
)

// Main runs the gate: `benchgate OLD NEW [--threshold 5%] [--alpha 0.05]`.
// args excludes the program (or subcommand) name. The table and the
// verdict go to stdout; usage errors, file errors and per-line parse
// warnings go to stderr. It returns ExitOK, ExitRegression,
// ExitInconclusive or ExitError and never panics on bad input.
func Main(args []string, stdout, stderr io.Writer) int {
	opts, err := parseArgs(args, stderr)
	if errors.Is(err, errHelp) {
		usage(stdout)
		return ExitOK
	}
	if err != nil {
		fmt.Fprintf(stderr, "benchgate: %v\n\n", err)
		usage(stderr)
		return ExitError
	}

	old, err := readSide(opts.oldPath)
	if err != nil {
		fmt.Fprintf(stderr, "benchgate: OLD: %v\n", err)
		return ExitError
	}
	new, err := readSide(opts.newPath)
	if err != nil {
		fmt.Fprintf(stderr, "benchgate: NEW: %v\n", err)
		return ExitError
	}
	for _, side := range []*sideData{old, new} {
		for _, w := range side.warnings {
			fmt.Fprintf(stderr, "benchgate: warning: %s\n", w)
		}
	}

	rep := compare(old, new, opts.alpha, opts.thresholdPct)
	if err := writeReport(stdout, rep, opts.oldPath, opts.newPath); err != nil {
		fmt.Fprintf(stderr, "benchgate: writing report: %v\n", err)
		return ExitError
	}
	if len(rep.rows) == 0 {
		// Nothing was compared, so nothing was gated: passing would hide
		// a renamed or broken benchmark set.
		fmt.Fprintf(stderr, "benchgate: no benchmark appears in both %s and %s: nothing to gate\n", opts.oldPath, opts.newPath)
		return ExitError
	}
	return rep.verdict().Exit()
}
