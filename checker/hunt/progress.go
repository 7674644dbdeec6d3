package hunt

import (
	"fmt"
	"time"

	tick "sessiondag/internal/progress"
)

// progress is the line a campaign under way prints every so often
// (Config.Progress): the scripts played and their rate, the findings, the
// distinct failures, the known ones and the errors, and the time left —
// of the budget, or at the rate so far for the iterations left, whichever
// ends first.
func (c *collector) progress(elapsed time.Duration) string {
	c.mu.Lock()
	scripts, findings, failures, known, errs := len(c.played), c.findings, len(c.failures), c.known, len(c.errors)
	c.mu.Unlock()
	s := fmt.Sprintf("hunt: %s scripts (%.1f/s), %d findings, %d distinct failures", tick.Count(int64(scripts)),
		float64(scripts)/elapsed.Seconds(), findings, failures)
	if known > 0 {
		s += fmt.Sprintf(", %d known", known)
	}
	if errs > 0 {
		s += fmt.Sprintf(", %d errors", errs)
	}
	s += fmt.Sprintf(", %s", elapsed.Round(time.Second))
	return s + ", " + c.left(scripts, elapsed)
}

// left is the time the campaign has left: the budget's rest, or the
// iterations of the shard not yet played at the rate so far.
func (c *collector) left(scripts int, elapsed time.Duration) string {
	budget := time.Duration(-1)
	if c.cfg.Budget > 0 {
		budget = max(0, c.cfg.Budget-elapsed)
	}
	if c.cfg.Iterations > 0 && scripts > 0 {
		n, i := uint64(c.cfg.Shard.Parts()), uint64(c.cfg.Shard.I)
		owned := uint64(0)
		if c.cfg.Iterations > i {
			owned = (c.cfg.Iterations - i + n - 1) / n
		}
		rest := float64(owned) - float64(scripts)
		if at := time.Duration(float64(elapsed) * rest / float64(scripts)); budget < 0 || at < budget {
			return tick.Left(elapsed, float64(scripts), max(rest, 0))
		}
	}
	if budget < 0 {
		return "time left unknown"
	}
	return "about " + budget.Round(time.Second).String() + " left of the budget"
}
