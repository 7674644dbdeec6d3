package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// stream is a test2json stream, one event per line.
func stream(lines ...string) *strings.Reader {
	return strings.NewReader(strings.Join(lines, "\n") + "\n")
}

// TestReadVerdictProperties: a rapid property that failed is caught after
// the check rapid names plus one; one whose subtests failed after the
// fewest checks any of them needed; a failure rapid could not reproduce is
// flaky; a test of fixed cases is an example; passing and skipped tests
// are not listed; the list is in name order.
func TestReadVerdictProperties(t *testing.T) {
	v, err := readVerdict(stream(
		`{"Action":"run","Test":"TestZ"}`,
		`{"Action":"output","Test":"TestZ","Output":"    z_test.go:9: [rapid] failed after 6 tests: boom\n"}`,
		`{"Action":"fail","Test":"TestZ"}`,
		`{"Action":"run","Test":"TestP3"}`,
		`{"Action":"run","Test":"TestP3/on"}`,
		`{"Action":"run","Test":"TestP3/off"}`,
		`{"Action":"output","Test":"TestP3/on","Output":"    p3.go:1: [rapid] panic after 3 tests: nil map\n"}`,
		`{"Action":"output","Test":"TestP3/off","Output":"    p3.go:1: [rapid] failed after 0 tests: differs\n"}`,
		`{"Action":"fail","Test":"TestP3/on"}`,
		`{"Action":"fail","Test":"TestP3/off"}`,
		`{"Action":"fail","Test":"TestP3"}`,
		`{"Action":"run","Test":"TestFlaky"}`,
		`{"Action":"output","Test":"TestFlaky","Output":"    f.go:2: [rapid] flaky test, can not reproduce a failure\n"}`,
		`{"Action":"fail","Test":"TestFlaky"}`,
		`{"Action":"run","Test":"TestCorpus"}`,
		`{"Action":"run","Test":"TestCorpus/a.ops"}`,
		`{"Action":"fail","Test":"TestCorpus/a.ops"}`,
		`{"Action":"fail","Test":"TestCorpus"}`,
		`{"Action":"run","Test":"TestOK"}`,
		`{"Action":"output","Test":"TestOK","Output":"    ok.go:3: [rapid] OK, passed 100 tests\n"}`,
		`{"Action":"pass","Test":"TestOK"}`,
		`{"Action":"run","Test":"TestShort"}`,
		`{"Action":"skip","Test":"TestShort"}`,
		`{"Action":"fail"}`,
	))
	require.NoError(t, err)
	require.Empty(t, v.broken)
	var got []string
	for _, c := range v.caught {
		got = append(got, c.String())
	}
	require.Equal(t, []string{"TestCorpus (*example*)", "TestFlaky (*flaky*)", "TestP3 (1)", "TestZ (7)"}, got)
	require.Equal(t, "differs", v.caught[2].what, "the message of the check that failed first")
}

// TestReadVerdictTieIsStable: of two subtests that failed after the same
// number of checks, the first by name gives the message, on every read.
func TestReadVerdictTieIsStable(t *testing.T) {
	for range 50 {
		v, err := readVerdict(stream(
			`{"Action":"run","Test":"TestP"}`,
			`{"Action":"run","Test":"TestP/b"}`,
			`{"Action":"run","Test":"TestP/a"}`,
			`{"Action":"output","Test":"TestP/b","Output":"    p.go:1: [rapid] failed after 2 tests: from b\n"}`,
			`{"Action":"output","Test":"TestP/a","Output":"    p.go:1: [rapid] failed after 2 tests: from a\n"}`,
			`{"Action":"fail","Test":"TestP/b"}`,
			`{"Action":"fail","Test":"TestP/a"}`,
			`{"Action":"fail","Test":"TestP"}`,
			`{"Action":"fail"}`,
		))
		require.NoError(t, err)
		require.Len(t, v.caught, 1)
		require.Equal(t, "from a", v.caught[0].what)
	}
}

// TestReadVerdictNothingCaught: a run where every test passes catches
// nothing and is not broken.
func TestReadVerdictNothingCaught(t *testing.T) {
	v, err := readVerdict(stream(
		`{"Action":"run","Test":"TestA"}`,
		`{"Action":"pass","Test":"TestA"}`,
		`{"Action":"pass"}`,
	))
	require.NoError(t, err)
	require.Empty(t, v.caught)
	require.Empty(t, v.broken)
}

// TestReadVerdictBroken: a package that fails to build, or fails with no
// test failing, is broken (its output kept), never caught.
func TestReadVerdictBroken(t *testing.T) {
	v, err := readVerdict(stream(
		`{"ImportPath":"sessiondag/props","Action":"build-output","Output":"impl/x.go:3:1: syntax error\n"}`,
		`{"ImportPath":"sessiondag/props","Action":"build-fail"}`,
		`{"Action":"start","Package":"sessiondag/props"}`,
		`{"Action":"output","Package":"sessiondag/props","Output":"FAIL\tsessiondag/props [build failed]\n"}`,
		`{"Action":"fail","Package":"sessiondag/props"}`,
	))
	require.NoError(t, err)
	require.Empty(t, v.caught)
	require.Contains(t, v.broken, "syntax error")
}

// TestReadVerdictCrash: a test binary that dies (a panic on a goroutine no
// test recovers) fails the tests that were running, marked as a crash, not
// those paused or done.
func TestReadVerdictCrash(t *testing.T) {
	v, err := readVerdict(stream(
		`{"Action":"run","Test":"TestDone"}`,
		`{"Action":"pass","Test":"TestDone"}`,
		`{"Action":"run","Test":"TestWaiting"}`,
		`{"Action":"pause","Test":"TestWaiting"}`,
		`{"Action":"run","Test":"TestRunning"}`,
		`{"Action":"output","Test":"TestRunning","Output":"panic: index out of range\n"}`,
		`{"Action":"fail"}`,
	))
	require.NoError(t, err)
	require.Empty(t, v.broken)
	require.Len(t, v.caught, 1)
	require.Equal(t, "TestRunning (*crash*)", v.caught[0].String())
}

// TestReadVerdictBadStream: a stream that is not test2json is an error.
func TestReadVerdictBadStream(t *testing.T) {
	_, err := readVerdict(stream(`not json`))
	require.Error(t, err)
}

// TestVerdictsOfTwoRuns: the runs of one mutant on two sets of packages
// (with rapid's flags and without) give every test either caught, in name
// order; a run that broke counts only when no test of either failed.
func TestVerdictsOfTwoRuns(t *testing.T) {
	a := verdict{caught: []catch{{test: "TestZ", checks: 3}}}
	b := verdict{caught: []catch{{test: "TestA"}}}
	require.Equal(t, verdict{caught: []catch{{test: "TestA"}, {test: "TestZ", checks: 3}}}, a.and(b))
	broken := verdict{broken: "flag provided but not defined: -rapid.checks\n"}
	require.Equal(t, a, a.and(broken), "a catch in one run")
	require.Equal(t, broken, verdict{}.and(broken), "no test failed anywhere: broken")
	require.Equal(t, verdict{}, verdict{}.and(verdict{}), "not caught")
}
