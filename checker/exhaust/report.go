package exhaust

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"sessiondag/checker/campaign"
	"sessiondag/checker/harness"
	"sessiondag/internal/termtext"
	"sessiondag/ops"
)

// Kind is the "kind" of the records of `sessiondag exhaust --json`.
const Kind = "exhaust"

// Record is one JSON line of a run's output: a failure, or the summary that
// ends a shard's output. Outputs of several shards merge by concatenation
// (Merge); Kind says which command wrote the line.
type Record struct {
	Kind    string         `json:"kind"` // always "exhaust"
	Failure *FailureRecord `json:"failure,omitempty"`
	Summary *Summary       `json:"summary,omitempty"`
}

// FailureRecord is a failure as printed: the script as found, as reduced,
// the file the reduced script was saved to and the command that replays it.
type FailureRecord struct {
	Check   string `json:"check"`
	Data    string `json:"data"`
	What    string `json:"what"`
	Step    int    `json:"step"` // ops of the reduced script applied when the check failed
	Script  string `json:"script"`
	Reduced string `json:"reduced"`
	Key     string `json:"key"` // campaign.Key: the same whichever shard or driver finds it
	File    string `json:"file,omitempty"`
	Replay  string `json:"replay,omitempty"`
	// AsFound is what a failure no replay reproduced showed when the walk
	// found it (campaign.Reduced.AsFound): its only record.
	AsFound []string `json:"as_found,omitempty"`
}

// Save writes the failure's replayable file into dir (campaign.Save) and
// returns its path.
func (f Failure) Save(dir string) (string, error) {
	return campaign.Save(dir, f.Reduced.Case, f.Reduced.Finding, "sessiondag exhaust", f.Reduced.AsFound()...)
}

// Record is the failure as a JSON line's payload; file is where it was
// saved ("" if it was not).
func (f Failure) Record(file string) FailureRecord {
	c := f.Reduced.Case
	r := FailureRecord{Check: c.Check.Name, Data: c.Data.Slug, What: campaign.FirstLine(f.Reduced.Finding.What),
		Step: f.Reduced.Finding.Step, Script: ops.String(f.Script), Reduced: ops.String(c.Script), File: file,
		Key: campaign.Key(c)[:16], AsFound: f.Reduced.AsFound()}
	if file != "" {
		r.Replay = f.Reduced.Case.ReplayCommand(file)
	}
	return r
}

// WriteJSON prints the failures, in walk order, then the summary, one JSON
// object a line.
func WriteJSON(w io.Writer, sum Summary, fails []FailureRecord) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for i := range fails {
		if err := enc.Encode(Record{Kind: Kind, Failure: &fails[i]}); err != nil {
			return err
		}
	}
	return enc.Encode(Record{Kind: Kind, Summary: &sum})
}

// Text prints the summary.
func (s Summary) Text(w io.Writer) {
	fmt.Fprintf(w, "exhaust: every valid script of at most %d ops%s, shard %s\n", s.MaxOps, kindsNote(s), s.Shard)
	if s.Impl != "" {
		fmt.Fprintf(w, "  implementation: %s\n", termtext.Line(s.Impl))
		for _, why := range s.NotRun {
			fmt.Fprintf(w, "  not run: %s\n", why)
		}
	}
	fmt.Fprintf(w, "  scripts checked: %d (by length: %s)\n", s.Scripts, lengths(s.ByLength))
	fmt.Fprintf(w, "  runs (script × kind of data): %d, not run below a failing script: %d\n", s.Runs, s.Skipped)
	fmt.Fprintf(w, "  runs on legacy data whose intent is not in the data (P3, P4 left out): %d\n", s.Unsynced)
	if s.Between > 0 {
		fmt.Fprintf(w, "  scripts not checked, ending between two ops written in one step: %d\n", s.Between)
	}
	if s.Dedup {
		fmt.Fprintf(w, "  each distinct state expanded once: %d states expanded, %d found again; %d script × writers walked, the rest taken from the memo\n",
			s.States, s.Reused, s.Walked)
		fmt.Fprintf(w, "  each distinct data checked once: %d sessions checked (%d after a load: %s)\n",
			s.ChecksRun, s.HistoryChecks, historyNames())
		fmt.Fprintf(w, "  fingerprints of 128 bits: collision probability ≤ %.1e (birthday bound over %d)\n",
			s.CollisionBound(), s.States+s.ChecksRun)
	} else {
		fmt.Fprintf(w, "  every script checked (no deduplication): %d sessions checked\n", s.ChecksRun)
	}
	fmt.Fprintf(w, "  depth reached: %d ops\n", s.Depth)
	if s.Shard == claimedShard {
		if n := s.unfinished(); n > 0 {
			fmt.Fprintf(w, "  parts of the walk not finished: %d of %d (%s)\n", n, s.Parts, heldText(s.Unfinished))
		} else {
			fmt.Fprintf(w, "  parts of the walk: every one of %d finished\n", s.Parts)
		}
	}
	if s.Stopped {
		fmt.Fprintf(w, "  stopped at the first failing script: the counts are of the scripts walked until then\n")
	}
	if slowest, mean := s.Balance(); len(s.Claimants) > 0 && mean > 0 {
		fmt.Fprintf(w, "  claimants: %d; processor time of the slowest %.1f s, of the mean %.1f s (%.2f×)\n",
			len(s.Claimants), slowest, mean, slowest/mean)
	}
	fmt.Fprintf(w, "  %.1f s, %.0f scripts/s; %.1f s of processor time, %.0f scripts per processor second\n",
		s.Seconds, s.ScriptsPerSecond(), s.CPUSeconds, s.ScriptsPerCPUSecond())
	fmt.Fprintf(w, "  failures: %d (%d distinct after reduction)\n", s.Failures, s.Reduced)
	if s.Failures > 0 {
		fmt.Fprintf(w, "  failures by length: %s\n", lengths(s.FailuresByLength))
	}
}

// WriteText prints the summary and each failure with its reduced script
// and replay command.
func WriteText(w io.Writer, sum Summary, fails []FailureRecord) {
	sum.Text(w)
	for _, f := range fails {
		fmt.Fprintf(w, "\n%s [%s]: %s, after op %d\n", f.Check, f.Data, termtext.Line(f.What), f.Step)
		fmt.Fprintf(w, "  reduced (%d ops):\n%s", strings.Count(f.Reduced, "\n"), indent(f.Reduced))
		for _, l := range f.AsFound {
			fmt.Fprintf(w, "  %s\n", termtext.Line(l))
		}
		if f.Replay != "" {
			fmt.Fprintf(w, "  replay: %s\n", termtext.Line(f.Replay))
		}
	}
	fmt.Fprintf(w, "\n%s\n", sum.Verdict().Line())
}

// historyNames lists the checks about what loads keep.
func historyNames() string {
	var names []string
	for _, c := range harness.Checks {
		if c.History {
			names = append(names, c.Name)
		}
	}
	return strings.Join(names, ", ")
}

func kindsNote(s Summary) string {
	if s.Kinds == "" {
		return ""
	}
	return " of kinds " + s.Kinds
}

func lengths(by []int64) string {
	parts := make([]string, len(by))
	for i, n := range by {
		parts[i] = fmt.Sprintf("%d: %d", i+1, n)
	}
	return strings.Join(parts, ", ")
}

func indent(s string) string {
	var b strings.Builder
	for line := range strings.Lines(s) {
		b.WriteString("    " + line)
	}
	return b.String()
}

// walkOrder compares two scripts in the order the walk visits them: op by
// op by text (candidates are sorted so), a prefix first.
func walkOrder(a, b []ops.Op) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if c := strings.Compare(ops.Format(a[i]), ops.Format(b[i])); c != 0 {
			return c
		}
	}
	return len(a) - len(b)
}

// sortFailures puts failures in walk order.
func sortFailures(fs []Failure) {
	slices.SortStableFunc(fs, func(a, b Failure) int { return walkOrder(a.Script, b.Script) })
}
