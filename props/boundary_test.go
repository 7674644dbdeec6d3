package props

import (
	"bytes"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"sessiondag/checker/harness"
	"sessiondag/internal/mutants"
)

// The suite across the protocol: the tests that judge another process
// through it (SESSIONDAG_IMPL), and the ones that read the implementation's
// internals and skip there; likewise the checks TestChecks runs. Every test
// of the package and every check is in one list (TestAcrossTheBoundary
// fails on one in neither).
var (
	acrossTests = []string{"TestChecks", "TestRefusedAsTheOriginal", "TestP9Determinism", "TestKnownLegacyCutoff", "TestCorpusReplay",
		"TestRolloutTable", "FuzzSessionOps"}
	inProcessTests = []string{"TestConformanceThroughBothReaders", "TestCorpusSessions", "TestConcurrentLoads",
		"TestLargeSessions", "TestDerivationRules", "TestDriversSaveOneScript", "TestP8AdapterRoundTrip",
		"FuzzAdapterRoundTrip", "TestSuiteVerdict", "TestCorpusLine", "TestSelected", "TestShares", "TestExampleImplementation",
		"TestGeneratorReachesEveryShape", "TestFilesCostBoundedMemory"}
	// fuzzOnly run across the protocol under go test -fuzz alone: they
	// have no seed inputs of their own.
	fuzzOnly = []string{"FuzzSessionOps"}
	// The tests of the protocol itself run only in-process.
	boundaryTests = []string{"TestAcrossTheBoundary", "TestMutantsAcrossTheBoundary"}

	acrossChecks    = []string{"legacy", "target", "rollout", "rollback", "cutoff", "cards", "fields", "persistence"}
	inProcessChecks = []string{"retire-d", "aggregation", "columns", "cold"}
)

// TestAcrossTheBoundary: every property of the suite passes against the
// implementation in this repository served over the implementation
// protocol (`sessiondag serve`, with ids of its own so that the renaming
// is on the path), at a reduced budget: this test binary runs the suite
// again with SESSIONDAG_IMPL naming the served command. Each test that can
// judge another process runs and passes; each that reads the
// implementation's internals skips saying so.
func TestAcrossTheBoundary(t *testing.T) {
	inProcessOnly(t, "running the suite against the implementation in this repository served over the protocol")
	if testing.Short() {
		t.Skip("builds sessiondag and runs the suite again: not in -short")
	}
	t.Parallel()
	bin := buildSessiondag(t)
	for _, n := range listTests(t) {
		if !slices.Contains(acrossTests, n) && !slices.Contains(inProcessTests, n) && !slices.Contains(boundaryTests, n) {
			t.Errorf("%s: say whether it runs across the protocol (acrossTests) or needs the implementation in-process (inProcessTests)", n)
		}
	}
	for _, c := range harness.Checks {
		if !slices.Contains(acrossChecks, c.Name) && !slices.Contains(inProcessChecks, c.Name) {
			t.Errorf("check %s: say whether it judges another process (acrossChecks) or needs the implementation in-process (inProcessChecks)", c.Name)
		}
	}
	// -short: rapid runs a fifth of the checks, the rollout table 30
	// sessions a kind.
	out, err := runSuite(t, quote(bin)+" serve --mint", "", "-test.short", "-rapid.checks=40", "-rapid.nofailfile", "-test.run=.")
	results := testResults(out)
	want := map[string]string{}
	for _, n := range acrossTests {
		want[n] = "PASS"
		if slices.Contains(fuzzOnly, n) {
			want[n] = "SKIP"
		}
	}
	for _, n := range inProcessTests {
		want[n] = "SKIP"
	}
	for _, c := range harness.Checks {
		verdict := "PASS"
		if slices.Contains(inProcessChecks, c.Name) {
			verdict = "SKIP"
		}
		for _, d := range c.Data {
			want["TestChecks/"+c.Prop+"-"+c.Name+"/"+d.Slug] = verdict
		}
	}
	for _, n := range slices.Sorted(maps.Keys(want)) {
		if results[n] != want[n] {
			t.Errorf("%s across the protocol: %s, want %s", n, orNone(results[n]), want[n])
		}
	}
	if err != nil || t.Failed() {
		t.Fatalf("the suite across the protocol: %v\n%s", err, tailOf(out, 80))
	}
	// Its final block names every test, each passing or not run, and ends
	// on the verdict.
	for _, n := range listTests(t) {
		if !regexp.MustCompile(`(?m)^  (pass|not run) +` + regexp.QuoteMeta(n) + `\b`).Match(out) {
			t.Errorf("the final block does not say %s passed or was not run:\n%s", n, tailOf(out, 80))
		}
	}
	if !bytes.Contains(out, []byte("\nverdict: PASS: ")) {
		t.Errorf("the suite across the protocol does not end on a pass:\n%s", tailOf(out, 20))
	}
}

// boundaryMutants are mutants with the property that catches each
// in-process (README, the mutant table), one per property that crosses the
// protocol: the one that writes the rows (step-a-wrong-pred), the loads
// (fallback-v1, step-b-ignored), the card pass (cards-by-parent) and the
// cold load behind a restart (open-drops-last).
var boundaryMutants = []struct{ mutant, property string }{
	{"fallback-v1", "P1-legacy"},
	{"step-a-wrong-pred", "P2-target"},
	{"step-b-ignored", "P3-rollout"},
	{"cards-by-parent", "P5-cards"},
	{"open-drops-last", "P7-persistence"},
}

// TestMutantsAcrossTheBoundary: a mutant compiled into the implementation
// (its overlay, internal/mutants) that the property beside it catches
// in-process (docs/mutants.md; `go run ./scripts/mutants -only NAME`
// checks that) is caught by the same property when the mutated
// implementation is served across the protocol: the boundary loses
// nothing a property needs. Caught means the property fails with a
// finding (its report), not with an error of the run. Only the served
// command is built with the mutant: a second build of the suite per
// mutant would double the test's cost for what the mutant table shows.
func TestMutantsAcrossTheBoundary(t *testing.T) {
	inProcessOnly(t, "mutants of the implementation in this repository")
	if testing.Short() {
		t.Skip("builds the implementation with its mutants: not in -short")
	}
	t.Parallel()
	for _, c := range boundaryMutants {
		t.Run(c.mutant, func(t *testing.T) {
			m, err := mutants.Named(c.mutant)
			if err != nil {
				t.Fatal(err)
			}
			overlay, err := mutants.Overlay("..", m, t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			bin := buildSessiondag(t, "-overlay="+overlay)
			run := "-test.run=^TestChecks$/^" + c.property + "$"
			test := "TestChecks/" + c.property
			across, _ := runSuite(t, quote(bin)+" serve", c.mutant, "-rapid.checks=300", "-rapid.seed=1", "-rapid.shrinktime=1s", "-rapid.nofailfile", run)
			if testResults(across)[test] != "FAIL" || !bytes.Contains(across, []byte("reproduce:")) {
				t.Fatalf("across the protocol, %s does not catch %s:\n%s", c.property, c.mutant, tailOf(across, 30))
			}
		})
	}
}

// buildSessiondag builds the command-line tool into a temporary directory,
// with the go command's build flags given.
func buildSessiondag(t *testing.T, flags ...string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "sessiondag")
	args := append(append([]string{"build"}, flags...), "-o", bin, "../cmd/sessiondag")
	goBuild(t, args...)
	return bin
}

func goBuild(t *testing.T, args ...string) {
	t.Helper()
	// The go command that runs this test names its root in GOROOT.
	goTool := "go"
	if root := os.Getenv("GOROOT"); root != "" {
		if _, err := os.Stat(filepath.Join(root, "bin", "go")); err == nil {
			goTool = filepath.Join(root, "bin", "go")
		}
	}
	cmd := exec.Command(goTool, args...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// runSuite runs this package's tests again against impl (a command for
// SESSIONDAG_IMPL); a mutant, when named, is switched on in every process
// (it does nothing in this binary, which is built without mutants, but
// stops failures from being saved).
func runSuite(t *testing.T, impl, mutant string, args ...string) ([]byte, error) {
	t.Helper()
	env := []string{ImplEnv + "=" + impl, VerdictEnv + "=" + filepath.Join(t.TempDir(), "verdict.txt")}
	if mutant != "" {
		env = append(env, "SESSIONDAG_MUTANT="+mutant)
	}
	return runBinary(t, os.Args[0], env, args...)
}

func runBinary(t *testing.T, bin string, env []string, args ...string) ([]byte, error) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"-test.v", "-test.timeout=10m"}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	t.Logf("%s %s: %s, %v", filepath.Base(bin), strings.Join(args, " "), time.Since(start).Round(time.Millisecond), err)
	return out.Bytes(), err
}

// listTests lists the package's tests and fuzz targets.
func listTests(t *testing.T) []string {
	t.Helper()
	out, err := exec.Command(os.Args[0], "-test.list=.").Output()
	if err != nil {
		t.Fatalf("list the tests: %v", err)
	}
	return strings.Fields(string(out))
}

var resultLine = regexp.MustCompile(`(?m)^\s*--- (PASS|FAIL|SKIP): (\S+)`)

// testResults reads the results of a verbose run, subtests' included.
func testResults(out []byte) map[string]string {
	res := map[string]string{}
	for _, m := range resultLine.FindAllSubmatch(out, -1) {
		res[string(m[2])] = string(m[1])
	}
	return res
}

func orNone(s string) string {
	if s == "" {
		return "no result"
	}
	return s
}

func tailOf(out []byte, n int) string {
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// quote makes a path one word for sh -c.
func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
