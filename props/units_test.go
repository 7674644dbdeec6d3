package props

import (
	"fmt"
	"os"
	"slices"
	"time"

	"sessiondag/checker/harness"
	"sessiondag/protocol"
)

// openBudget sets the suite's budget against the implementation a, from
// the test binary's start.
func openBudget(start time.Time, a protocol.About) error {
	timeout := flagDuration("test.timeout")
	b := &suiteBudget{start: start, parallel: flagInt("test.parallel"), planned: selectedUnits(a)}
	if timeout > 0 {
		b.deadline = start.Add(timeout)
		b.end = b.deadline.Add(-reserveOf(timeout))
		b.from = fmt.Sprintf("-test.timeout %s, less %s to end on a verdict", timeout, reserveOf(timeout))
	}
	if v := os.Getenv(BudgetEnv); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return fmt.Errorf("%s=%q: want a positive Go duration (90s, 5m)", BudgetEnv, v)
		}
		if b.end.IsZero() || start.Add(d).Before(b.end) {
			b.end, b.from = start.Add(d), BudgetEnv+"="+v
		}
	}
	switch {
	case b.end.IsZero():
		return nil
	case !b.end.After(start):
		return fmt.Errorf("-test.timeout %s leaves no time to draw cases after the %s the suite keeps to end on a verdict (set %s, or a longer -timeout)",
			timeout, reserveOf(timeout), BudgetEnv)
	}
	b.parallel = max(b.parallel, 1)
	budget = b
	return nil
}

// plannedUnits are the tests that draw cases against an implementation
// that declares a: each check it applies to on each kind of data it
// writes, the determinism property, each cut-off search its kinds reach,
// the rollout table.
func plannedUnits(a protocol.About) []string {
	var out []string
	for _, c := range harness.Checks {
		for _, d := range c.Data {
			if c.PerOp() && c.Applies(a) == nil && harness.TakesData(a, d) == nil {
				out = append(out, "TestChecks/"+c.Prop+"-"+c.Name+"/"+d.Slug)
			}
		}
	}
	out = append(out, "TestP9Determinism")
	if complete(0).Applies(a) == nil && harness.TakesData(a, harness.WrittenOff) == nil {
		for _, s := range cutoffSearches {
			if len(s.lacks(a)) == 0 {
				out = append(out, "TestKnownLegacyCutoff/"+rewrite(s.name))
			}
		}
	}
	if check("rollout").Applies(a) == nil {
		out = append(out, "TestRolloutTable")
	}
	return out
}

// selectedUnits are the planned tests this run's -test.run and -test.skip
// select.
func selectedUnits(a protocol.About) []string {
	run, skip := flagString("test.run"), flagString("test.skip")
	return slices.DeleteFunc(plannedUnits(a), func(name string) bool { return !selected(name, run, skip) })
}
