package harness

import (
	"fmt"

	"sessiondag/impl/adapter"
	"sessiondag/impl/webui"
	"sessiondag/model"
)

// Project reduces a loaded chain to what model.Target describes: each row's
// id, whether it is a runtime card, and the ids of the calls folded into it.
func Project(chain []*adapter.Message) []model.TargetRow {
	out := make([]model.TargetRow, 0, len(chain))
	for _, m := range chain {
		row := model.TargetRow{ID: m.ID, Kind: "row"}
		if m.Get("type").Str() == "status" && m.Get("display").Str() == "runtime" && m.Get("context_tree").IsSet() {
			row.Kind = "card"
		}
		for _, c := range m.Get("tool_calls").A {
			row.Calls = append(row.Calls, c.O.Get("tool_call_id").Str())
		}
		out = append(out, row)
	}
	return out
}

// SameChain reports whether two projected chains show the same rows, in
// the same order, shown the same way.
func SameChain(a, b []model.TargetRow) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].ID != b[i].ID || !sameRow(a[i], b[i]) {
			return false
		}
	}
	return true
}

func sameRow(a, b model.TargetRow) bool {
	if a.Kind != b.Kind || len(a.Calls) != len(b.Calls) {
		return false
	}
	for i := range a.Calls {
		if a.Calls[i] != b.Calls[i] {
			return false
		}
	}
	return true
}

// Projected is a load reduced to what model.Target describes.
func Projected(l *webui.Loaded) model.TargetView {
	return model.TargetView{HeadID: l.HeadID.ID(), Chain: Project(l.Chain)}
}

// SameView reports whether two projected views show the same head and chain.
func SameView(a, b model.TargetView) bool {
	return a.HeadID == b.HeadID && SameChain(a.Chain, b.Chain)
}

// RowIDs renders projected rows for a report: id, "(card)" for a card, the
// folded calls in brackets.
func RowIDs(rows []model.TargetRow) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = r.ID
		if r.Kind == "card" {
			out[i] += "(card)"
		}
		if len(r.Calls) > 0 {
			out[i] += fmt.Sprintf("%v", r.Calls)
		}
	}
	return out
}

// describe renders a load for a report: head, fallback, projected chain.
func describe(l *webui.Loaded) string {
	v := Projected(l)
	fb := ""
	if l.FallbackUsed {
		fb = " (get_branch fallback)"
	}
	return fmt.Sprintf("head %s%s chain %v", v.HeadID, fb, RowIDs(v.Chain))
}
