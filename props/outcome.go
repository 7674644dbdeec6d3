package props

import (
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"sessiondag/internal/verdict"
)

// Each test's outcome, for the suite's verdict against another
// implementation: pass, fail, not run (needs what the implementation does
// not declare) or undecided (why). A test records how it ends through
// track; not run and undecided are skips that say so.

// The words of the outcomes, as the report prints them.
const (
	wordPass      = "pass"
	wordFail      = "fail"
	wordNotRun    = "not run"
	wordUndecided = "undecided"
)

// tracked is one test's outcome.
type tracked struct {
	name string
	word string // set when the test said it was not run or undecided, and at its end
	why  string
	note string // what a pass covered
}

var outcomes = struct {
	sync.Mutex
	m map[string]*tracked
}{m: map[string]*tracked{}}

// track records test t's outcome when it ends (its cleanup): fail when it
// failed, else what it said (notRun, undecided), else pass. Every test of
// the package calls it, through judges, inProcessOnly or directly.
func track(t testing.TB) *tracked {
	outcomes.Lock()
	defer outcomes.Unlock()
	if tr := outcomes.m[t.Name()]; tr != nil {
		return tr
	}
	tr := &tracked{name: t.Name()}
	outcomes.m[t.Name()] = tr
	t.Cleanup(func() {
		outcomes.Lock()
		defer outcomes.Unlock()
		switch {
		case t.Failed():
			tr.word, tr.why = wordFail, ""
		case tr.word != "":
		case t.Skipped():
			tr.word, tr.why = wordNotRun, "skipped"
		default:
			tr.word = wordPass
		}
	})
	return tr
}

// notRun skips t: the implementation lacks what it needs (need, in the
// words of "not run: needs …"), err saying why.
func notRun(t testing.TB, need string, err error) {
	t.Helper()
	tr := track(t)
	outcomes.Lock()
	tr.word, tr.why = wordNotRun, "needs "+need
	outcomes.Unlock()
	t.Skipf("not run: needs %s: %v", need, err)
}

// undecided skips t: it ran, but could not give a verdict, and why.
func undecided(t testing.TB, why string) {
	t.Helper()
	tr := track(t)
	outcomes.Lock()
	tr.word, tr.why = wordUndecided, why
	outcomes.Unlock()
	t.Skipf("undecided: %s", why)
}

// covered notes what a passing test covered, for the report.
func covered(t testing.TB, note string) {
	tr := track(t)
	outcomes.Lock()
	tr.note = note
	outcomes.Unlock()
}

// leaves are the outcomes of the tests with no tracked subtest, in name
// order.
func leaves() []tracked {
	outcomes.Lock()
	defer outcomes.Unlock()
	names := make([]string, 0, len(outcomes.m))
	for n := range outcomes.m {
		names = append(names, n)
	}
	slices.Sort(names)
	var out []tracked
	for i, n := range names {
		if i+1 < len(names) && strings.HasPrefix(names[i+1], n+"/") {
			continue
		}
		out = append(out, *outcomes.m[n])
	}
	return out
}

// lines are the outcomes as the report lists them: every test but the
// corpus scripts, then the corpus replay as one (corpusLine).
func lines(all []tracked) []tracked {
	var out, corpus []tracked
	for _, o := range all {
		if strings.HasPrefix(o.name, "TestCorpusReplay/") {
			corpus = append(corpus, o)
		} else {
			out = append(out, o)
		}
	}
	if len(corpus) > 0 {
		out = append(out, tracked{name: "TestCorpusReplay", word: corpusWord(corpus), note: corpusLine(corpus)})
	}
	return out
}

// suiteVerdict is the verdict of the run: fail when a test failed (or the
// run failed without one, code being m.Run's), else undecided when a test
// is, else pass, saying how many passed and how many were not run.
func suiteVerdict(all []tracked, code int) verdict.Verdict {
	var failed, open []string
	count := map[string]int{}
	for _, o := range lines(all) {
		count[o.word]++
		switch o.word {
		case wordFail:
			failed = append(failed, o.name)
		case wordUndecided:
			open = append(open, o.name+": "+o.why)
		case wordPass, wordNotRun:
		default:
			open = append(open, o.name+": ended without an outcome")
		}
	}
	if code != 0 && len(failed) == 0 {
		failed = append(failed, fmt.Sprintf("the test binary exited %d without a failing test (see the output above)", code))
	}
	v := verdict.Of(failed, open)
	if v.Passed() {
		v = verdict.PassBecause(fmt.Sprintf("%s pass, %d not run (each needs what the implementation does not declare)",
			plural(count[wordPass], "test"), count[wordNotRun]))
	}
	return v
}

// report writes the final block: the implementation, the budget, each
// test's outcome (lines: the corpus scripts in one line, with those that
// failed or were undecided), and the verdict line.
func report(w io.Writer, all []tracked, v verdict.Verdict) {
	fmt.Fprintf(w, "props: the suite against %s\n", about().Describe())
	fmt.Fprintf(w, "props: %s\n", budget)
	for _, o := range all {
		if strings.HasPrefix(o.name, "TestCorpusReplay/") && (o.word == wordFail || o.word == wordUndecided) {
			fmt.Fprintln(w, reportLine(o))
		}
	}
	for _, o := range lines(all) {
		fmt.Fprintln(w, reportLine(o))
	}
	fmt.Fprintln(w, v.Line())
}

// reportLine is one test's line of the final block: its outcome, its
// name, and why (not run, undecided) or what it covered (a pass), when
// there is something to say.
func reportLine(o tracked) string {
	line := fmt.Sprintf("  %-9s  %s", o.word, o.name)
	if o.why != "" {
		line += ": " + o.why
	} else if o.note != "" {
		line += ": " + o.note
	}
	return line
}

// corpusWord is the outcome of the corpus replay as a whole.
func corpusWord(corpus []tracked) string {
	word := wordNotRun
	for _, o := range corpus {
		switch {
		case o.word == wordFail:
			return wordFail
		case o.word == wordUndecided:
			word = wordUndecided
		case o.word == wordPass && word == wordNotRun:
			word = wordPass
		}
	}
	return word
}

// corpusLine counts the corpus scripts by outcome, and the scripts not run
// by each thing they need (a script that needs two counts for both).
func corpusLine(corpus []tracked) string {
	count, needs := map[string]int{}, map[string]int{}
	for _, o := range corpus {
		count[o.word]++
		if o.word == wordNotRun {
			for _, n := range strings.Split(strings.TrimPrefix(o.why, "needs "), ", ") {
				needs[n]++
			}
		}
	}
	parts := []string{fmt.Sprintf("%s of %d pass", plural(count[wordPass], "script"), len(corpus))}
	for _, w := range []string{wordFail, wordUndecided} {
		if count[w] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", count[w], w))
		}
	}
	if count[wordNotRun] > 0 {
		names := slices.Sorted(maps.Keys(needs))
		slices.SortStableFunc(names, func(a, b string) int { return needs[b] - needs[a] })
		var why []string
		for _, n := range names {
			why = append(why, fmt.Sprintf("%s %d", n, needs[n]))
		}
		parts = append(parts, fmt.Sprintf("%d not run (scripts that need: %s)", count[wordNotRun], strings.Join(why, ", ")))
	}
	return strings.Join(parts, ", ")
}

// VerdictEnv names the file the suite against another implementation also
// writes its final block to (a relative path is relative to the
// repository's root); bin/props-verdict.txt of the repository by
// default (go test shows a passing package's output only with -v). The
// default file is read back: go test's cache then leaves the run out (the
// file is newer than the cache trusts), so the next run runs again, as it
// must, the implementation being outside what go test sees.
const VerdictEnv = "SESSIONDAG_VERDICT_FILE"

// defaultVerdictFile is VerdictEnv's default, from this package.
const defaultVerdictFile = "../bin/props-verdict.txt"

// saveVerdict writes the block to its file and reads it back, saying
// where.
func saveVerdict(block string) (string, error) {
	path := defaultVerdictFile
	if v := os.Getenv(VerdictEnv); v != "" {
		path = fromRoot(v)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return path, err
	}
	if err := os.WriteFile(path, []byte(block), 0o644); err != nil {
		return path, err
	}
	f, err := os.Open(path)
	if err != nil {
		return path, err
	}
	return path, f.Close()
}
