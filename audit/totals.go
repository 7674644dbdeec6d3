package audit

import (
	"fmt"
	"slices"
	"sort"

	"sessiondag/internal/shard"
)

// ResidualTotals count residual rows by cause over many sessions.
type ResidualTotals struct {
	// Intended: sessions with an op script, the intended rows the last
	// config does not show.
	Intended []CauseTotal `json:"intended"`
	// Unshown: sessions without one, the conversation rows no config shows.
	Unshown []CauseTotal `json:"unshown"`
}

// CauseTotal is one cause: how many rows, in how many sessions, and an
// example (the first session in sorted order, so that merged shards name
// the same one as a single run).
type CauseTotal struct {
	Cause    string `json:"cause"`
	Text     string `json:"text"`
	Rows     int    `json:"rows"`
	Sessions int    `json:"sessions"`
	// MissingAtR counts the rows R (flags off) did not show either.
	MissingAtR int    `json:"missing_at_r"`
	Example    string `json:"example"`
	ExampleRow string `json:"example_row"`
	ExampleBy  string `json:"example_by,omitempty"`
}

// addResidual counts a session's residual rows into totals.
func addResidual(totals []CauseTotal, s *Session) []CauseTotal {
	var mine []CauseTotal
	at := map[string]int{}
	for _, r := range s.Residual {
		i, ok := at[r.Cause]
		if !ok {
			i = len(mine)
			at[r.Cause] = i
			mine = append(mine, CauseTotal{Cause: r.Cause, Text: CauseText(r.Cause), Sessions: 1,
				Example: s.Dir, ExampleRow: r.Row.ID, ExampleBy: r.By})
		}
		mine[i].Rows++
		if !r.AtR {
			mine[i].MissingAtR++
		}
	}
	return mergeCauses(totals, mine)
}

// mergeCauses adds the totals b into a, by cause; the result is ordered by
// rows, most first, then by cause.
func mergeCauses(a, b []CauseTotal) []CauseTotal {
	at := map[string]int{}
	for i, c := range a {
		at[c.Cause] = i
	}
	for _, c := range b {
		i, ok := at[c.Cause]
		if !ok {
			at[c.Cause] = len(a)
			a = append(a, c)
			continue
		}
		t := &a[i]
		t.Rows += c.Rows
		t.Sessions += c.Sessions
		t.MissingAtR += c.MissingAtR
		if c.Example < t.Example {
			t.Example, t.ExampleRow, t.ExampleBy = c.Example, c.ExampleRow, c.ExampleBy
		}
	}
	sort.SliceStable(a, func(i, j int) bool {
		if a[i].Rows != a[j].Rows {
			return a[i].Rows > a[j].Rows
		}
		return a[i].Cause < a[j].Cause
	})
	return a
}

// Merge adds the summary of another, disjoint part of a run: counts add,
// each cause keeps the example that comes first in sorted order, times
// add up.
func (sum *Summary) Merge(o *Summary) error {
	if len(o.Steps) != len(sum.Steps) {
		return fmt.Errorf("audit summary: %d rollout steps, expected %d", len(o.Steps), len(sum.Steps))
	}
	for i, st := range o.Steps {
		t := &sum.Steps[i]
		if st.From != t.From || st.To != t.To {
			return fmt.Errorf("audit summary: step %d is %s → %s, expected %s → %s", i, st.From, st.To, t.From, t.To)
		}
		t.Unchanged += st.Unchanged
		t.Fix += st.Fix
		t.Regression += st.Regression
		t.Unjudged += st.Unjudged
		t.Accepted += st.Accepted
	}
	sum.Accepted += o.Accepted
	sum.Exceptions = mergeUses(sum.Exceptions, o.Exceptions)
	switch {
	case sum.Found == 0:
		sum.Found = o.Found
	case o.Found != sum.Found:
		sum.TreeProblems = append(sum.TreeProblems, fmt.Sprintf("the shards walked different trees: %d and %d session directories", sum.Found, o.Found))
	}
	sum.TreeProblems = union(sum.TreeProblems, o.TreeProblems)
	sum.TreeNotes = union(sum.TreeNotes, o.TreeNotes)
	sum.Sessions += o.Sessions
	sum.Nodes += o.Nodes
	sum.Broken += o.Broken
	sum.Violations += o.Violations
	sum.Regressions += o.Regressions
	sum.HiddenUsers += o.HiddenUsers
	sum.MovedUsers += o.MovedUsers
	sum.Intended += o.Intended
	sum.Seconds += o.Seconds
	for k, v := range o.ChainTotals {
		sum.ChainTotals[k] += v
	}
	sum.Reconstruct.merge(o.Reconstruct)
	sum.Proof.merge(o.Proof)
	sum.Residual.Intended = mergeCauses(sum.Residual.Intended, o.Residual.Intended)
	sum.Residual.Unshown = mergeCauses(sum.Residual.Unshown, o.Residual.Unshown)
	switch {
	case len(o.Shards) > 0:
		sum.Shards = append(sum.Shards, o.Shards...)
	case o.Shard != "":
		sum.Shards = append(sum.Shards, o.Shard)
	default:
		sum.Shards = append(sum.Shards, shard.Whole.String()) // a whole run is the one shard of its split
	}
	sort.Strings(sum.Shards)
	return nil
}

// union is a and b sorted, each string once.
func union(a, b []string) []string {
	out := append(slices.Clone(a), b...)
	slices.Sort(out)
	return slices.Compact(out)
}

// Stale are the exceptions that match no finding: of a session the run
// audited, or any once the run (or the merge) is whole.
func (sum *Summary) Stale() []ExceptionUse {
	whole := sum.Shard == "" && len(sum.ShardProblems()) == 0
	var out []ExceptionUse
	for _, u := range sum.Exceptions {
		if u.Stale(whole) {
			out = append(out, u)
		}
	}
	return out
}

// ShardProblems says what is wrong with the set of shards merged into a
// summary (shard.Coverage): shards of different splits, a shard merged
// twice or missing.
func (sum *Summary) ShardProblems() []string {
	if len(sum.Shards) == 0 {
		return nil
	}
	return shard.Coverage(sum.Shards)
}

// Problems says why a run is no verdict on the whole tree, whatever its
// sessions show: nothing found, a directory the walk could not read, a
// merge of shards that is not every shard once, or a whole run that did
// not audit every session the walk found.
func (sum *Summary) Problems() []string {
	var out []string
	if sum.Found == 0 {
		out = append(out, "no session directory was found")
	}
	for _, p := range sum.TreeProblems {
		out = append(out, "unreadable: "+p)
	}
	out = append(out, sum.ShardProblems()...)
	if sum.Shard == "" && sum.Sessions != sum.Found && len(sum.ShardProblems()) == 0 {
		out = append(out, fmt.Sprintf("%d of the %d session directories found were audited", sum.Sessions, sum.Found))
	}
	return out
}
