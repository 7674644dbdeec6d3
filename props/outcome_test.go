package props

import (
	"strings"
	"testing"
	"time"

	"sessiondag/internal/verdict"
)

// TestSuiteVerdict: the verdict of a run against another implementation
// from its tests' outcomes: a failure fails it, else an undecided test
// leaves it undecided (never exit 0), else it passes saying what passed
// and what was not run; the corpus scripts count as one test, a failing
// one failing it.
func TestSuiteVerdict(t *testing.T) {
	inProcessOnly(t, "a test of the suite itself")
	pass := tracked{name: "TestChecks/P1-legacy/off-any", word: wordPass}
	notRunOne := tracked{name: "TestChecks/P2-target/flags-on", word: wordNotRun, why: "needs the claim target or rollout"}
	script := func(name, word, why string) tracked {
		return tracked{name: "TestCorpusReplay/" + name, word: word, why: why}
	}
	cases := []struct {
		name string
		all  []tracked
		code int
		want verdict.Outcome
		line string
	}{
		{"a pass", []tracked{pass, notRunOne, script("a.ops", wordPass, ""), script("b.ops", wordNotRun, "needs dispatch")}, 0,
			verdict.Pass, "verdict: PASS: 2 tests pass, 1 not run (each needs what the implementation does not declare)"},
		{"an undecided test", []tracked{pass, {name: "TestP9Determinism", word: wordUndecided, why: "no case checked within its share"}}, 0,
			verdict.Undecided, "verdict: UNDECIDED: TestP9Determinism: no case checked within its share"},
		{"a failing script", []tracked{pass, script("a.ops", wordFail, "")}, 1,
			verdict.Fail, "verdict: FAIL: TestCorpusReplay"},
		{"a failure beside an undecided test", []tracked{{name: "TestP9Determinism", word: wordUndecided, why: "x"}, {name: "TestX", word: wordFail}}, 1,
			verdict.Fail, "verdict: FAIL: TestX; TestP9Determinism: x"},
		{"a test with no outcome", []tracked{pass, {name: "TestY"}}, 0,
			verdict.Undecided, "verdict: UNDECIDED: TestY: ended without an outcome"},
		{"a failed run with no failing test", []tracked{pass}, 2,
			verdict.Fail, "verdict: FAIL: the test binary exited 2 without a failing test (see the output above)"},
	}
	for _, c := range cases {
		v := suiteVerdict(c.all, c.code)
		if v.Outcome != c.want || v.Line() != c.line {
			t.Errorf("%s: %s, want %s", c.name, v.Line(), c.line)
		}
		if c.want == verdict.Undecided && v.Exit() == 0 {
			t.Errorf("%s: undecided exits 0", c.name)
		}
	}
}

// TestCorpusLine: the corpus replay in one line of the report, the
// scripts not run counted by each thing they need.
func TestCorpusLine(t *testing.T) {
	inProcessOnly(t, "a test of the suite itself")
	corpus := []tracked{
		{name: "TestCorpusReplay/a.ops", word: wordPass},
		{name: "TestCorpusReplay/b.ops", word: wordNotRun, why: "needs dispatch, manual"},
		{name: "TestCorpusReplay/c.ops", word: wordNotRun, why: "needs manual"},
		{name: "TestCorpusReplay/d.ops", word: wordNotRun, why: "needs user-form"},
	}
	want := "1 script of 4 pass, 3 not run (scripts that need: manual 2, dispatch 1, user-form 1)"
	if got := corpusLine(corpus); got != want || corpusWord(corpus) != wordPass {
		t.Errorf("corpusLine = %q (%s), want %q (pass)", got, corpusWord(corpus), want)
	}
	if corpusWord(corpus[1:]) != wordNotRun || corpusWord(append(corpus, tracked{word: wordFail})) != wordFail {
		t.Error("corpusWord: no script run is not run; a failing script fails the replay")
	}
	// The final block names a failing script on a line of its own, with
	// nothing after its name (a failure's evidence is in the output above).
	var b strings.Builder
	failing := append(corpus, tracked{name: "TestCorpusReplay/e.ops", word: wordFail})
	report(&b, failing, suiteVerdict(failing, 1))
	if !strings.Contains(b.String(), "\n  fail       TestCorpusReplay/e.ops\n") {
		t.Errorf("the final block does not name the failing script alone on its line:\n%s", b.String())
	}
}

// TestSelected: which tests a run's -test.run and -test.skip select, as
// package testing decides it.
func TestSelected(t *testing.T) {
	inProcessOnly(t, "a test of the suite itself")
	cases := []struct {
		name, run, skip string
		want            bool
	}{
		{"TestChecks/P1-legacy/off-any", "", "", true},
		{"TestChecks/P1-legacy/off-any", "TestChecks", "", true},
		{"TestChecks/P1-legacy/off-any", "TestChecks/P1", "", true},
		{"TestChecks/P1-legacy/off-any", "TestChecks/P7", "", false},
		{"TestChecks/P1-legacy/off-any", "TestP9|TestChecks/P1-legacy/off", "", true},
		{"TestChecks/P1-legacy/off-any", "^TestChecks$/^P1-(legacy|cold)$", "", true},
		{"TestP9Determinism", "TestChecks/P1", "", false},
		{"TestKnownLegacyCutoff/two_ROOT-parented_users", "Cutoff/two ROOT", "", true},
		{"TestChecks/P1-legacy/off-any", "", "TestChecks/P1", false},
		{"TestChecks/P1-legacy/off-any", "", "TestChecks/P7", true},
		{"TestChecks/P1-legacy/off-any", "", "TestChecks", false},
		{"TestChecks/P1-legacy/off-any", "", "TestChecks/P1-legacy/off-any/deeper", true},
	}
	for _, c := range cases {
		if got := selected(c.name, c.run, c.skip); got != c.want {
			t.Errorf("selected(%q, run %q, skip %q) = %v, want %v", c.name, c.run, c.skip, got, c.want)
		}
	}
}

// TestShares: the tests that draw cases share what is left of the budget
// in waves of -test.parallel, a test that ends early leaving its time to
// those after it and to those still drawing; a drawing stops when its
// share is spent and the budget has no more for it, but not while a
// failure is shrunk.
func TestShares(t *testing.T) {
	inProcessOnly(t, "a test of the suite itself")
	b := &suiteBudget{end: time.Now().Add(60 * time.Second), parallel: 2,
		planned: []string{"TestShares/a", "TestShares/b", "TestShares/c"}}
	var shares []time.Duration
	for _, n := range []string{"a", "b", "c"} {
		t.Run(n, func(t *testing.T) {
			shares = append(shares, b.begin(t).share)
		})
	}
	// a got half (three tests, two waves of two); once it ended, b and c
	// are one wave, and each got what was left.
	if !near(shares[0], 30*time.Second) || !near(shares[1], 60*time.Second) || !near(shares[2], 60*time.Second) {
		t.Errorf("shares %v, want about 30s, 60s, 60s", shares)
	}
	d := &drawing{until: time.Now().Add(-time.Millisecond)}
	if d.more() || !d.cut || d.count() != 0 || d.left() {
		t.Error("a spent share draws a case")
	}
	// A spent share gets what tests that ended early left: here one test
	// of two is still drawing (itself), so all that is left of the
	// budget; with the budget spent, nothing.
	// While a test has yet to begin, what is left is its share too: no
	// extension.
	waiting := &suiteBudget{end: time.Now().Add(40 * time.Second), parallel: 2, planned: []string{"x", "y", "z"}, begun: 2, finished: 1}
	d = &drawing{until: time.Now().Add(-time.Millisecond), started: time.Now(), budget: waiting}
	if d.more() || !d.cut {
		t.Error("a spent share is given the time of a test that has not begun")
	}
	late := &suiteBudget{end: time.Now().Add(40 * time.Second), parallel: 1, planned: []string{"x", "y"}, begun: 2, finished: 1}
	d = &drawing{until: time.Now().Add(-time.Millisecond), started: time.Now(), budget: late}
	if !d.left() || !d.more() || d.cut || !near(time.Until(d.until), 40*time.Second) {
		t.Errorf("a spent share is not given the time an early end left: until in %s", time.Until(d.until))
	}
	late.end = time.Now().Add(-time.Second)
	d.until = time.Now().Add(-time.Millisecond)
	if d.more() || !d.cut {
		t.Error("a spent share is given time past the budget's end")
	}
	d.fail()
	if !d.more() {
		t.Error("a failure being shrunk stops at the share")
	}
	if free := (&drawing{}); !free.more() || free.count() != 1 || !strings.HasPrefix(free.String(), "1 case") {
		t.Errorf("no budget: %s", free)
	}
}

func near(d, want time.Duration) bool { return d > want-time.Second && d <= want }
