package props

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"sessiondag/checker/campaign"
	"sessiondag/checker/harness"
)

// KnownEnv names a known-findings file (campaign.Known): the classes of
// failure of the implementation under test that a review accepted. A
// property that meets one goes on to its next case instead of failing,
// and only what is new fails; the suite says at its end what each entry
// accepted and which matched nothing. A relative path is relative to the
// repository's root, as SESSIONDAG_IMPL's command runs there.
const KnownEnv = "SESSIONDAG_KNOWN"

// fromRoot is a path a user gives the suite (KnownEnv, VerdictEnv) as the
// test binary opens it: relative to the repository's root, not to props/,
// where go test runs it.
func fromRoot(path string) string {
	if filepath.IsAbs(path) {
		return path
	}
	return filepath.Join("..", path)
}

// known is the file SESSIONDAG_KNOWN names, nil without one.
var known *campaign.Known

// openKnown reads SESSIONDAG_KNOWN when it is set.
func openKnown() error {
	path := os.Getenv(KnownEnv)
	if path == "" {
		return nil
	}
	k, err := campaign.ReadKnown(fromRoot(path), time.Now())
	if err != nil {
		return fmt.Errorf("%s: %w", KnownEnv, err)
	}
	known = k
	return nil
}

// accepted reports whether finding f of case c is of a class the known
// file accepts (the case is then over, and the property goes on); it says
// so in the test's log.
func accepted(t interface{ Logf(string, ...any) }, c campaign.Case, f *harness.Finding) bool {
	e, _ := known.Accepts(c, f, scratch())
	if e == nil {
		return false
	}
	t.Logf("known finding (%s): %s [%s]: %s", e.Name(), f.Check, c.Data.Name, e.Reason)
	return true
}

// reportKnown says what each known entry accepted in this run.
func reportKnown(w io.Writer) {
	for _, l := range known.Lines() {
		fmt.Fprintln(w, "props: "+l)
	}
}
