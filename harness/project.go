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

// Distance counts how far a projected chain is from the intended one: rows
// missing, rows that should not be there, rows shown differently (kind or
// folded calls), and one more if the shared rows are out of order. Zero
// means the view is exactly the intended conversation.
func Distance(got, want []model.TargetRow) int {
	wantAt := make(map[string]int, len(want))
	for i, r := range want {
		wantAt[r.ID] = i
	}
	gotIDs := make(map[string]bool, len(got))
	d, last, ordered := 0, -1, true
	for _, r := range got {
		gotIDs[r.ID] = true
		i, ok := wantAt[r.ID]
		if !ok {
			d++ // a row of another branch, or one that should be folded
			continue
		}
		if !sameRow(r, want[i]) {
			d++
		}
		if i < last {
			ordered = false
		}
		last = i
	}
	for _, r := range want {
		if !gotIDs[r.ID] {
			d++ // a row the user should see and does not
		}
	}
	if !ordered {
		d++
	}
	return d
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
