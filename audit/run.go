package audit

import (
	"fmt"
	"io"
	"time"

	"sessiondag/impl/flags"
)

// Summary totals an audit.
type Summary struct {
	Sessions    int            `json:"sessions"`
	Nodes       int            `json:"nodes"`
	Broken      int            `json:"broken"`
	Violations  int            `json:"violations"`
	Regressions int            `json:"regressions"`
	Steps       []StepTotal    `json:"steps"`
	Intended    int            `json:"with_intended_view"`
	Seconds     float64        `json:"seconds"`
	ChainTotals map[string]int `json:"chain_rows"` // per config
}

// StepTotal counts the verdicts of one rollout step over all sessions.
type StepTotal struct {
	From       string `json:"from"`
	To         string `json:"to"`
	Unchanged  int    `json:"unchanged"`
	Fix        int    `json:"fix"`
	Regression int    `json:"regression"`
}

// Failed reports whether the audit must fail (exit 1).
func (s *Summary) Failed() bool { return s.Broken+s.Violations+s.Regressions > 0 }

// Run audits every session below roots. Each session is passed to emit as
// soon as it is done; progress, when not nil, gets a one-line counter.
func Run(roots []string, progress io.Writer, emit func(*Session)) (*Summary, error) {
	dirs, err := Find(roots)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	sum := &Summary{ChainTotals: map[string]int{}}
	for i := 1; i < len(flags.Rollout); i++ {
		sum.Steps = append(sum.Steps, StepTotal{From: flags.Rollout[i-1].String(), To: flags.Rollout[i].String()})
	}
	for i, dir := range dirs {
		if progress != nil {
			fmt.Fprintf(progress, "\r\033[Kaudit %d/%d %s", i+1, len(dirs), dir)
		}
		s := One(dir)
		sum.add(s)
		if emit != nil {
			emit(s)
		}
	}
	if progress != nil && len(dirs) > 0 {
		fmt.Fprint(progress, "\r\033[K")
	}
	sum.Seconds = time.Since(start).Seconds()
	return sum, nil
}

func (sum *Summary) add(s *Session) {
	sum.Sessions++
	sum.Nodes += s.Nodes
	if s.Error != "" {
		sum.Broken++
	}
	if s.Intended {
		sum.Intended++
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
}
