package props

import (
	"flag"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"
)

// BudgetEnv names the time the suite may take against another
// implementation (a Go duration: SESSIONDAG_BUDGET=90s). The suite takes
// its budget from the test binary's deadline (-test.timeout, Go's default
// ten minutes included), less what it keeps to end on a verdict, and from
// BudgetEnv when that is shorter; with neither (-timeout 0), each property
// runs its cases as in-process.
const BudgetEnv = "SESSIONDAG_BUDGET"

// reserveOf is what the suite keeps of a deadline after it stops drawing
// cases: the cases under way end, a failure is shrunk and reduced, the
// verdict is written.
func reserveOf(timeout time.Duration) time.Duration { return max(45*time.Second, timeout/8) }

// suiteBudget is the suite's time against another implementation, shared
// among the tests that draw cases (plannedUnits): each gets a share when it
// starts, of what is left for the tests not yet ended, which run as many at
// once as -test.parallel lets.
type suiteBudget struct {
	start, end time.Time // no test draws a case after end
	deadline   time.Time // the test binary's (zero: none)
	from       string    // where the budget came from, for the report
	parallel   int
	planned    []string // the tests of this run that draw cases

	mu       sync.Mutex
	begun    int
	finished int
}

// budget is nil in-process, and across the protocol when there is no
// deadline and no BudgetEnv: nothing then stops drawing early.
var budget *suiteBudget

// String says the budget, for the report.
func (b *suiteBudget) String() string {
	if b == nil {
		return "no time budget (no -test.timeout and no " + BudgetEnv + "): every property runs its cases"
	}
	return fmt.Sprintf("budget %s (%s), shared among %d tests that draw cases, %d at a time",
		b.end.Sub(b.start).Round(time.Second), b.from, len(b.planned), b.parallel)
}

// begin starts a test that draws cases: its drawing, with its share of
// what is left. A test that draws cases must be one of plannedUnits.
func (b *suiteBudget) begin(t testing.TB) *drawing {
	if b == nil {
		return &drawing{}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if !slices.Contains(b.planned, t.Name()) {
		t.Errorf("budget: %s draws cases but is not one of the tests the budget is shared among (plannedUnits)", t.Name())
	}
	share := b.shareLocked()
	b.begun++
	t.Cleanup(func() {
		b.mu.Lock()
		b.finished++
		b.mu.Unlock()
	})
	return &drawing{until: time.Now().Add(share), share: share, started: time.Now(), budget: b}
}

// shareLocked is a share of what is left: the tests not ended yet run in
// waves of -test.parallel, and each gets what is left over the waves
// still to come. b.mu is held.
func (b *suiteBudget) shareLocked() time.Duration {
	left := max(0, time.Until(b.end))
	waves := (max(1, len(b.planned)-b.finished) + b.parallel - 1) / b.parallel
	return left / time.Duration(waves)
}

// minExtension is the least time worth granting a drawing whose share ran
// out: less would cut it again within a case.
const minExtension = time.Second

// extension is more time for a drawing whose share ran out while tests
// that ended early left some of the budget unused: a share of what is
// left, as begin gives it now; zero when that is too little, and while a
// test has yet to begin: what is left is its share too.
func (b *suiteBudget) extension() time.Duration {
	if b == nil {
		return 0
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.begun < len(b.planned) {
		return 0
	}
	if more := b.shareLocked(); more >= minExtension {
		return more
	}
	return 0
}

// A drawing is one test's cases and its share of the budget: it stops
// drawing when the share is spent (not while a failure is shrunk) and no
// more of the budget is left to it (extension: tests that ended early
// leave their time to those still drawing).
type drawing struct {
	until   time.Time // zero: no limit
	share   time.Duration
	started time.Time
	budget  *suiteBudget

	mu      sync.Mutex
	cases   int
	cut     bool // the share ran out before the test's cases did
	failing bool
}

// more reports whether to draw another case, and counts it.
func (d *drawing) more() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	switch {
	case d.failing:
		return true // rapid shrinks a failure: every replay runs
	case !d.until.IsZero() && time.Now().After(d.until):
		more := d.budget.extension()
		if more == 0 {
			d.cut = true
			return false
		}
		d.until, d.share = time.Now().Add(more), time.Since(d.started)+more
	}
	d.cases++
	return true
}

// count is how many cases were drawn.
func (d *drawing) count() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.cases
}

// left reports whether the share has time left, or the budget more to
// give it.
func (d *drawing) left() bool {
	d.mu.Lock()
	until := d.until
	d.mu.Unlock()
	return until.IsZero() || time.Now().Before(until) || d.budget.extension() > 0
}

// fail marks a failure found: from then on every case runs.
func (d *drawing) fail() {
	d.mu.Lock()
	d.failing = true
	d.mu.Unlock()
}

// String says what was drawn, for the log and the report.
func (d *drawing) String() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	s := plural(d.cases, "case")
	if !d.until.IsZero() {
		s += fmt.Sprintf(" in %s of a %s share", time.Since(d.started).Round(time.Second), d.share.Round(time.Second))
		if d.cut {
			s += ", cut by the share"
		}
	}
	return s
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

func flagString(name string) string {
	if f := flag.Lookup(name); f != nil {
		return f.Value.String()
	}
	return ""
}

func flagDuration(name string) time.Duration {
	d, _ := time.ParseDuration(flagString(name))
	return d
}

func flagInt(name string) int {
	n, _ := strconv.Atoi(flagString(name))
	return n
}
