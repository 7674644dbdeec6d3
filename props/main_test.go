package props

import (
	"flag"
	"fmt"
	"os"
	"runtime/debug"
	"strconv"
	"testing"
)

// DefaultChecks is the number of generated cases per property of a plain
// `go test ./props`: as many as the suite runs within its 90-second budget
// on the 2-core CI machine (docs/properties.md). -rapid.checks or
// RAPID_CHECKS overrides it; -short divides it by five, as rapid does.
const DefaultChecks = 1000

func TestMain(m *testing.M) {
	flag.Parse()
	// The suite allocates many short-lived views and holds little: a
	// larger heap goal spends less of its time collecting. GOGC overrides.
	if _, ok := os.LookupEnv("GOGC"); !ok {
		debug.SetGCPercent(400)
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
	if err != nil {
		fmt.Fprintln(os.Stderr, "props:", err)
		os.Exit(2)
	}
	code := m.Run()
	saveFound(os.Stderr)
	reportKnown(os.Stderr)
	reportLeftOut(os.Stderr)
	closeImpl()
	os.Exit(code)
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
