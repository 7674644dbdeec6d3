package audit

import "sessiondag/internal/verdict"

// Kind names the audit's JSON lines. Every command that prints JSON lines
// tags each with the command that made it, so that `sessiondag summary`
// can merge the summaries of several commands and shards read together.
const Kind = "audit"

// Record is one JSON line of `sessiondag audit --json`: a session, or the
// summary that ends the run (or a shard of it). Summary records of
// disjoint shards merge by concatenating the lines (Summary.Merge).
type Record struct {
	Kind    string   `json:"kind"`
	Session *Session `json:"session,omitempty"`
	Summary *Summary `json:"summary,omitempty"`
	// Verdict is the summary's (Summary.Verdict), beside it so that the
	// JSON lines say what the text report's last line and the page's title
	// say; `sessiondag summary` merges the summaries and gives its own.
	Verdict *verdict.Verdict `json:"verdict,omitempty"`
}
