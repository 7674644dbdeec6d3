package audit

import (
	"fmt"
	"io"
	"time"

	"sessiondag/impl/flags"
	"sessiondag/internal/shard"
)

// Summary totals an audit. Summaries of disjoint shards merge (Merge) into
// the summary of the whole run.
type Summary struct {
	Shard       string         `json:"shard,omitempty"` // "i/n" when the run audited one shard
	Sessions    int            `json:"sessions"`
	Nodes       int            `json:"nodes"`
	Broken      int            `json:"broken"`
	Violations  int            `json:"violations"`
	Regressions int            `json:"regressions"`
	HiddenUsers int            `json:"sessions_hiding_a_user_message"`
	Steps       []StepTotal    `json:"steps"`
	Intended    int            `json:"with_intended_view"`
	Seconds     float64        `json:"seconds"`    // summed over merged shards
	ChainTotals map[string]int `json:"chain_rows"` // per config
	Residual    ResidualTotals `json:"residual"`
	// Shards are the shards merged into this summary.
	Shards []string `json:"shards,omitempty"`
}

// StepTotal counts the verdicts of one rollout step over all sessions.
type StepTotal struct {
	From       string `json:"from"`
	To         string `json:"to"`
	Unchanged  int    `json:"unchanged"`
	Fix        int    `json:"fix"`
	Regression int    `json:"regression"`
}

// Failed reports whether the audit must fail (exit 1): a broken session, a
// violation, a regression, or a merge of shards that is not every shard
// exactly once (a verdict on part of the sessions is no verdict).
func (sum *Summary) Failed() bool {
	return sum.Broken+sum.Violations+sum.Regressions > 0 || len(sum.ShardProblems()) > 0
}

// Options configure a run.
type Options struct {
	Progress io.Writer // a one-line counter, when not nil
	// Shard splits a run: it audits the sessions whose index in the sorted
	// list of session directories it owns. The shards of one split are
	// disjoint and together the whole run.
	Shard   shard.Shard
	Columns bool // lay out every session's chains for the page
}

// Run audits every session below roots. Each session is passed to emit as
// soon as it is done; progress, when not nil, gets a one-line counter.
func Run(roots []string, progress io.Writer, emit func(*Session)) (*Summary, error) {
	return RunWith(roots, Options{Progress: progress}, emit)
}

// RunWith is Run with options.
func RunWith(roots []string, o Options, emit func(*Session)) (*Summary, error) {
	if o.Shard.I < 0 || o.Shard.I >= o.Shard.Parts() {
		return nil, fmt.Errorf("audit: shard %v: the index must be 0 to %d", o.Shard, o.Shard.Parts()-1)
	}
	all, err := Find(roots)
	if err != nil {
		return nil, err
	}
	dirs := all
	sum := NewSummary()
	if !o.Shard.IsWhole() {
		dirs = nil
		for i, d := range all {
			if o.Shard.Owns(uint64(i)) {
				dirs = append(dirs, d)
			}
		}
		sum.Shard = o.Shard.String()
	}
	start := time.Now()
	for i, dir := range dirs {
		if o.Progress != nil {
			fmt.Fprintf(o.Progress, "\r\033[Kaudit %d/%d %s", i+1, len(dirs), dir)
		}
		s := one(dir, o.Columns)
		sum.Add(s)
		if emit != nil {
			emit(s)
		}
	}
	if o.Progress != nil && len(dirs) > 0 {
		fmt.Fprint(o.Progress, "\r\033[K")
	}
	sum.Seconds = time.Since(start).Seconds()
	return sum, nil
}

// NewSummary is the summary of no session.
func NewSummary() *Summary {
	sum := &Summary{ChainTotals: map[string]int{}, Residual: ResidualTotals{Intended: []CauseTotal{}, Unshown: []CauseTotal{}}}
	for i := 1; i < len(flags.Rollout); i++ {
		sum.Steps = append(sum.Steps, StepTotal{From: flags.Rollout[i-1].String(), To: flags.Rollout[i].String()})
	}
	return sum
}

// Add counts one audited session.
func (sum *Summary) Add(s *Session) {
	sum.Sessions++
	sum.Nodes += s.Nodes
	if s.Error != "" {
		sum.Broken++
	}
	if s.Intended {
		sum.Intended++
	}
	if s.HidesUser() {
		sum.HiddenUsers++
	}
	sum.Violations += len(s.Violations)
	for _, c := range s.Configs {
		sum.ChainTotals[c.Flags] += c.ChainLen
	}
	for i, st := range s.Steps {
		t := &sum.Steps[i]
		switch st.Verdict {
		case Unchanged:
			t.Unchanged++
		case Fix:
			t.Fix++
		case Regression:
			t.Regression++
			sum.Regressions++
		}
	}
	if s.Intended {
		sum.Residual.Intended = addResidual(sum.Residual.Intended, s)
	} else {
		sum.Residual.Unshown = addResidual(sum.Residual.Unshown, s)
	}
}
