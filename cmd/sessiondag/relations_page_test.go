package main

import (
	"encoding/xml"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
)

// The page as a browser reads it. encoding/xml in its HTML mode
// (Strict off, HTML's void elements closed, HTML's entities known) is the
// parser: the page is self-contained HTML5 written to be well-formed, which
// that mode reads as a browser would, with no dependency beyond the
// standard library (golang.org/x/net/html would add one for a page whose
// markup the audit controls; TestPage already holds it to strict XML).

// element is a parsed element with its text (its own and its children's).
type element struct {
	name     string
	attr     map[string]string
	children []*element
	text     strings.Builder
}

func (e *element) has(class string) bool {
	return slices.Contains(strings.Fields(e.attr["class"]), class)
}

// all lists the elements at or below e that match, in document order.
func (e *element) all(match func(*element) bool) []*element {
	var out []*element
	if match(e) {
		out = append(out, e)
	}
	for _, c := range e.children {
		out = append(out, c.all(match)...)
	}
	return out
}

// first is the first element below e that match, or nil.
func (e *element) first(match func(*element) bool) *element {
	if all := e.all(match); len(all) > 0 {
		return all[0]
	}
	return nil
}

func named(name string) func(*element) bool { return func(e *element) bool { return e.name == name } }

func classed(name, class string) func(*element) bool {
	return func(e *element) bool { return e.name == name && e.has(class) }
}

// parseHTML reads a page into its element tree.
func parseHTML(page string) (*element, error) {
	d := xml.NewDecoder(strings.NewReader(page))
	d.Strict, d.AutoClose, d.Entity = false, xml.HTMLAutoClose, xml.HTMLEntity
	root := &element{name: "#document"}
	stack := []*element{root}
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			e := &element{name: strings.ToLower(tok.Name.Local), attr: map[string]string{}}
			for _, a := range tok.Attr {
				e.attr[a.Name.Local] = a.Value
			}
			top := stack[len(stack)-1]
			top.children = append(top.children, e)
			stack = append(stack, e)
		case xml.EndElement:
			if len(stack) > 1 {
				stack = stack[:len(stack)-1]
			}
		case xml.CharData:
			for _, e := range stack {
				e.text.Write(tok)
			}
		}
	}
	return root, nil
}

// pageReport is what the page says of a run.
type pageReport struct {
	Counts            counts
	Sessions          map[string]pageSession // by directory, each shown in full
	Blocking, AtRisk  int                    // as its "Needs a look" heading says
	Fixes, Unchanged  int                    // as the headings of their sections say
	Listed, FixedDirs []string               // the look list's and the fixes' directories
}

// pageSession is a session the page shows in full.
type pageSession struct {
	Status   string
	Verdicts map[string]string
}

var (
	metaRe  = regexp.MustCompile(`^(\d+) sessions, (\d+) nodes \((\d+) with an op script giving the intended view\) · broken (\d+) · violations (\d+) · regressions (\d+)(?: · accepted (\d+))? · a user's message hidden in (\d+), moved to another branch in (\d+)$`)
	lookRe  = regexp.MustCompile(`^Needs a look: (\d+) blocking, (\d+) at risk$`)
	countRe = regexp.MustCompile(`^(?:Fixed by a step|Unchanged): (\d+) sessions$`)
)

// readPage parses the page.
func readPage(page string) (pageReport, error) {
	r := pageReport{Sessions: map[string]pageSession{}}
	doc, err := parseHTML(page)
	if err != nil {
		return r, err
	}
	title := doc.first(named("title"))
	meta := doc.first(classed("p", "meta"))
	if title == nil || meta == nil {
		return r, fmt.Errorf("no title or counts")
	}
	r.Counts.Verdict = "verdict: " + strings.TrimPrefix(title.text.String(), "sessiondag audit: ")
	m := metaRe.FindStringSubmatch(strings.TrimSpace(meta.text.String()))
	if m == nil {
		return r, fmt.Errorf("counts %q", meta.text.String())
	}
	c := &r.Counts
	c.Sessions, c.Nodes, c.Intended, c.Broken, c.Violations, c.Regressions = atoi(m[1]), atoi(m[2]), atoi(m[3]), atoi(m[4]), atoi(m[5]), atoi(m[6])
	if m[7] != "" {
		c.Accepted = atoi(m[7])
	}
	c.Hidden, c.Moved = atoi(m[8]), atoi(m[9])
	for _, h := range doc.all(named("h2")) {
		t := strings.TrimSpace(h.text.String())
		if m := lookRe.FindStringSubmatch(t); m != nil {
			r.Blocking, r.AtRisk = atoi(m[1]), atoi(m[2])
		}
		if m := countRe.FindStringSubmatch(t); m != nil && strings.HasPrefix(t, "Fixed") {
			r.Fixes = atoi(m[1])
		} else if m != nil {
			r.Unchanged = atoi(m[1])
		}
	}
	return r, r.read(doc)
}

// read collects the sessions, the lists and the step table.
func (r *pageReport) read(doc *element) error {
	for _, li := range doc.all(func(e *element) bool { return e.name == "li" && e.attr["class"] == "" }) {
		if a := li.first(named("a")); a != nil && li.first(classed("span", "badge")) != nil {
			r.Listed = append(r.Listed, a.text.String())
		}
	}
	for _, ul := range doc.all(classed("ul", "fixes")) {
		for _, li := range ul.children {
			if small := li.first(named("small")); small != nil {
				r.FixedDirs = append(r.FixedDirs, strings.TrimSpace(strings.TrimSuffix(li.text.String(), small.text.String())))
			}
		}
	}
	for _, sec := range doc.all(classed("section", "session")) {
		h := sec.first(named("h2"))
		if h == nil {
			return fmt.Errorf("a session section without its heading")
		}
		ps := pageSession{Status: sec.attr["data-status"], Verdicts: map[string]string{}}
		for _, st := range sec.all(classed("li", "step")) {
			b, badge := st.first(named("b")), st.first(classed("span", "badge"))
			ps.Verdicts[b.text.String()] = badge.text.String()
		}
		r.Sessions[h.text.String()] = ps
	}
	var rows [][7]string
	for _, tr := range doc.all(named("tr")) {
		var cells []string
		for _, td := range tr.all(named("td")) {
			cells = append(cells, td.text.String())
		}
		if len(cells) == 7 {
			rows = append(rows, [7]string(cells))
		}
	}
	r.Counts.Steps = rows
	if look := doc.first(func(e *element) bool { return e.name == "section" && e.attr["id"] == "look" }); look != nil {
		for i, e := range look.children {
			if e.has("note") && strings.HasPrefix(e.text.String(), "stale") && i+1 < len(look.children) {
				for _, li := range look.children[i+1].children {
					r.Counts.Stale = append(r.Counts.Stale, staleItem(li.text.String()))
				}
			}
		}
	}
	slices.Sort(r.Counts.Stale)
	return nil
}

// staleItem is the name of a stale exception as the page lists it:
// "SESSION STEP row ROW: REASON".
func staleItem(text string) string {
	name, _, _ := strings.Cut(text, ": ")
	return name
}

// categories are the page's categories of the sessions it shows in full.
func (r pageReport) categories() categories {
	var c categories
	for dir, s := range r.Sessions {
		switch s.Status {
		case "broken", "hides-user", "violation", "regression":
			c.Blocking = append(c.Blocking, dir)
		case "moves-user", "accepted":
			c.AtRisk = append(c.AtRisk, dir)
		}
		if s.Status == "broken" {
			c.Broken = append(c.Broken, dir)
		}
		for _, v := range s.Verdicts {
			if v == "accepted" {
				c.Accepted = append(c.Accepted, dir)
				break
			}
		}
	}
	c.sort()
	return c
}
