package audit

import (
	"fmt"
	"strings"

	"sessiondag/audit/reconstruct"
	"sessiondag/audit/reconstruct/proof"
	"sessiondag/ops"
)

// Reconstruction is what reconstruct made of a session without an op
// script: reconstructed (its script then gives the intended view, as a
// session.ops would), ambiguous (another reading means another
// conversation: judged without a script), undecided, or unexplained (with
// its first row).
type Reconstruction struct {
	Verdict string   `json:"verdict"`
	Exact   bool     `json:"exact,omitempty"`
	Gaps    []string `json:"gaps,omitempty"` // each class with its count: "timing 12"
	Ops     int      `json:"ops"`
	// Alternatives are the other readings (what differs, and why the data
	// allows it); Open the places no reading was built for.
	Alternatives []string `json:"alternatives,omitempty"`
	Open         []string `json:"open,omitempty"`
	First        string   `json:"first,omitempty"` // the first unexplained row and why
	Disagree     string   `json:"writers_disagree,omitempty"`
}

// reconstructed reconstructs a session without an op script: the summary,
// the script when it is the only reading, and the script to place against
// the proof (any reading's, since they differ only in where a browser op
// stands).
func reconstructed(dir string) (*Reconstruction, []ops.Op, []ops.Op) {
	res, err := reconstruct.Path(dir)
	if err != nil {
		return &Reconstruction{Verdict: reconstruct.Unexplained, First: err.Error()}, nil, nil
	}
	r := &Reconstruction{Verdict: res.Verdict, Exact: res.Exact, Ops: len(res.Script), Open: res.Open, Disagree: res.Disagree}
	for _, g := range res.Gaps {
		r.Gaps = append(r.Gaps, fmt.Sprintf("%s %d", g.Class, g.Count))
	}
	for _, a := range res.Alternatives {
		r.Alternatives = append(r.Alternatives, a.Change+": "+a.Reason)
	}
	switch res.Verdict {
	case reconstruct.Unexplained:
		r.First = firstRow(res.First)
		return r, nil, nil
	case reconstruct.Reconstructed:
		return r, res.Script, res.Script
	}
	return r, nil, res.Script
}

// place places a known script against the proof.
func place(script []ops.Op) *proof.Placement {
	if script == nil {
		return nil
	}
	p := proof.Place(script)
	return &p
}

// firstRow is the first unexplained row in a line: the file and row, the
// field with both values and the op that writes it, why.
func firstRow(f *reconstruct.FirstRow) string {
	var b strings.Builder
	b.WriteString(f.File)
	if f.ID != "" {
		fmt.Fprintf(&b, " (row %s)", f.ID)
	}
	if f.Field != "" {
		fmt.Fprintf(&b, " field %s: stored %s, written %s", f.Field, f.Stored, f.Written)
		if f.Op != "" {
			fmt.Fprintf(&b, " by `%s`", f.Op)
		}
	}
	return b.String() + ": " + f.Why
}
