package gate

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// Defaults of the gate rule.
const (
	DefaultAlpha        = 0.05
	DefaultThresholdPct = 5.0
)

// options is the parsed command line.
type options struct {
	oldPath, newPath string
	alpha            float64 // significance level: p < alpha is significant
	thresholdPct     float64 // minimum worsening, in percent, for a regression
}

const usageText = `usage: benchgate OLD NEW [--threshold 5%%] [--alpha 0.05]

Compares Go benchmark results in OLD and NEW (go test -bench output, run
with -count >= 10) and exits 1 if NEW regresses: sec/op, B/op or
allocs/op larger with p < alpha (Mann-Whitney U test) AND the median
larger by more than the threshold.

Flags may come before or after OLD and NEW.
  --threshold T   minimum regression, in percent: "5%%" and "5" both mean
                  five percent ("0.05" means 0.05%%, not 5%%) (default %g%%)
  --alpha A       significance level, 0 < A <= 1 (default %g)

Exit codes: 0 pass, 1 regression, 2 usage or input error, 3 inconclusive
(too few runs in a gated unit to find a regression).
`

func usage(w io.Writer) {
	fmt.Fprintf(w, usageText, DefaultThresholdPct, DefaultAlpha)
}

// errHelp means the user asked for the usage text, which is not an error.
var errHelp = errors.New("help requested")

// parseArgs parses the command line. The flag package stops at the first
// positional argument, so it is re-run on what follows each positional:
// that lets flags come before, between or after OLD and NEW.
func parseArgs(args []string, stderr io.Writer) (options, error) {
	opts := options{alpha: DefaultAlpha, thresholdPct: DefaultThresholdPct}

	fs := flag.NewFlagSet("benchgate", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are reported once, by Main
	fs.Func("threshold", "minimum regression in percent (5% or 5)", func(s string) error {
		v, err := parseThreshold(s)
		if err != nil {
			return err
		}
		opts.thresholdPct = v
		// "0.05" is most likely a fraction meant as 5%; say how it was read
		// instead of silently gating at a hundredth of the intent.
		if !strings.HasSuffix(strings.TrimSpace(s), "%") && v > 0 && v < 1 {
			fmt.Fprintf(stderr, "benchgate: note: --threshold %s is read as %g%% (percent); write %g%% if you meant a fraction\n", s, v, v*100)
		}
		return nil
	})
	fs.Func("alpha", "significance level", func(s string) error {
		v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil || math.IsNaN(v) || v <= 0 || v > 1 {
			return fmt.Errorf("invalid alpha %q: want a number in (0, 1]", s)
		}
		opts.alpha = v
		return nil
	})
	var positional []string
	cur := args
	for {
		if err := fs.Parse(cur); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return opts, errHelp
			}
			return opts, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			break
		}
		// "--" ends flag parsing: everything after it is positional.
		if consumed := len(cur) - len(rest); consumed > 0 && cur[consumed-1] == "--" {
			positional = append(positional, rest...)
			break
		}
		positional = append(positional, rest[0])
		cur = rest[1:]
	}

	if len(positional) != 2 {
		return opts, fmt.Errorf("want exactly 2 files (OLD NEW), got %d: %q", len(positional), positional)
	}
	opts.oldPath, opts.newPath = positional[0], positional[1]
	return opts, nil
}

// parseThreshold reads a percentage: "5%", "5" and "5.0" all mean five
// percent. A bare number is percent too, so one spelling never means two
// different things depending on its size.
func parseThreshold(s string) (float64, error) {
	t := strings.TrimSpace(s)
	t = strings.TrimSuffix(t, "%")
	v, err := strconv.ParseFloat(strings.TrimSpace(t), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
		return 0, fmt.Errorf("invalid threshold %q: want a non-negative percentage such as 5%% or 5", s)
	}
	return v, nil
}
