package props

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"testing"
	"time"

	"sessiondag/protocol"

	"sessiondag/checker/gen"
	"sessiondag/checker/harness"
	"sessiondag/protocol/process"
)

// ImplEnv names the implementation the properties judge: a command that
// speaks the implementation protocol (docs/protocol.md), run with `sh -c`.
// It runs in the repository's root, as the command-line tool does (a path
// in it is relative to the root, not to props/). Unset, they judge the
// implementation in this repository, in-process.
// ImplTimeoutEnv sets the deadline of each request (a Go duration).
const (
	ImplEnv        = "SESSIONDAG_IMPL"
	ImplTimeoutEnv = "SESSIONDAG_IMPL_TIMEOUT"
)

// underTest starts the implementation under test: nil in-process, else
// the pool of processes of SESSIONDAG_IMPL (openImpl).
var underTest protocol.Starter

// openImpl opens SESSIONDAG_IMPL when it is set; the returned func closes
// it.
func openImpl() (func(), error) {
	cmd := os.Getenv(ImplEnv)
	if cmd == "" {
		return func() {}, nil
	}
	o := process.Options{Tmp: scratch(), Dir: "..", KnownWithout: gen.KnownWithout}
	if v := os.Getenv(ImplTimeoutEnv); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			return nil, fmt.Errorf("%s=%q: %w", ImplTimeoutEnv, v, err)
		}
		o.Timeout = d
	}
	pool, err := process.Open(cmd, o)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", ImplEnv, err)
	}
	underTest = pool
	return pool.Close, nil
}

// reportLeftOut says, at the end of the suite, what its comparisons left
// out for the implementation under test (protocol.About.LeftOut): the
// suite's verdict is of what was compared.
func reportLeftOut(w io.Writer) {
	if note := protocol.LeftOutNote(about().LeftOut()); note != "" {
		fmt.Fprintf(w, "props: against %s: %s\n", about().Name, note)
	}
}

// about is what the implementation under test declares.
func about() protocol.About {
	if underTest == nil {
		return harness.InProcessAbout
	}
	return underTest.About()
}

// judges skips the test, saying what the implementation lacks, unless
// every check can judge the implementation under test on every kind of
// data; it tracks the test's outcome either way.
func judges(t testing.TB, checks []harness.Check, data ...harness.Data) {
	t.Helper()
	track(t)
	a := about()
	for _, c := range checks {
		if need, err := c.Lacks(a); err != nil {
			notRun(t, need, err)
		}
	}
	for _, d := range data {
		if need, err := harness.DataLacks(a, d); err != nil {
			notRun(t, need, err)
		}
	}
}

// inProcessOnly skips a test that reads the implementation's internals
// when the implementation under test is another process; it tracks the
// test's outcome either way.
func inProcessOnly(t testing.TB, what string) {
	t.Helper()
	track(t)
	if underTest != nil {
		notRun(t, "the implementation in-process", fmt.Errorf("%w: %s needs the implementation in this repository, in-process", harness.ErrNotApplicable, what))
	}
}

// drawnFor is a kind of data's generator options with the draw kept to the
// op kinds the implementation under test writes.
func drawnFor(o gen.Options) gen.Options {
	a := about()
	if a.Ops == nil {
		return o
	}
	kinds := gen.DrawKindsOf(a.Ops)
	o.Together = a.Together
	if len(a.Without) > 0 {
		// process.Open has checked the names
		kinds, o.Without, _ = gen.Without(a.Without, kinds)
	}
	if o.Only != nil {
		var both []string
		for _, k := range o.Only {
			if slices.Contains(kinds, k) {
				both = append(both, k)
			}
		}
		kinds = both
	}
	o.Only = kinds
	return o
}

// notWritten reports whether err is an op the implementation does not
// write, which ends a case without a verdict.
func notWritten(err error) bool { return errors.Is(err, harness.ErrNotApplicable) }
