package hunt

import (
	"fmt"
	"io"
	"maps"
	"slices"

	"sessiondag/internal/shard"
	"sessiondag/internal/verdict"
	"sessiondag/protocol"
)

// Kind is the "kind" of the summary record of `sessiondag hunt --json`.
const Kind = "hunt"

// Summary is the last JSON line of a run: what it played and found. The
// counts of the shards of one campaign add up (Merge).
type Summary struct {
	Seed       uint64   `json:"seed"`
	Checks     string   `json:"checks"` // the checks hunted, comma-separated
	MaxOps     int      `json:"max_ops"`
	Shard      string   `json:"shard"`            // "i/n"; "0/1" for a whole run
	Merged     []string `json:"merged,omitempty"` // the shards a merged summary adds up
	Minutes    float64  `json:"minutes,omitempty"`
	Iterations uint64   `json:"iterations,omitempty"`
	Seconds    float64  `json:"seconds"` // wall time (merged: the longest shard)
	Scripts    int      `json:"scripts"`
	Ops        int      `json:"ops"`
	// Swarms are the distinct swarm configurations drawn.
	Swarms int `json:"swarms"`
	// Planned are the scripts played under a drawn rollout plan, Rollouts
	// the distinct plans.
	Planned  int `json:"planned,omitempty"`
	Rollouts int `json:"rollouts,omitempty"`
	// Shapes counts the scripts that have each shape of gen.Tally.
	Shapes   map[string]int `json:"shapes"`
	Findings int            `json:"findings"`
	// Failures are the distinct failures: two shards that find the same
	// one count it once.
	Failures   int         `json:"failures"`
	Errors     int         `json:"errors"`
	Properties []PropStats `json:"properties"`
	// LeftOut is what the comparisons leave out for the implementation
	// hunted (its unmodelled keys, the views it does not return:
	// protocol.About.LeftOut), which the verdict says.
	LeftOut []string `json:"left_out,omitempty"`
	// Stopped: a shard ended at its first distinct failure (Config.Stop).
	Stopped bool `json:"stopped,omitempty"`
	// The keys of what Swarms, Rollouts and Failures count (swarm
	// configurations and plans by setKey, failures by their key): the
	// merge of shards counts the distinct ones of the whole campaign, so
	// that it does not depend on how the campaign was split. A summary
	// without them (an older one) adds its counts.
	SwarmKeys   []string `json:"swarm_keys,omitempty"`
	RolloutKeys []string `json:"rollout_keys,omitempty"`
	FailureKeys []string `json:"failure_keys,omitempty"`
}

// Summary is the report's summary record.
func (r *Report) Summary() Summary {
	s := Summary{Seed: r.Seed, Checks: r.Checks, MaxOps: r.MaxOps, Shard: r.ShardName(),
		Minutes: r.Budget.Minutes(), Iterations: r.Iterations, Seconds: r.Elapsed.Seconds(), Scripts: r.Scripts,
		Ops: r.Ops, Swarms: r.Swarms, Planned: r.Planned, Rollouts: r.Rollouts, Shapes: maps.Clone(r.Shapes), Findings: r.Findings, Failures: len(r.Failures), Errors: len(r.Errors),
		Properties: slices.Clone(r.Props), LeftOut: r.LeftOut, Stopped: r.Stopped, SwarmKeys: r.SwarmKeys, RolloutKeys: r.RolloutKeys}
	for _, f := range r.Failures {
		s.FailureKeys = append(s.FailureKeys, f.Key)
	}
	slices.Sort(s.FailureKeys)
	return s
}

// Merge adds up the summaries of shards of one campaign (the same seed,
// checks and script lengths) and reports whether they are every shard
// exactly once.
func Merge(sums []Summary) (merged Summary, complete bool, err error) {
	if len(sums) == 0 {
		return Summary{}, false, fmt.Errorf("hunt: no summaries to merge")
	}
	first := sums[0]
	merged = Summary{Seed: first.Seed, Checks: first.Checks, MaxOps: first.MaxOps, Minutes: first.Minutes,
		Iterations: first.Iterations, Shapes: map[string]int{}, Properties: zeroed(first.Properties), LeftOut: first.LeftOut}
	for _, s := range sums {
		if s.Seed != first.Seed || s.Checks != first.Checks || s.MaxOps != first.MaxOps {
			return Summary{}, false, fmt.Errorf("hunt: merging campaigns seed %d %q max_ops %d and seed %d %q max_ops %d",
				first.Seed, first.Checks, first.MaxOps, s.Seed, s.Checks, s.MaxOps)
		}
		if !slices.Equal(s.LeftOut, first.LeftOut) {
			return Summary{}, false, fmt.Errorf("hunt: merging campaigns that left out of the comparison %q and %q", first.LeftOut, s.LeftOut)
		}
		shards := s.Merged
		if len(shards) == 0 {
			shards = []string{s.Shard}
		}
		merged.Merged = append(merged.Merged, shards...)
		if err := merged.add(s); err != nil {
			return Summary{}, false, err
		}
	}
	slices.Sort(merged.Merged)
	merged.Shard = fmt.Sprintf("merged %d", len(merged.Merged))
	merged.distinct(sums)
	return merged, len(shard.Coverage(merged.Merged)) == 0, nil
}

// distinct counts what the shards' keys say is distinct over the whole
// campaign: the union of their keys, plus the counts of summaries that
// carry none (add summed the counts; this replaces them).
func (s *Summary) distinct(sums []Summary) {
	var sw, ro, fa keyUnion
	rowSw, rowFa := make([]keyUnion, len(s.Properties)), make([]keyUnion, len(s.Properties))
	for _, t := range sums {
		sw.add(t.SwarmKeys, t.Swarms)
		ro.add(t.RolloutKeys, t.Rollouts)
		fa.add(t.FailureKeys, t.Failures)
		for i, p := range t.Properties {
			rowSw[i].add(p.SwarmKeys, p.Swarms)
			rowFa[i].add(p.FailureKeys, p.Failures)
		}
	}
	s.SwarmKeys, s.Swarms = sw.result()
	s.RolloutKeys, s.Rollouts = ro.result()
	s.FailureKeys, s.Failures = fa.result()
	for i := range s.Properties {
		q := &s.Properties[i]
		q.SwarmKeys, q.Swarms = rowSw[i].result()
		q.FailureKeys, q.Failures = rowFa[i].result()
	}
}

// keyUnion is the union of shards' keys of one count, and the counts of
// the shards that carry no keys for it.
type keyUnion struct {
	keys    []string
	keyless int
}

// add adds one shard's keys, or its count when it carries none.
func (u *keyUnion) add(keys []string, count int) {
	if keys == nil {
		u.keyless += count
		return
	}
	u.keys = append(u.keys, keys...)
}

// result is the distinct keys, sorted (nil when none), and their count.
func (u *keyUnion) result() ([]string, int) {
	slices.Sort(u.keys)
	keys := slices.Compact(u.keys)
	if len(keys) == 0 {
		keys = nil
	}
	return keys, len(keys) + u.keyless
}

func (s *Summary) add(t Summary) error {
	s.Seconds = max(s.Seconds, t.Seconds)
	s.Scripts += t.Scripts
	s.Ops += t.Ops
	s.Swarms += t.Swarms
	s.Planned += t.Planned
	s.Rollouts += t.Rollouts
	for k, v := range t.Shapes {
		s.Shapes[k] += v
	}
	s.Findings += t.Findings
	s.Failures += t.Failures
	s.Errors += t.Errors
	s.Stopped = s.Stopped || t.Stopped
	if len(t.Properties) != len(s.Properties) {
		return fmt.Errorf("hunt: merging summaries of %d and %d properties", len(s.Properties), len(t.Properties))
	}
	for i, p := range t.Properties {
		q := &s.Properties[i]
		if p.Check != q.Check || p.Data != q.Data {
			return fmt.Errorf("hunt: merging property %s [%s] into %s [%s]", p.Check, p.Data, q.Check, q.Data)
		}
		q.Scripts += p.Scripts
		q.Swarms += p.Swarms
		q.Ops += p.Ops
		q.Findings += p.Findings
		q.Failures += p.Failures
		q.Known += p.Known
		q.Seconds += p.Seconds
	}
	return nil
}

// zeroed is the rows with their counts at zero.
func zeroed(rows []PropStats) []PropStats {
	out := make([]PropStats, len(rows))
	for i, p := range rows {
		out[i] = PropStats{Check: p.Check, Data: p.Data}
	}
	return out
}

// Failed reports whether the run (or any merged shard) found a failure or
// met an error.
func (s Summary) Failed() bool { return s.Failures > 0 || s.Errors > 0 }

// Verdict is the campaign's: fail when it found a failure; undecided when
// a script could not be judged (an error) or none was; else a pass of the
// scripts it played — for one shard, of that shard only: the verdict on
// the whole campaign is the merge's (sessiondag summary).
func (s Summary) Verdict() verdict.Verdict {
	v := s.verdict()
	if note := protocol.LeftOutNote(s.LeftOut); note != "" {
		v.Reasons = append(v.Reasons, note)
	}
	return v
}

func (s Summary) verdict() verdict.Verdict {
	var failed, undecided []string
	if s.Failures > 0 {
		failed = append(failed, fmt.Sprintf("%d distinct failures", s.Failures))
	}
	if s.Errors > 0 {
		undecided = append(undecided, fmt.Sprintf("%d scripts could not be judged (errors)", s.Errors))
	}
	if s.Scripts == 0 {
		undecided = append(undecided, "no script was judged")
	}
	v := verdict.Of(failed, undecided)
	switch {
	case !v.Passed():
		return v
	case s.Shard != "0/1" && len(s.Merged) == 0:
		return verdict.PassBecause(fmt.Sprintf("no failure in %s of shard %s; the verdict on the whole campaign is the merge of every shard (sessiondag summary)", plural(int(s.Scripts), "script"), s.Shard))
	}
	return verdict.PassBecause("no failure in " + plural(int(s.Scripts), "script"))
}

// Text writes the summary for a reader: the counts per property. The
// failures themselves are in the failure records and their files.
func (s Summary) Text(w io.Writer) {
	fmt.Fprintf(w, "hunt: seed %d, checks %s, scripts of 1 to %d ops, shard %s, %.2fs\n", s.Seed, s.Checks, s.MaxOps, s.Shard, s.Seconds)
	fmt.Fprintf(w, "%d scripts, %d ops applied, %d swarm configurations, %d scripts under %d rollout plans\n\n",
		s.Scripts, s.Ops, s.Swarms, s.Planned, s.Rollouts)
	propsTable(w, s.Properties)
	fmt.Fprintf(w, "\n%d distinct failures (one two shards find counts once), %d errors\n",
		s.Failures, s.Errors)
	fmt.Fprintf(w, "\n%s\n", s.Verdict().Line())
}
