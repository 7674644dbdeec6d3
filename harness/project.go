package harness

import (
	"sessiondag/impl/adapter"
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
