package main

import (
	"encoding/json"
	"fmt"
	"io"

	"sessiondag/hunt"
)

// huntMerger merges `sessiondag hunt --json` summaries: the shards of one
// campaign.
type huntMerger struct{ sums []hunt.Summary }

func (m *huntMerger) Merge(raw json.RawMessage) error {
	var s hunt.Summary
	if err := json.Unmarshal(raw, &s); err != nil {
		return fmt.Errorf("hunt summary: %w", err)
	}
	if _, _, err := hunt.Merge(append(m.sums, s)); err != nil {
		return err
	}
	m.sums = append(m.sums, s)
	return nil
}

func (m *huntMerger) merged() (hunt.Summary, bool) {
	s, complete, _ := hunt.Merge(m.sums) // each summary was checked as it came
	return s, complete
}

func (m *huntMerger) Text(w io.Writer) { s, _ := m.merged(); s.Text(w) }
func (m *huntMerger) Value() any       { s, _ := m.merged(); return s }
func (m *huntMerger) Failed() bool     { s, _ := m.merged(); return s.Failed() }

func (m *huntMerger) Problems() []string {
	if s, complete := m.merged(); !complete {
		return []string{fmt.Sprintf("shards %v are not every shard of the campaign exactly once", s.Merged)}
	}
	return nil
}
