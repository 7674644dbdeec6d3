package audit

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"sessiondag/impl/flags"
	"sessiondag/internal/shard"
	"sessiondag/internal/verdict"
)

// Summary totals an audit. Summaries of disjoint shards merge (Merge) into
// the summary of the whole run.
type Summary struct {
	Shard       string      `json:"shard,omitempty"` // "i/n" when the run audited one shard
	Sessions    int         `json:"sessions"`
	Nodes       int         `json:"nodes"`
	Broken      int         `json:"broken"`
	Violations  int         `json:"violations"`
	Regressions int         `json:"regressions"`
	HiddenUsers int         `json:"sessions_hiding_a_user_message"`
	MovedUsers  int         `json:"sessions_moving_a_user_message"`
	Steps       []StepTotal `json:"steps"`
	Intended    int         `json:"with_intended_view"`
	// Found is how many session directories the walk found in the whole
	// tree (every shard walks all of it); a whole run audits each once.
	Found int `json:"found"`
	// TreeProblems are directories the walk could not read (the run is
	// then NOT READY); TreeNotes what it did that a reader should know.
	TreeProblems []string       `json:"tree_problems,omitempty"`
	TreeNotes    []string       `json:"tree_notes,omitempty"`
	Seconds      float64        `json:"seconds"`    // summed over merged shards
	ChainTotals  map[string]int `json:"chain_rows"` // per config
	Residual     ResidualTotals `json:"residual"`
	// Accepted counts the steps reviewed exceptions accept (not
	// regressions); Exceptions is how each exception of the file fared.
	Accepted   int            `json:"accepted,omitempty"`
	Exceptions []ExceptionUse `json:"exceptions,omitempty"`
	// Shards are the shards merged into this summary.
	Shards []string `json:"shards,omitempty"`
	// Reconstruct counts the sessions without an op script by what
	// reconstruct made of them; Proof the sessions whose script is known by
	// where it lies against what was checked.
	Reconstruct ReconstructTotals `json:"reconstruction"`
	Proof       ProofTotals       `json:"proof"`
}

// StepTotal counts the verdicts of one rollout step over all sessions.
type StepTotal struct {
	From       string `json:"from"`
	To         string `json:"to"`
	Unchanged  int    `json:"unchanged"`
	Fix        int    `json:"fix"`
	Regression int    `json:"regression"`
	// Unjudged: the step changes the view of a broken session, which gets
	// no verdict (ruleBrokenNoVerdict).
	Unjudged int `json:"unjudged,omitempty"`
	// Accepted: regressions reviewed exceptions accept.
	Accepted int `json:"accepted,omitempty"`
}

// Failed reports whether the audit gives no pass: a broken session, a
// violation, a regression, or a run that is not a verdict on the whole
// tree (Problems).
func (sum *Summary) Failed() bool { return !ruleReady(sum) }

// Verdict is the run's word on the rollout. Fail: a broken session, a
// violation or a regression (NOT READY). Undecided: a run that is no
// verdict on the whole tree (Problems: nothing found, a directory
// unreadable, a shard missing or merged twice). Pass: ready, on the whole
// input without a finding — or, for one shard, no finding in that shard
// (its exit is 0, so that a Job's pod succeeds): the verdict on the whole
// is the merge's, by sessiondag summary.
func (sum *Summary) Verdict() verdict.Verdict {
	if ruleReady(sum) {
		if sum.Shard != "" && len(sum.Shards) == 0 {
			return verdict.PassBecause("no finding in shard " + sum.Shard + "; the verdict on the whole is the merge of every shard (sessiondag summary)")
		}
		if shares := sum.Shares(); shares != "" {
			return verdict.PassBecause("ready; " + shares)
		}
		return verdict.PassBecause("ready")
	}
	var failed []string
	for _, c := range []struct {
		n    int
		what string
	}{{sum.Broken, "broken session"}, {sum.Violations, "violation"}, {sum.Regressions, "regression"}} {
		if c.n > 0 {
			failed = append(failed, plural(c.n, c.what))
		}
	}
	problems := sum.Problems()
	if len(failed) == 0 && len(problems) == 0 {
		failed = []string{"a rule of readiness failed"} // ruleReady says more than the counts
	}
	if len(failed) > 0 {
		failed[0] = "NOT READY: " + failed[0]
	}
	return verdict.Of(failed, problems)
}

// Options configure a run.
type Options struct {
	Progress *Progress // how far the run is, when not nil
	// Context stops the run between two sessions (or two directories of
	// the walk) when it is done: RunWith then returns ErrInterrupted with
	// the summary of what it audited.
	Context context.Context
	// Shard splits a run: it audits the sessions whose index in the sorted
	// list of session directories it owns. The shards of one split are
	// disjoint and together the whole run.
	Shard   shard.Shard
	Columns bool // lay out every session's chains for the page
	// Reconstruct: a session without an op script gets the script
	// reconstructed from its rows (package reconstruct); a unique one
	// gives the intended view as a session.ops does, and every one is
	// counted by what reconstruct made of it.
	Reconstruct bool
	// Writes are the files the run will write (the page): the run is
	// refused when one is inside a session directory it reads.
	Writes []string
	// Exceptions are reviewed findings to accept (nil: none).
	Exceptions *Exceptions
	// Workers audit that many sessions side by side (0: one per core);
	// sessions are still handed over in sorted order.
	Workers int
}

// Run audits every session below roots. Each session is passed to emit as
// soon as it is done; progress, when not nil, gets a plain progress line
// every few seconds.
func Run(roots []string, progress io.Writer, emit func(*Session)) (*Summary, error) {
	o := Options{}
	if progress != nil {
		o.Progress = &Progress{W: progress}
	}
	return RunWith(roots, o, emit)
}

// ErrInterrupted: the run's context ended before every session was
// audited; the summary covers the sessions audited, and is no verdict.
var ErrInterrupted = errors.New("interrupted")

// RunWith is Run with options.
func RunWith(roots []string, o Options, emit func(*Session)) (*Summary, error) {
	if o.Shard.I < 0 || o.Shard.I >= o.Shard.Parts() {
		return nil, fmt.Errorf("audit: shard %v: the index must be 0 to %d", o.Shard, o.Shard.Parts()-1)
	}
	ctx := o.Context
	if ctx == nil {
		ctx = context.Background()
	}
	o.Progress.begin()
	tree, err := find(ctx, roots, os.ReadDir, o.Progress)
	if err != nil {
		return nil, err
	}
	for _, w := range o.Writes {
		if dir, ok := tree.Holding(w); ok {
			return nil, fmt.Errorf("audit: %s is inside the session directory %s, which the audit reads and never writes to: write it elsewhere", w, dir)
		}
	}
	dirs := tree.Sessions
	sum := NewSummary()
	sum.Found = len(tree.Sessions)
	sum.TreeProblems, sum.TreeNotes = tree.Problems, tree.Notes
	if !o.Shard.IsWhole() {
		dirs = nil
		for i, d := range tree.Sessions {
			if o.Shard.Owns(uint64(i)) {
				dirs = append(dirs, d)
			}
		}
		sum.Shard = o.Shard.String()
	}
	start := time.Now()
	var uses []ExceptionUse
	defer o.Progress.end()
	at := o.Progress.mark()
	complete := inOrder(ctx, dirs, o.Workers, o, func(s *Session) {
		uses = append(uses, o.Exceptions.apply(s)...) // merged once, at the end
		sum.Add(s)
		if emit != nil {
			emit(s)
		}
		o.Progress.audited(sum.Sessions, len(dirs), sum.Nodes, at)
	})
	if !complete {
		sum.Seconds = time.Since(start).Seconds()
		return sum, ErrInterrupted
	}
	sum.Seconds = time.Since(start).Seconds()
	uses = mergeUses(nil, uses)
	sum.Exceptions = mergeUses(uses, o.Exceptions.unseen(uses))
	return sum, nil
}

// NewSummary is the summary of no session.
func NewSummary() *Summary {
	sum := &Summary{ChainTotals: map[string]int{}, Residual: ResidualTotals{Intended: []CauseTotal{}, Unshown: []CauseTotal{}},
		Proof: ProofTotals{Outside: []Outside{}}}
	for i := 1; i < len(flags.Rollout); i++ {
		sum.Steps = append(sum.Steps, StepTotal{From: flags.Rollout[i-1].String(), To: flags.Rollout[i].String()})
	}
	return sum
}

// Add counts one audited session.
func (sum *Summary) Add(s *Session) {
	sum.Sessions++
	sum.Nodes += s.Nodes
	if s.Broken() {
		sum.Broken++
	}
	if s.Intended {
		sum.Intended++
	}
	if s.HidesUser() {
		sum.HiddenUsers++
	}
	if s.MovesUser() {
		sum.MovedUsers++
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
		case Unjudged:
			t.Unjudged++
		case Accepted:
			t.Accepted++
			sum.Accepted++
		}
	}
	sum.Reconstruct.add(s.Reconstruction)
	sum.Proof.add(s)
	if s.Intended {
		sum.Residual.Intended = addResidual(sum.Residual.Intended, s)
	} else {
		sum.Residual.Unshown = addResidual(sum.Residual.Unshown, s)
	}
}
