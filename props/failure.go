package props

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"pgregory.net/rapid"

	"sessiondag/checker/campaign"
	"sessiondag/checker/harness"
)

// failDir is where failing scripts are saved, relative to this package.
const failDir = "../corpus/ops/failures"

// saveFailures is off for mutant runs, which fail on purpose.
var saveFailures = os.Getenv("SESSIONDAG_MUTANT") == ""

// found holds the last failure of each test: rapid calls the property again
// with each smaller input it tries, so the last one is its shrunk case.
var found = struct {
	sync.Mutex
	last map[string]failure
}{last: map[string]failure{}}

type failure struct {
	c campaign.Case
	f *harness.Finding
}

// fail stops the rapid check with the finding: the script so far and the
// evidence. The case is kept; when the test binary ends, saveFound reduces
// it (campaign.Reduce, as hunt and exhaust do) and saves it with its replay
// command.
func fail(t *rapid.T, test string, c campaign.Case, f *harness.Finding) {
	t.Helper()
	t.Fatal(record(test, c, f))
}

// record keeps a failure of test for saveFound and returns its report.
func record(test string, c campaign.Case, f *harness.Finding) string {
	c = c.Of(f)
	c.Script = slices.Clone(c.Script)
	found.Lock()
	found.last[test] = failure{c, f}
	found.Unlock()
	return campaign.Report(c, f, "") + "(reduced and saved under corpus/ops/failures when the tests end: see \"props: saved\")\n"
}

// saveFound reduces and saves every failure kept, in the order of the
// tests' names, and says where each went.
func saveFound(w io.Writer) {
	found.Lock()
	defer found.Unlock()
	if !saveFailures {
		return
	}
	tests := make([]string, 0, len(found.last))
	for test := range found.last {
		tests = append(tests, test)
	}
	slices.Sort(tests)
	for _, test := range tests {
		x := found.last[test]
		path, red, err := saveOne(failDir, test, x)
		if err != nil {
			fmt.Fprintf(w, "props: %s: %v\n", test, err)
			continue
		}
		path = strings.TrimPrefix(path, "../")
		fmt.Fprintf(w, "props: saved %s: %s [%s], %d ops\nreproduce: %s\n", test, red.Case.Check.Name,
			red.Case.Data.Name, len(red.Case.Script), campaign.ReplayCommand(path))
	}
}

// saveOne reduces a failure of test as every driver does and saves it under
// dir.
func saveOne(dir, test string, x failure) (string, campaign.Reduced, error) {
	var deadline time.Time
	if budget != nil && !budget.deadline.IsZero() {
		deadline = budget.deadline.Add(-reserveOf(budget.deadline.Sub(budget.start)) / 3) // the block and the exit still to come
	}
	red := campaign.ReduceBy(x.c, x.f, scratch(), deadline)
	header := append([]string{fmt.Sprintf("reduced from %d ops to %d", len(x.c.Script), len(red.Case.Script))}, red.AsFound()...)
	path, err := campaign.Save(dir, red.Case, red.Finding, test, header...)
	return path, red, err
}
