package props

import (
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"sessiondag/internal/verdict"
)

// DefaultChecks is the number of generated cases per property of a plain
// `go test ./props`: what keeps make test under five minutes on the 2-core
// CI machine; every planted bug of docs/mutants.md falls within the first
// 64 cases of a property that catches it (docs/properties.md).
// -rapid.checks or RAPID_CHECKS overrides it; -short divides it by five,
// as rapid does.
const DefaultChecks = 300

func TestMain(m *testing.M) {
	start := time.Now()
	flag.Parse()
	// The suite allocates many short-lived views and holds little: a
	// larger heap goal spends less of its time collecting (1200 against
	// 400: a sixth less processor time for TestChecks at a fixed seed, a
	// few hundred MB of heap), under a soft limit that a longer run's
	// larger heap meets first. GOGC and GOMEMLIMIT override.
	if _, ok := os.LookupEnv("GOGC"); !ok {
		debug.SetGCPercent(1200)
	}
	if _, ok := os.LookupEnv("GOMEMLIMIT"); !ok {
		debug.SetMemoryLimit(2 << 30)
	}
	if !checksGiven() {
		if err := flag.Set("rapid.checks", strconv.Itoa(DefaultChecks)); err != nil {
			fmt.Fprintln(os.Stderr, "props: -rapid.checks:", err)
			os.Exit(2)
		}
	}
	closeImpl, err := openImpl()
	if err == nil {
		err = openKnown()
	}
	if err == nil && underTest != nil {
		err = openBudget(start, underTest.About())
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "props:", err)
		os.Exit(verdict.ExitUsage)
	}
	code := m.Run()
	saveFound(os.Stderr)
	reportKnown(os.Stderr)
	reportLeftOut(os.Stderr)
	if underTest != nil {
		code = endOnVerdict(os.Stdout, code)
	}
	closeImpl()
	if underTest != nil {
		// The last thing the run does: go test caches nothing of it.
		if err := writeMark(about().Name); err != nil {
			fmt.Fprintf(os.Stderr, "props: %s: %v (go test may cache this run)\n", uncachedMark, err)
		}
	}
	os.Exit(code)
}

// endOnVerdict ends a run against another implementation on its verdict:
// the final block on w and in verdictFile, and the verdict's exit code
// (undecided is never 0).
func endOnVerdict(w io.Writer, code int) int {
	all := leaves()
	v := suiteVerdict(all, code)
	var b strings.Builder
	report(&b, all, v)
	fmt.Fprint(w, b.String())
	if path, err := saveVerdict(b.String()); err != nil {
		fmt.Fprintf(w, "props: %s: %v\n", path, err)
	}
	return v.Exit()
}

// checksGiven reports whether the run names its own number of checks.
func checksGiven() bool {
	if _, ok := os.LookupEnv("RAPID_CHECKS"); ok {
		return true
	}
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "rapid.checks" })
	return given
}
