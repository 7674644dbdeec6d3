package hunt

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"sessiondag/checker/campaign"
	"sessiondag/checker/gen"
	"sessiondag/checker/harness"
	"sessiondag/internal/shard"
	"sessiondag/internal/termtext"
	"sessiondag/internal/verdict"
)

// Report is what a campaign did and found.
type Report struct {
	Seed       uint64
	Shard      shard.Shard
	Budget     time.Duration
	Iterations uint64 // the bound on iteration numbers, 0 = none
	MaxOps     int
	Checks     string  // the checks hunted, comma-separated
	Only       *uint64 // the one iteration played, when Config.Only was set
	Elapsed    time.Duration
	Scripts    int // scripts played
	Ops        int // ops applied, over every script (reductions not counted)
	Swarms     int // distinct swarm configurations
	Planned    int // scripts played under a drawn rollout plan
	Rollouts   int // distinct rollout plans among them
	// SwarmKeys and RolloutKeys are those configurations and plans, each by
	// its setKey: what the summary carries, so that shards' merge counts
	// the distinct ones of the whole campaign.
	SwarmKeys, RolloutKeys []string
	Shapes                 map[string]int // scripts that have each shape of gen.Tally
	Findings               int            // failures before de-duplication
	Props                  []PropStats
	Failures               []*Failure // distinct after reduction, by iteration
	Errors                 []*ErrorRecord
	Played                 []Played // every iteration played, in order
	Impl                   string   // the implementation hunted
	NotRun                 []string // the checks and kinds of data it cannot be judged on, each with why
	NotWritten             int      // scripts not judged: they hold an op kind it does not write
	LeftOut                []string // what the comparisons leave out for it (protocol.About.LeftOut)
	Stopped                bool     // it ended at its first distinct failure (Config.Stop)
	Known                  []string // what each entry of the known file accepted (campaign.Known.Lines)
}

// PropStats are the counts of one property on one kind of data.
type PropStats struct {
	Check    string `json:"check"`
	Data     string `json:"data"`
	DataName string `json:"-"`
	Scripts  int    `json:"scripts"`
	Swarms   int    `json:"swarms"`
	Ops      int    `json:"ops"`
	Findings int    `json:"findings"`
	Failures int    `json:"failures"`        // distinct failures first found on this row
	Known    int    `json:"known,omitempty"` // findings of a class the known file accepts (not failures)
	// Seconds is the workers' time on this row: drawing, playing and
	// reducing its scripts.
	Seconds float64 `json:"seconds"`
	// The swarm configurations (setKey) and failures (their keys) counted
	// in Swarms and Failures, so that a merge of shards counts each once.
	SwarmKeys   []string `json:"swarm_keys,omitempty"`
	FailureKeys []string `json:"failure_keys,omitempty"`

	swarms, failures map[string]bool
}

// Failure is one distinct failure: the first iteration that found it and
// the file its reduced script was written to.
type Failure struct {
	Impl       string `json:"impl,omitempty"` // the implementation command, when not in-process
	Check      string `json:"check"`
	Data       string `json:"data"`
	DataName   string `json:"-"`
	What       string `json:"what"`
	Step       int    `json:"step"`      // the op of the reduced script after which the check fails
	Ops        int    `json:"ops"`       // the reduced script's length
	FoundOps   int    `json:"found_ops"` // the ops played when it was found
	Iteration  uint64 `json:"iteration"`
	ScriptSeed uint64 `json:"script_seed"`
	Swarm      string `json:"swarm"`
	Rollout    string `json:"rollout,omitempty"` // the rollout plan drawn, if any
	Key        string `json:"key"`               // the same in every shard that finds it
	Times      int    `json:"times"`             // iterations that found it
	Reproduced bool   `json:"reproduced"`
	File       string `json:"file,omitempty"`
}

// Replay is the command that reproduces the failure from its file.
func (f *Failure) Replay() string {
	if f.File == "" {
		return "(not written)"
	}
	cmd := campaign.ReplayCommand(f.File)
	if f.Impl != "" {
		cmd += " --impl " + campaign.ShellQuote(f.Impl)
	}
	return cmd
}

// ErrorRecord is an iteration that could not be played: the generator drew
// an op no writer accepts, a write failed, or something panicked.
type ErrorRecord struct {
	Check      string `json:"check,omitempty"`
	Data       string `json:"data,omitempty"`
	Iteration  uint64 `json:"iteration"`
	ScriptSeed uint64 `json:"script_seed"`
	Err        string `json:"error"`
	File       string `json:"file,omitempty"`
}

// Played is one iteration and its script seed.
type Played struct {
	Iteration uint64
	Seed      uint64
}

// Failed reports whether the campaign found a failure or met an error.
func (r *Report) Failed() bool { return len(r.Failures) > 0 || len(r.Errors) > 0 }

// Verdict is the campaign's (Summary.Verdict).
func (r *Report) Verdict() verdict.Verdict { return r.Summary().Verdict() }

// ShardName is "i/n".
func (r *Report) ShardName() string { return r.Shard.String() }

// propsTable writes the counts per property and kind of data.
func propsTable(w io.Writer, props []PropStats) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "property\tdata\tscripts\tswarms\tops\tfindings\tfailures\tworker time")
	for _, p := range props {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%d\t%d\t%.2fs\n", p.Check, p.Data, p.Scripts, p.Swarms, p.Ops, p.Findings, p.Failures, p.Seconds)
	}
	tw.Flush()
}

// Text writes the report for a reader.
func (r *Report) Text(w io.Writer) {
	fmt.Fprintf(w, "hunt: seed %d, shard %s, %s in %.2fs\n", r.Seed, r.ShardName(), r.bound(), r.Elapsed.Seconds())
	if r.Impl != "" && r.Impl != harness.InProcessAbout.Name {
		fmt.Fprintf(w, "implementation: %s\n", termtext.Line(r.Impl))
		for _, why := range r.NotRun {
			fmt.Fprintf(w, "not run: %s\n", why)
		}
		if r.NotWritten > 0 {
			fmt.Fprintf(w, "not judged: %s with an op kind it does not write\n", plural(r.NotWritten, "script"))
		}
	}
	fmt.Fprintf(w, "%d scripts, %d ops applied, %d distinct swarm configurations, %d scripts under %d distinct rollout plans\n\n",
		r.Scripts, r.Ops, r.Swarms, r.Planned, r.Rollouts)
	propsTable(w, r.Props)
	r.shapesText(w)
	fmt.Fprintf(w, "\n%d distinct failures (%d findings before reduction and de-duplication), %d errors\n",
		len(r.Failures), r.Findings, len(r.Errors))
	for _, f := range r.Failures {
		fmt.Fprintf(w, "- %s [%s]: %s, after op %d of %d (reduced from %d)\n", f.Check, f.Data, termtext.Line(f.What), f.Step, f.Ops, f.FoundOps)
		fmt.Fprintf(w, "  found by %s, first at iteration %d (script seed %d)\n", plural(f.Times, "iteration"), f.Iteration, f.ScriptSeed)
		if !f.Reproduced {
			fmt.Fprintln(w, "  the reduced script did not fail again: the failure is not deterministic; the file keeps the script as found")
		}
		fmt.Fprintf(w, "  %s\n", termtext.Line(f.Replay()))
	}
	for _, e := range r.Errors {
		fmt.Fprintf(w, "- error at iteration %d (script seed %d, %s [%s]): %s\n", e.Iteration, e.ScriptSeed, e.Check, e.Data, indent(termtext.Text(e.Err)))
		if e.File != "" {
			fmt.Fprintf(w, "  script: %s\n", e.File)
		}
	}
	for _, l := range r.Known {
		fmt.Fprintln(w, l)
	}
	if r.Stopped {
		fmt.Fprintln(w, "stopped at the first distinct failure (--stop): the counts are of the iterations played until then")
	}
	fmt.Fprintf(w, "\n%s\n", r.Verdict().Line())
}

// shapesText says how many scripts had each shape the generator tallies,
// and which required shapes (gen.Required) none had.
func (r *Report) shapesText(w io.Writer) {
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "shape\tscripts")
	for _, s := range slices.Sorted(maps.Keys(r.Shapes)) {
		fmt.Fprintf(tw, "%s\t%d\n", s, r.Shapes[s])
	}
	tw.Flush()
	var missing []string
	for _, s := range gen.Required {
		if r.Shapes[s] == 0 {
			missing = append(missing, s)
		}
	}
	if len(missing) > 0 {
		fmt.Fprintf(w, "required shapes no script had: %s\n", strings.Join(missing, "; "))
	}
}

func (r *Report) bound() string {
	if r.Only != nil {
		return fmt.Sprintf("iteration %d only", *r.Only)
	}
	var parts []string
	if r.Budget > 0 {
		parts = append(parts, fmt.Sprintf("budget %s", r.Budget))
	}
	if r.Iterations > 0 {
		parts = append(parts, fmt.Sprintf("iterations below %d", r.Iterations))
	}
	return strings.Join(parts, ", ")
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func indent(s string) string { return strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n    ") }

// JSON writes one line per failure ({"kind":"hunt-failure",…}), one per
// error ({"kind":"hunt-error",…}), then {"kind":"hunt","summary":{…}}: the
// outputs of shards merge by concatenation (a failure's key is the same in
// every shard that finds it).
func (r *Report) JSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	for _, f := range r.Failures {
		if err := enc.Encode(struct {
			Kind string `json:"kind"`
			*Failure
		}{"hunt-failure", f}); err != nil {
			return err
		}
	}
	for _, e := range r.Errors {
		if err := enc.Encode(struct {
			Kind string `json:"kind"`
			*ErrorRecord
		}{"hunt-error", e}); err != nil {
			return err
		}
	}
	return enc.Encode(struct {
		Kind    string  `json:"kind"`
		Summary Summary `json:"summary"`
	}{Kind, r.Summary()})
}
