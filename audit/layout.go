package audit

import (
	"sessiondag/impl/webui"
)

// Column is one config's chain laid out for the page: every row of a short
// chain; of a long one the rows around each change and at both ends, the
// runs between folded.
type Column struct {
	Flags    string
	Rows     int
	Fallback bool
	Verdict  string // of the step into this config ("" for the first)
	Items    []Item
}

// Item is a shown row or a fold of rows.
type Item struct {
	Row  Row
	Mark string // "add": the step into this config added it; "del": the next step removes it
	Fold *Fold
}

// Fold is a run of unchanged rows of a long chain: the first of them
// listed, the rest only counted.
type Fold struct {
	Count int
	Rows  []Item
	More  int // rows neither shown nor listed
}

// Layout limits: a chain up to longChain rows is shown whole; a longer one
// keeps context rows either side of a change and ends rows at each end, and
// a fold lists at most foldRows rows, so a session of any size gives a page
// of bounded size.
const (
	longChain   = 40
	contextRows = 2
	ends        = 3
	foldRows    = 100
	// maxShown bounds the rows kept out of folds, so that a step that
	// changes every row of a long chain still gives a bounded column.
	maxShown = 120
)

// layout lays out the chains of every config of the rollout path, marking
// the rows each step adds and removes.
func layout(loads []*webui.Loaded, steps []Step) []Column {
	cols := make([]Column, len(loads))
	for i, l := range loads {
		var added, removed map[string]bool
		c := Column{Flags: steps0(steps, i), Rows: len(l.Chain), Fallback: l.FallbackUsed}
		if i > 0 {
			c.Verdict = steps[i-1].Verdict
			added = idsOf(steps[i-1].Added)
		}
		if i < len(steps) {
			removed = idsOf(steps[i].Removed)
		}
		items := make([]Item, len(l.Chain))
		for j, m := range l.Chain {
			items[j] = Item{Row: rowOf(m)}
			switch {
			case added[m.ID]:
				items[j].Mark = "add"
			case removed[m.ID]:
				items[j].Mark = "del"
			}
		}
		c.Items = fold(items)
		cols[i] = c
	}
	return cols
}

// steps0 is config i's flags as the steps name them.
func steps0(steps []Step, i int) string {
	if i == 0 {
		return steps[0].From
	}
	return steps[i-1].To
}

func idsOf(rows []Row) map[string]bool {
	out := make(map[string]bool, len(rows))
	for _, r := range rows {
		out[r.ID] = true
	}
	return out
}

// fold keeps every item of a short chain; of a long one the ends and the
// items near a marked one, folding each run of the others.
func fold(items []Item) []Item {
	if len(items) <= longChain {
		return items
	}
	keep := make([]bool, len(items))
	for i := range items {
		if i < ends || i >= len(items)-ends {
			keep[i] = true
		}
		if items[i].Mark != "" {
			for j := max(0, i-contextRows); j <= min(len(items)-1, i+contextRows); j++ {
				keep[j] = true
			}
		}
	}
	shown := 0
	for i := range keep {
		if keep[i] && i < len(items)-ends {
			if shown == maxShown-ends {
				keep[i] = false
				continue
			}
			shown++
		}
	}
	var out []Item
	for i := 0; i < len(items); {
		if keep[i] {
			out = append(out, items[i])
			i++
			continue
		}
		j := i
		for j < len(items) && !keep[j] {
			j++
		}
		f := &Fold{Count: j - i, Rows: append([]Item(nil), items[i:min(j, i+foldRows)]...)}
		f.More = f.Count - len(f.Rows)
		out = append(out, Item{Fold: f})
		i = j
	}
	return out
}
