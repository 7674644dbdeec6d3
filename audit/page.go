package audit

import (
	"embed"
	"fmt"
	"html/template"
	"io"
	"slices"
	"sort"
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
}).ParseFS(pageFS, "page.html"))

// Page collects audited sessions for one self-contained HTML page (inline
// CSS, no script, no external resource): the summary, the residual, and per
// session the chains of the five configs side by side, sessions with a
// regression or a hidden user message first. Sessions must be audited
// with Options.Columns.
type Page struct {
	sessions []pageSession
}

// pageSession is what the page shows of a session, cut to a bounded size.
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
}

// pageList is how many rows of a list (a step's added rows, a session's
// residual) the page names; the JSON output has them all.
const pageList = 50

// Add takes a session for the page.
func (p *Page) Add(s *Session) {
	ps := pageSession{Dir: clean(s.Dir), ID: clean(s.ID), Nodes: s.Nodes, Error: clean(s.Error),
		Violations: cleanAll(append(slices.Clone(s.Unreadable), s.Violations...)), Notes: cleanAll(s.Notes), Columns: cleanColumns(s.Columns)}
	ps.Status, ps.rank = status(s)
	ps.Open = ps.rank < 2
	for _, st := range s.Steps {
		if st.Verdict == Unchanged {
			continue
		}
		pst := pageStep{From: st.From, To: st.To, Verdict: st.Verdict, Detail: clean(st.Detail)}
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
	p.sessions = append(p.sessions, ps)
}

// status is a session's badge and its place on the page: what blocks the
// rollout first, then sessions a step changes, then the rest.
func status(s *Session) (string, int) {
	changed := false
	for _, st := range s.Steps {
		changed = changed || st.Verdict != Unchanged
	}
	switch {
	case s.Error != "":
		return "broken", 0
	case s.HidesUser():
		return "hides-user", 0
	case s.Failed() && len(s.Violations) > 0:
		return "violation", 0
	case s.Failed():
		return "regression", 0
	case changed:
		return "fix", 1
	}
	return "unchanged", 2
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
	ss := append([]pageSession(nil), p.sessions...)
	sort.SliceStable(ss, func(i, j int) bool {
		if ss[i].rank != ss[j].rank {
			return ss[i].rank < ss[j].rank
		}
		return ss[i].Dir < ss[j].Dir
	})
	anchors := map[string]string{}
	for i := range ss {
		ss[i].Anchor = fmt.Sprintf("s%d", i+1)
		anchors[ss[i].Dir] = ss[i].Anchor
	}
	verdict := "ready"
	if sum.Failed() {
		verdict = "NOT READY"
	}
	return pageTmpl.Execute(w, map[string]any{
		"Summary":  sum,
		"Verdict":  verdict,
		"Failed":   sum.Failed(),
		"Sessions": ss,
		"Anchor":   func(dir string) string { return anchors[dir] },
		"Text":     CauseText,
	})
}
