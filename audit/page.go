package audit

import (
	"embed"
	"fmt"
	"html/template"
	"io"
	"slices"
	"sort"
	"strings"
)

//go:embed page.html
var pageFS embed.FS

var pageTmpl = template.Must(template.New("page.html").Funcs(template.FuncMap{
	"clean": clean,
	"add_":  func(a, b int) int { return a + b },
	"map_": func(page any, causes []CauseTotal) map[string]any {
		return map[string]any{"Page": page, "Causes": causes}
	},
	"list_": func(rows []Row, more int) map[string]any { return map[string]any{"Rows": rows, "More": more} },
	"went":  func(p *Place) string { return clean(p.String()) },
}).ParseFS(pageFS, "page.html"))

// Page collects audited sessions for one self-contained HTML page (inline
// CSS, no script, no external resource) whose size grows with what needs a
// look, not with the store: first the sessions that block the rollout, then
// those at risk (a step moves a user's message to another branch, or a
// reviewed exception accepts a finding), each with its steps, the rows they
// remove and where those went, and its chains under the five configs; a
// link to each from the top of the page. Sessions a step fixes get one line
// each (at most pageFixes), sessions no step changes only a count. Sessions
// must be audited with Options.Columns.
type Page struct {
	look      []pageSession // blocking and at risk, in full
	fixes     []pageFix
	moreFixes int
	unchanged int
}

// pageSession is what the page shows of a session that needs a look, cut to
// a bounded size.
type pageSession struct {
	Anchor, Dir, ID, Status, Error string
	Nodes                          int
	rank                           int
	Open                           bool
	Steps                          []pageStep
	Residual                       []Residue
	MoreResidual                   int
	Violations, Notes              []string
	Columns                        []Column
}

type pageStep struct {
	From, To, Verdict, Detail string
	Added, Removed            []Row
	MoreAdded, MoreRemoved    int
	Accepted                  []Acceptance
}

// pageFix is the line of a session whose steps only fix.
type pageFix struct {
	Dir, Steps string
}

// Page limits: how many rows of a list (a step's added rows, a session's
// residual) the page names, and how many fixed sessions it lists; the JSON
// output has them all.
const (
	pageList  = 50
	pageFixes = 500
)

// Add takes a session for the page.
func (p *Page) Add(s *Session) {
	status, rank := status(s)
	switch rank {
	case rankFix:
		if len(p.fixes) == pageFixes {
			p.moreFixes++
			return
		}
		p.fixes = append(p.fixes, pageFix{Dir: clean(s.Dir), Steps: clean(fixSteps(s))})
		return
	case rankUnchanged:
		p.unchanged++
		return
	}
	ps := pageSession{Dir: clean(s.Dir), ID: clean(s.ID), Nodes: s.Nodes, Error: clean(s.Error), Status: status, rank: rank,
		Open: rank == rankBlocking, Violations: cleanAll(append(slices.Clone(s.Unreadable), s.Violations...)),
		Notes: cleanAll(s.Notes), Columns: cleanColumns(s.Columns)}
	for _, st := range s.Steps {
		if st.Verdict == Unchanged {
			continue
		}
		pst := pageStep{From: st.From, To: st.To, Verdict: st.Verdict, Detail: clean(st.Detail), Accepted: st.Accepted}
		pst.Added, pst.MoreAdded = cut(cleanRows(st.Added))
		pst.Removed, pst.MoreRemoved = cut(cleanRows(st.Removed))
		ps.Steps = append(ps.Steps, pst)
	}
	ps.Residual, ps.MoreResidual = cutResidual(s.Residual)
	ps.Residual = slices.Clone(ps.Residual)
	for i := range ps.Residual {
		ps.Residual[i].Row = cleanRow(ps.Residual[i].Row)
		ps.Residual[i].By = clean(ps.Residual[i].By)
	}
	p.look = append(p.look, ps)
}

// fixSteps says in a line what the steps of a fixed session change.
func fixSteps(s *Session) string {
	out := ""
	for _, st := range s.Steps {
		if st.Verdict == Unchanged {
			continue
		}
		if out != "" {
			out += "; "
		}
		out += fmt.Sprintf("%s → %s: %s", st.From, st.To, st.Detail)
	}
	return out
}

// Where a session goes on the page.
const (
	rankBlocking = iota
	rankAtRisk
	rankFix
	rankUnchanged
)

// status is a session's badge and its place on the page: what blocks the
// rollout, what is at risk, what a step fixes, the rest.
func status(s *Session) (string, int) {
	changed, accepted := false, false
	for _, st := range s.Steps {
		changed = changed || st.Verdict != Unchanged
		accepted = accepted || len(st.Accepted) > 0
	}
	switch {
	case s.Broken():
		return "broken", rankBlocking
	case s.HidesUser() && s.Failed():
		return "hides-user", rankBlocking
	case s.Failed() && len(s.Violations) > 0:
		return "violation", rankBlocking
	case s.Failed():
		return "regression", rankBlocking
	case s.MovesUser():
		return "moves-user", rankAtRisk
	case accepted:
		return "accepted", rankAtRisk
	case changed:
		return "fix", rankFix
	}
	return "unchanged", rankUnchanged
}

func cut(rows []Row) ([]Row, int) {
	if len(rows) <= pageList {
		return rows, 0
	}
	return rows[:pageList], len(rows) - pageList
}

func cutResidual(rs []Residue) ([]Residue, int) {
	if len(rs) <= pageList {
		return rs, 0
	}
	return rs[:pageList], len(rs) - pageList
}

func cleanRow(r Row) Row {
	r.ID, r.Role, r.Text, r.Function = clean(r.ID), clean(r.Role), clean(r.Text), clean(r.Function)
	return r
}

func cleanRows(rows []Row) []Row {
	out := make([]Row, len(rows))
	for i, r := range rows {
		out[i] = cleanRow(r)
	}
	return out
}

// cleanColumns is a copy of the laid-out chains with every row cleaned.
func cleanColumns(cols []Column) []Column {
	out := slices.Clone(cols)
	for i := range out {
		out[i].Items = cleanItems(out[i].Items)
	}
	return out
}

func cleanItems(items []Item) []Item {
	out := slices.Clone(items)
	for i := range out {
		out[i].Row = cleanRow(out[i].Row)
		if f := out[i].Fold; f != nil {
			c := *f
			c.Rows = cleanItems(f.Rows)
			out[i].Fold = &c
		}
	}
	return out
}

func cleanAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = clean(s)
	}
	return out
}

// Write renders the page.
func (p *Page) Write(w io.Writer, sum *Summary) error {
	ss := append([]pageSession(nil), p.look...)
	sort.SliceStable(ss, func(i, j int) bool {
		if ss[i].rank != ss[j].rank {
			return ss[i].rank < ss[j].rank
		}
		return ss[i].Dir < ss[j].Dir
	})
	anchors := map[string]string{}
	blocking := 0
	for i := range ss {
		ss[i].Anchor = fmt.Sprintf("s%d", i+1)
		anchors[ss[i].Dir] = ss[i].Anchor
		if ss[i].rank == rankBlocking {
			blocking++
		}
	}
	fixes := slices.Clone(p.fixes)
	sort.Slice(fixes, func(i, j int) bool { return fixes[i].Dir < fixes[j].Dir })
	return pageTmpl.Execute(w, map[string]any{
		"Summary":   sum,
		"Verdict":   strings.TrimPrefix(sum.Verdict().Line(), "verdict: "),
		"Failed":    sum.Failed(),
		"Problems":  cleanAll(sum.Problems()),
		"Stale":     sum.Stale(),
		"Sessions":  ss,
		"Blocking":  blocking,
		"AtRisk":    len(ss) - blocking,
		"Fixes":     fixes,
		"MoreFixes": p.moreFixes,
		"Unchanged": p.unchanged,
		"Anchor":    func(dir string) string { return anchors[clean(dir)] },
		"Text":      CauseText,
	})
}
