package props

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"

	"sessiondag/checker/gen"
	"sessiondag/checker/hunt"
	"sessiondag/internal/verdict"
	"sessiondag/protocol/process"
)

// exampleImpl is the implementation docs/protocol.md walks through: the
// legacy of a handful of op kinds, one file of Python's standard library.
const exampleImpl = "python3 examples/legacy-python/impl.py"

// exampleBug is the bug SESSIONDAG_EXAMPLE_BUG plants in it: a checkout
// leaves the browser's head where it was.
const exampleBug = "checkout-client"

// exampleBudget is the suite's budget against it in CI.
const exampleBudget = "15s"

// exampleKnown is the example's known-findings file (docs/protocol.md,
// "Known findings"): it accepts the planted bug's class as the hunt
// reduces it, on data the properties draw. A path relative to the
// repository's root, as a user gives it.
const exampleKnown = "examples/legacy-python/known.json"

// TestExampleImplementation: the shipped example, as a user runs it. The
// property suite through it at a CI budget passes — every test passes or
// is not run, saying what it needs, every corpus script it takes replays
// without a finding — and a hunt of a fixed number of iterations finds
// nothing; with its planted bug the suite fails, the hunt finds it and the
// replay of the corpus script of a checkout fails. That run holds the
// example's known-findings file: P1 meets the bug's known class, goes on
// and passes, the file saying what it accepted, while the corpus replay,
// a class the file does not name (data written by a migration), fails.
func TestExampleImplementation(t *testing.T) {
	inProcessOnly(t, "the shipped example judged through the suite")
	if testing.Short() {
		t.Skip("runs the suite and a hunt through a Python implementation: not in -short")
	}
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3 on this machine")
	}
	t.Parallel()
	for _, c := range []struct {
		bug     string
		outcome verdict.Outcome
	}{{"", verdict.Pass}, {exampleBug, verdict.Fail}} {
		name := "as-shipped"
		if c.bug != "" {
			name = c.bug
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			cmd := exampleImpl
			if c.bug != "" {
				cmd = "SESSIONDAG_EXAMPLE_BUG=" + c.bug + " " + exampleImpl
			}
			exampleSuite(t, cmd, c.outcome)
			exampleHunt(t, cmd, c.outcome)
		})
	}
}

// exampleSuite runs the suite through cmd at the CI budget and checks its
// verdict, and that each test it lists passed or was not run (a pass), or
// that the corpus replay caught the planted bug (a fail).
func exampleSuite(t *testing.T, cmd string, want verdict.Outcome) {
	t.Helper()
	env := []string{ImplEnv + "=" + cmd, BudgetEnv + "=" + exampleBudget,
		VerdictEnv + "=" + filepath.Join(t.TempDir(), "verdict.txt"), "SESSIONDAG_MUTANT=planted"}
	if want == verdict.Fail {
		env = append(env, KnownEnv+"="+exampleKnown)
	}
	// The inputs go test would record of the run (-test.testlogfile is how
	// it asks for them).
	testlog := filepath.Join(t.TempDir(), "testlog.txt")
	out, err := runBinary(t, os.Args[0], env, "-rapid.shrinktime=3s", "-rapid.nofailfile", "-test.testlogfile="+testlog)
	notCached(t, testlog)
	code := 0
	if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	at := bytes.LastIndex(out, []byte("props: the suite against "))
	if at < 0 {
		t.Fatalf("the example through the suite: exit %d, no final block:\n%s", code, tailOf(out, 60))
	}
	block := out[at:]
	t.Logf("the suite through %s:\n%s", cmd, block)
	switch want {
	case verdict.Pass:
		if code != verdict.ExitPass || !bytes.Contains(block, []byte("\nverdict: PASS: ")) {
			t.Fatalf("the example through the suite: exit %d, want a pass:\n%s", code, tailOf(out, 60))
		}
		lines := regexp.MustCompile(`(?m)^  (\S.*?)  +(Test\S+|Fuzz\S+)`).FindAllSubmatch(block, -1)
		for _, l := range lines {
			if w := string(l[1]); w != wordPass && w != wordNotRun {
				t.Errorf("%s: %s, want pass or not run", l[2], w)
			}
		}
		// Every script of the corpus was replayed: each passed or was not
		// run, saying what it needs (the word pass means none failed and
		// none was undecided).
		corpus := regexp.MustCompile(`(?m)^  pass +TestCorpusReplay: \d+ scripts? of (\d+) pass, \d+ not run \(scripts that need: `).FindSubmatch(block)
		if corpus == nil || string(corpus[1]) != strconv.Itoa(len(corpusScripts(t))) ||
			!regexp.MustCompile(`(?m)^  pass +TestChecks/P1-legacy/off-any: `).Match(block) || len(lines) < 10 {
			t.Errorf("the block does not show every corpus script (%d) replayed and P1 passing:\n%s", len(corpusScripts(t)), block)
		}
	case verdict.Fail:
		if code != verdict.ExitFail || !regexp.MustCompile(`\nverdict: FAIL: .*TestCorpusReplay`).Match(block) ||
			!bytes.Contains(block, []byte("\n  fail       TestCorpusReplay/14-checkout-branch.ops\n")) {
			t.Fatalf("the example with its bug through the suite: exit %d, want a failure of the corpus replay:\n%s", code, tailOf(out, 60))
		}
		if !regexp.MustCompile(`(?m)^  pass +TestChecks/P1-legacy/off-any: `).Match(block) ||
			!regexp.MustCompile(`(?m)^props: known: checkout-client\.ops accepted [1-9]\d* findings?: `).Match(out) {
			t.Errorf("with the known file, P1 does not go on past the bug's known class to a pass, the file saying what it accepted:\n%s", tailOf(out, 80))
		}
		// The bug is in checkout: a script without one cannot show it.
		for _, m := range regexp.MustCompile(`(?m)^  fail +TestCorpusReplay/(\S+)$`).FindAllSubmatch(block, -1) {
			if !holdsCheckout(t, corpusScript(t, string(m[1]))) {
				t.Errorf("corpus script %s fails through the example with its checkout bug, but holds no checkout", m[1])
			}
		}
	}
}

// notCached fails unless go test would cache nothing of a run against an
// implementation (uncachedMark): the run recorded the variable that names
// the implementation and the mark as its inputs, and left the mark dated
// ahead, so that go test finds it too new to trust as the run ends.
func notCached(t *testing.T, testlog string) {
	t.Helper()
	log, err := os.ReadFile(testlog)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(log, []byte("\ngetenv "+ImplEnv+"\n")) || !bytes.Contains(log, []byte("\nopen "+uncachedMark+"\n")) {
		t.Errorf("the run's recorded inputs lack %s or %s: go test could give a cached result for another implementation:\n%s", ImplEnv, uncachedMark, log)
	}
	if fi, err := os.Stat(uncachedMark); err != nil || !fi.ModTime().After(time.Now()) {
		t.Errorf("%s is not dated ahead as the run ends (%v): go test could cache the run", uncachedMark, err)
	}
}

// holdsCheckout reports whether the script file at path holds a checkout.
func holdsCheckout(t *testing.T, path string) bool {
	t.Helper()
	for _, op := range parseFile(t, path) {
		if op.Kind() == "checkout" {
			return true
		}
	}
	return false
}

// corpusScript is the path of the corpus script of that name.
func corpusScript(t *testing.T, name string) string {
	t.Helper()
	for _, p := range corpusScripts(t) {
		if filepath.Base(p) == name {
			return p
		}
	}
	t.Fatalf("no corpus script %s", name)
	return ""
}

// exampleHunt hunts through cmd for a fixed number of iterations: nothing
// found (a pass), or the planted bug (a fail).
func exampleHunt(t *testing.T, cmd string, want verdict.Outcome) {
	t.Helper()
	pool, err := process.Open(cmd, process.Options{Tmp: scratch(), Dir: "..", KnownWithout: gen.KnownWithout})
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	r, err := hunt.Run(context.Background(), hunt.Config{Seed: 1, Iterations: 40, MaxOps: 40, Workers: 2, Out: t.TempDir(), Impl: pool})
	if err != nil {
		t.Fatal(err)
	}
	switch {
	case r.Scripts < 10:
		t.Errorf("the hunt played %d scripts", r.Scripts)
	case want == verdict.Pass && len(r.Failures) > 0:
		t.Errorf("the hunt through the example found %d failures; the first: %s [%s]: %s", len(r.Failures), r.Failures[0].Check, r.Failures[0].Data, r.Failures[0].What)
	case want == verdict.Fail && len(r.Failures) == 0:
		t.Errorf("the hunt through the example with its bug found nothing in %d scripts", r.Scripts)
	case want == verdict.Fail:
		// What it found is the bug: reproduced, and its reduced script
		// holds the checkout that shows it.
		for _, f := range r.Failures {
			if !f.Reproduced || f.File == "" || !holdsCheckout(t, f.File) {
				t.Errorf("the hunt's finding %s [%s] (%s) is not the checkout bug, reproduced and saved: %s", f.Check, f.Data, f.File, f.What)
			}
		}
	}
}
