package main

import (
	"encoding/json"
	"fmt"
	"io"

	"sessiondag/exhaust"
)

// exhaustMerger merges `sessiondag exhaust --json` summaries: the shards of
// one run.
type exhaustMerger struct{ sums []exhaust.Summary }

func (m *exhaustMerger) Merge(raw json.RawMessage) error {
	var s exhaust.Summary
	if err := json.Unmarshal(raw, &s); err != nil {
		return fmt.Errorf("exhaust summary: %w", err)
	}
	if _, _, err := exhaust.Merge(append(m.sums, s)); err != nil {
		return err
	}
	m.sums = append(m.sums, s)
	return nil
}

func (m *exhaustMerger) merged() (exhaust.Summary, bool) {
	s, complete, _ := exhaust.Merge(m.sums) // each summary was checked as it came
	return s, complete
}

func (m *exhaustMerger) Text(w io.Writer) { s, _ := m.merged(); s.Text(w) }
func (m *exhaustMerger) Value() any       { s, _ := m.merged(); return s }
func (m *exhaustMerger) Failed() bool     { s, _ := m.merged(); return s.Failed() }

func (m *exhaustMerger) Problems() []string {
	if s, complete := m.merged(); !complete {
		return []string{fmt.Sprintf("shards %v are not every shard of the run exactly once", s.Merged)}
	}
	return nil
}
