package main

import (
	"encoding/json"
	"fmt"
	"io"

	"sessiondag/checker/exhaust"
	"sessiondag/checker/hunt"
	"sessiondag/internal/shard"
	"sessiondag/internal/verdict"
)

// shardSummary is a summary record of a sharded search (hunt, exhaust).
type shardSummary interface {
	Text(w io.Writer)
	Verdict() verdict.Verdict
}

// shardMerger merges the summaries of the shards of one run of a sharded
// search: each summary is checked against the others as it comes, and the
// merged one says whether every shard came exactly once.
type shardMerger[S shardSummary] struct {
	kind   string                     // the command, for errors
	unit   string                     // what the shards split: a run, a campaign
	merge  func([]S) (S, bool, error) // the package's Merge
	shards func(S) []string           // the shards a merged summary adds up
	sums   []S
	// The merge of sums, made once they are all read.
	done     bool
	last     S
	complete bool
}

func newHuntMerger() summaryMerger {
	return &shardMerger[hunt.Summary]{kind: hunt.Kind, unit: "campaign", merge: hunt.Merge,
		shards: func(s hunt.Summary) []string { return s.Merged }}
}

func newExhaustMerger() summaryMerger {
	return &shardMerger[exhaust.Summary]{kind: exhaust.Kind, unit: "run", merge: exhaust.Merge,
		shards: func(s exhaust.Summary) []string { return s.Merged }}
}

func (m *shardMerger[S]) Merge(raw json.RawMessage) error {
	var s S
	if err := json.Unmarshal(raw, &s); err != nil {
		return fmt.Errorf("%s summary: %w", m.kind, err)
	}
	// The package's Merge checks every summary against the first: doing
	// that for each as it comes keeps the reading linear in the records.
	check := []S{s}
	if len(m.sums) > 0 {
		check = []S{m.sums[0], s}
	}
	if _, _, err := m.merge(check); err != nil {
		return err
	}
	m.sums = append(m.sums, s)
	m.done = false
	return nil
}

func (m *shardMerger[S]) merged() (S, bool) {
	if !m.done {
		m.last, m.complete, _ = m.merge(m.sums) // each summary was checked as it came
		m.done = true
	}
	return m.last, m.complete
}

func (m *shardMerger[S]) Text(w io.Writer)         { s, _ := m.merged(); s.Text(w) }
func (m *shardMerger[S]) Value() any               { s, _ := m.merged(); return s }
func (m *shardMerger[S]) Verdict() verdict.Verdict { s, _ := m.merged(); return s.Verdict() }

func (m *shardMerger[S]) Problems() []string {
	s, complete := m.merged()
	if complete {
		return nil
	}
	// What is wrong, not every name given: a claimed run has thousands of
	// parts, and a list of those present hides the one that is missing.
	var out []string
	for _, p := range shard.Coverage(m.shards(s)) {
		out = append(out, fmt.Sprintf("not every shard of the %s exactly once: %s", m.unit, p))
	}
	return out
}
