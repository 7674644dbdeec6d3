package main

import (
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// event is one line of `go test -json` (cmd/test2json).
type event struct {
	Action  string
	Package string
	Test    string
	Output  string
}

// verdict is what one run of the tests says about a mutant.
type verdict struct {
	// caught lists the top-level tests that failed, in name order.
	caught []catch
	// broken is set when the package failed without any test failing: the
	// build or the test binary itself broke, which says nothing about
	// the properties. output holds what it printed.
	broken string
}

// catch is one test that failed: after how many generated cases (0 when
// the test is not a rapid property, or rapid did not say), whether the
// failure was one rapid could not reproduce, or whether the test binary
// died while the test ran (which test's goroutine panicked, the events
// cannot say when several ran in parallel).
type catch struct {
	test    string
	checks  int
	flaky   bool
	crashed bool
	what    string // rapid's one line on what failed, to audit the table
}

func (c catch) String() string {
	switch {
	case c.crashed && c.checks == 0:
		return c.test + " (*crash*)"
	case c.flaky:
		return c.test + " (*flaky*)"
	case c.checks > 0:
		return fmt.Sprintf("%s (%d)", c.test, c.checks)
	}
	return c.test + " (*example*)"
}

// rapidFailed is rapid's report of a failing property; N tests passed
// before the one that failed.
var rapidFailed = regexp.MustCompile(`\[rapid\] (?:failed|panic) after (\d+) tests: (.*)`)

// testState is what the events say about one test (subtests apart).
type testState struct {
	started, paused, done, failed bool
	crashed                       bool // still running when the binary died
	checks                        int  // smallest failing check number rapid reported
	what                          string
	flaky                         bool
}

// and is the verdict of two runs of the tests of one mutant (on different
// packages): every test either caught; broken, as in one run, only when no
// test failed.
func (v verdict) and(o verdict) verdict {
	out := verdict{caught: append(slices.Clone(v.caught), o.caught...)}
	slices.SortFunc(out.caught, func(a, b catch) int { return strings.Compare(a.test, b.test) })
	if len(out.caught) == 0 {
		out.broken = v.broken + o.broken
	}
	return out
}

// readVerdict reads a test2json stream to its end.
func readVerdict(r io.Reader) (verdict, error) {
	tests := map[string]*testState{}
	state := func(name string) *testState {
		if tests[name] == nil {
			tests[name] = &testState{}
		}
		return tests[name]
	}
	var pkgFailed bool
	var loose strings.Builder // output outside any test
	dec := json.NewDecoder(r)
	for {
		var e event
		if err := dec.Decode(&e); err == io.EOF {
			break
		} else if err != nil {
			return verdict{}, fmt.Errorf("reading go test -json: %w", err)
		}
		if e.Test == "" {
			switch e.Action {
			case "fail", "build-fail":
				pkgFailed = true
			case "output", "build-output":
				loose.WriteString(e.Output)
			}
			continue
		}
		st := state(e.Test)
		switch e.Action {
		case "run", "cont":
			st.started, st.paused = true, false
		case "pause":
			st.paused = true
		case "pass", "skip":
			st.done = true
		case "fail":
			st.done, st.failed = true, true
		case "output":
			noteOutput(st, e.Output)
		}
	}
	return judge(tests, pkgFailed, loose.String()), nil
}

// noteOutput records rapid's report of a failure in a test's output.
func noteOutput(st *testState, line string) {
	if m := rapidFailed.FindStringSubmatch(line); m != nil {
		n, err := strconv.Atoi(m[1])
		if err == nil && (st.checks == 0 || n+1 < st.checks) {
			st.checks, st.what = n+1, m[2]
		}
	}
	if strings.Contains(line, "[rapid] flaky test") {
		st.flaky = true
	}
}

// judge turns the tests' states into a verdict per top-level test: a test
// whose subtests failed is caught after the fewest checks any of them
// needed. A test binary that died (a panic outside a test's goroutine)
// leaves tests started and never done: those count as failed, since the
// mutant made the binary crash while they ran.
func judge(tests map[string]*testState, pkgFailed bool, loose string) verdict {
	top := map[string]*catch{}
	// In name order: of subtests that failed after as few checks, the
	// first by name gives the message, the same on every run.
	names := make([]string, 0, len(tests))
	for name := range tests {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		st := tests[name]
		if st.started && !st.paused && !st.done && pkgFailed {
			st.failed, st.crashed = true, true
		}
		if !st.failed {
			continue
		}
		root, _, _ := strings.Cut(name, "/")
		c := top[root]
		if c == nil {
			c = &catch{test: root}
			top[root] = c
		}
		if st.checks > 0 && (c.checks == 0 || st.checks < c.checks) {
			c.checks, c.what = st.checks, st.what
		}
		c.flaky = c.flaky || st.flaky && st.checks == 0
		c.crashed = c.crashed || st.crashed
	}
	var v verdict
	for _, c := range top {
		v.caught = append(v.caught, *c)
	}
	slices.SortFunc(v.caught, func(a, b catch) int { return strings.Compare(a.test, b.test) })
	if pkgFailed && len(v.caught) == 0 {
		v.broken = loose
	}
	return v
}
