package audit

import (
	"fmt"
	"slices"
	"strings"

	"sessiondag/audit/reconstruct"
)

// ReconstructTotals count the sessions without an op script by what
// reconstruct made of them.
type ReconstructTotals struct {
	Reconstructed int `json:"reconstructed"`
	Exact         int `json:"exact"` // of the reconstructed, those byte for byte
	Ambiguous     int `json:"ambiguous"`
	Undecided     int `json:"undecided"`
	Unexplained   int `json:"unexplained"`
}

func (t *ReconstructTotals) add(r *Reconstruction) {
	if r == nil {
		return
	}
	switch r.Verdict {
	case reconstruct.Reconstructed:
		t.Reconstructed++
		if r.Exact {
			t.Exact++
		}
	case reconstruct.Ambiguous:
		t.Ambiguous++
	case reconstruct.Undecided:
		t.Undecided++
	default:
		t.Unexplained++
	}
}

func (t *ReconstructTotals) merge(o ReconstructTotals) {
	t.Reconstructed += o.Reconstructed
	t.Exact += o.Exact
	t.Ambiguous += o.Ambiguous
	t.Undecided += o.Undecided
	t.Unexplained += o.Unexplained
}

// Sessions is how many sessions were reconstructed at all.
func (t ReconstructTotals) Sessions() int {
	return t.Reconstructed + t.Ambiguous + t.Undecided + t.Unexplained
}

// ProofTotals count the sessions whose script is known (an op script, a
// reconstruction, an ambiguous one's reading) by where the script lies
// against what was checked: of a size and kinds exhaust walked whole, or
// outside (each listed with why, in the sorted order of the directories); and those with a shape the suite
// does not require every run to reach.
type ProofTotals struct {
	Placed     int       `json:"placed"`
	Walked     int       `json:"walked"`
	Outside    []Outside `json:"outside"`
	Unrequired int       `json:"with_shapes_not_required"`
}

// Outside is a session whose script lies outside what exhaust walked
// whole, and why.
type Outside struct {
	Dir string `json:"dir"`
	Why string `json:"why"`
}

func (t *ProofTotals) add(s *Session) {
	p := s.Proof
	if p == nil {
		return
	}
	t.Placed++
	if p.Walked {
		t.Walked++
	} else {
		t.Outside = append(t.Outside, Outside{s.Dir, p.Why}) // sessions come in sorted order
	}
	if len(p.Unrequired) > 0 {
		t.Unrequired++
	}
}

func (t *ProofTotals) merge(o ProofTotals) {
	t.Placed += o.Placed
	t.Walked += o.Walked
	t.Unrequired += o.Unrequired
	t.Outside = append(t.Outside, o.Outside...)
	slices.SortStableFunc(t.Outside, func(a, b Outside) int { return strings.Compare(a.Dir, b.Dir) })
}

// Shares says, of every session audited, what share is of shapes walked
// whole, what share is outside, and what share has no known script (no op
// script, not reconstructed or read ambiguously), in whole percent.
// It is "" when the run placed nothing and reconstructed nothing (shards
// written before either, or none to place).
func (sum *Summary) Shares() string {
	if sum.Sessions == 0 || sum.Proof.Placed == 0 && sum.Reconstruct.Sessions() == 0 {
		return ""
	}
	pct := func(n int) int { return (100*n + sum.Sessions/2) / sum.Sessions }
	p := sum.Proof
	return fmt.Sprintf("%d %% of sessions of shapes walked exhaustively, %d %% outside: listed, %d %% with no known script",
		pct(p.Walked), pct(p.Placed-p.Walked), pct(sum.Sessions-p.Placed))
}
