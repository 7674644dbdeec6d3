package audit_test

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"sessiondag/audit"
	"sessiondag/impl/flags"
)

// elem is an element of the page as the test walks it.
type elem struct {
	name     string
	attr     map[string]string
	children []*elem
	text     strings.Builder
}

func (e *elem) class() []string { return strings.Fields(e.attr["class"]) }

func (e *elem) hasClass(c string) bool {
	for _, x := range e.class() {
		if x == c {
			return true
		}
	}
	return false
}

// find lists the elements below e (e included) that match, in document
// order.
func (e *elem) find(match func(*elem) bool) []*elem {
	var out []*elem
	if match(e) {
		out = append(out, e)
	}
	for _, c := range e.children {
		out = append(out, c.find(match)...)
	}
	return out
}

// parsePage reads the page with a strict XML decoder: the page is written
// as XHTML-compatible HTML5, so any unclosed or misnested tag fails here.
func parsePage(t *testing.T, page []byte) *elem {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(page))
	d.Strict = true
	root := &elem{name: "#document"}
	stack := []*elem{root}
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		switch tok := tok.(type) {
		case xml.StartElement:
			e := &elem{name: tok.Name.Local, attr: map[string]string{}}
			for _, a := range tok.Attr {
				e.attr[a.Name.Local] = a.Value
			}
			top := stack[len(stack)-1]
			top.children = append(top.children, e)
			stack = append(stack, e)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			stack[len(stack)-1].text.Write(tok)
		}
	}
	require.Len(t, stack, 1, "every element is closed")
	return root
}

// linearChat is a plain web chat of n turns: a chain of 2n rows.
func linearChat(n int) string {
	var b strings.Builder
	b.WriteString("session id=local_long000001\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "user id=u%d text=\"question %d\"\nreply\nsay text=\"answer %d\"\ndone\n", i, i, i)
	}
	return b.String()
}

// TestPage renders the page for the bundled corpus plus three sessions —
// one where a step hides a user's message, one where a step moves one to
// another branch, one blocking with a chain of 400 rows — and checks its
// structure: the sessions that need a look first, each linked from the top
// of the page, the rows each step removes with where they went; fixed
// sessions one line each, unchanged ones a count.
func TestPage(t *testing.T) {
	extra := t.TempDir()
	build(t, filepath.Join(extra, "hidden"), secondTurnCut, false)
	cutSecondTurn(t, filepath.Join(extra, "hidden"))
	build(t, filepath.Join(extra, "moved"), movedUser, false)
	build(t, filepath.Join(extra, "long"), "session id=local_long000001\nflag set=all\n"+linearChat(200)[len("session id=local_long000001\n"):], false)
	setPredecessor(t, filepath.Join(extra, "long"), "u200", "gone")
	var pg audit.Page
	statuses := map[string]int{}
	sum, err := audit.RunWith([]string{filepath.Join("..", "corpus"), extra}, audit.Options{Columns: true}, func(s *audit.Session) {
		pg.Add(s)
		switch {
		case s.Failed():
			statuses["blocking"]++
		case s.MovesUser():
			statuses["at-risk"]++
		case s.Steps[0].Verdict != audit.Unchanged || s.Steps[1].Verdict != audit.Unchanged || s.Steps[2].Verdict != audit.Unchanged || s.Steps[3].Verdict != audit.Unchanged:
			statuses["fix"]++
		default:
			statuses["unchanged"]++
		}
	})
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, pg.Write(&buf, sum))
	root := parsePage(t, buf.Bytes())

	noExternal(t, root, buf.String())
	heads := root.find(func(e *elem) bool { return e.name == "meta" && e.attr["name"] == "viewport" })
	require.Len(t, heads, 1, "a viewport for phones")
	require.Contains(t, buf.String(), "@media", "responsive CSS")

	secs := root.find(func(e *elem) bool { return e.name == "section" && e.hasClass("session") })
	require.Len(t, secs, statuses["blocking"]+statuses["at-risk"], "a section for each session that needs a look, no other")
	require.Equal(t, 2, statuses["blocking"])
	// At risk: the session built here and the original's two sessions
	// whose step B moves a user's answer to its branch
	// (corpus/realwriter, docs/rollout.md §5).
	require.Equal(t, 3, statuses["at-risk"])
	rank := map[string]int{"hides-user": 0, "regression": 0, "broken": 0, "violation": 0, "moves-user": 1, "accepted": 1}
	for i, s := range secs {
		r, ok := rank[s.attr["data-status"]]
		require.True(t, ok, "a session that needs no look has a section: %s", s.attr["data-status"])
		if i > 0 {
			require.LessOrEqual(t, rank[secs[i-1].attr["data-status"]], r, "blocking sessions first")
		}
	}

	// The top of the page links every section, before any of them.
	look := root.find(func(e *elem) bool { return e.name == "section" && e.attr["id"] == "look" })
	require.Len(t, look, 1)
	links := look[0].find(func(e *elem) bool { return e.name == "a" })
	require.Len(t, links, len(secs))
	for i, a := range links {
		require.Equal(t, "#"+secs[i].attr["id"], a.attr["href"])
	}
	require.Less(t, strings.Index(buf.String(), `id="look"`), strings.Index(buf.String(), `class="session"`))

	fixes := root.find(func(e *elem) bool { return e.name == "ul" && e.hasClass("fixes") })
	require.Len(t, fixes, 1)
	require.Len(t, fixes[0].children, statuses["fix"], "a line per fixed session")
	require.Contains(t, buf.String(), fmt.Sprintf("Unchanged: %d sessions", statuses["unchanged"]))

	var want []string
	for _, fl := range flags.Rollout {
		want = append(want, fl.String())
	}
	for _, s := range secs {
		var got []string
		for _, c := range s.find(func(e *elem) bool { return e.name == "div" && e.hasClass("config") }) {
			got = append(got, c.attr["data-flags"])
		}
		require.Equal(t, want, got, "five config columns in rollout order: %s", s.attr["id"])
	}

	// The hidden message: marked as removed in A's column, absent from
	// A,B's, and said where it went.
	hidden := sectionOf(t, secs, filepath.Join(extra, "hidden"))
	require.Equal(t, "hides-user", hidden.attr["data-status"])
	cols := hidden.find(func(e *elem) bool { return e.name == "div" && e.hasClass("config") })
	require.Len(t, markedRows(cols[1], "del"), 2)
	require.Contains(t, markedRows(cols[1], "del")[0], "u1")
	for _, r := range rowsText(cols[2]) {
		require.NotContains(t, r, "u1 ")
	}
	require.Contains(t, textOf(hidden), "→ only at its own head (u1)")

	moved := sectionOf(t, secs, filepath.Join(extra, "moved"))
	require.Equal(t, "moves-user", moved.attr["data-status"])
	require.Contains(t, textOf(moved), "→ on another branch (tip u1): the sibling arrows of f1")

	long := sectionOf(t, secs, filepath.Join(extra, "long"))
	for _, c := range long.find(func(e *elem) bool { return e.name == "div" && e.hasClass("config") })[:2] {
		folds := c.find(func(e *elem) bool { return e.name == "li" && e.hasClass("fold") })
		require.NotEmpty(t, folds, "a long chain is folded")
		require.NotEmpty(t, folds[0].find(func(e *elem) bool { return e.name == "details" }), "inside <details>")
		shown := c.find(func(e *elem) bool { return e.name == "li" && e.hasClass("row") })
		require.Less(t, len(shown), 400, "not every row of a 400-row chain is on the page")
	}
	require.Contains(t, textOf(long), "… 348 more", "a step's removed rows are cut at 50")
}

// TestPageGrowsWithWhatNeedsALook: a hundred more sessions that no step
// changes add a few bytes to the page (the count), not a section each.
func TestPageGrowsWithWhatNeedsALook(t *testing.T) {
	page := func(roots ...string) int {
		var pg audit.Page
		sum, err := audit.RunWith(roots, audit.Options{Columns: true}, pg.Add)
		require.NoError(t, err)
		var buf bytes.Buffer
		require.NoError(t, pg.Write(&buf, sum))
		return buf.Len()
	}
	corpus := filepath.Join("..", "corpus", "sessions")
	more := t.TempDir()
	for i := 0; i < 100; i++ {
		build(t, filepath.Join(more, fmt.Sprintf("plain%03d", i)), plainChat, false)
	}
	before, after := page(corpus), page(corpus, more)
	require.Less(t, after-before, 100, "page of %d bytes, %d with 100 unchanged sessions more", before, after)
}

// textOf is the text of an element and everything in it.
func textOf(e *elem) string {
	var b strings.Builder
	b.WriteString(e.text.String())
	for _, c := range e.children {
		b.WriteString(textOf(c))
	}
	return b.String()
}

func sectionOf(t *testing.T, secs []*elem, dir string) *elem {
	t.Helper()
	for _, s := range secs {
		if strings.TrimSpace(s.find(func(e *elem) bool { return e.name == "h2" })[0].text.String()) == dir {
			return s
		}
	}
	t.Fatalf("no section for %s", dir)
	return nil
}

// rowsText is the text of the rows a column shows outside folds.
func rowsText(col *elem) []string {
	var out []string
	for _, li := range col.find(func(e *elem) bool { return e.name == "li" && e.hasClass("row") }) {
		var b strings.Builder
		for _, c := range li.children {
			b.WriteString(c.text.String() + " ")
		}
		out = append(out, b.String())
	}
	return out
}

func markedRows(col *elem, mark string) []string {
	var out []string
	for _, li := range col.find(func(e *elem) bool { return e.name == "li" && e.hasClass("row") && e.hasClass(mark) }) {
		var b strings.Builder
		for _, c := range li.children {
			b.WriteString(c.text.String() + " ")
		}
		out = append(out, b.String())
	}
	return out
}

// noExternal: nothing on the page is fetched from elsewhere or run: no
// script, no linked resource, no link out of the page.
func noExternal(t *testing.T, root *elem, page string) {
	t.Helper()
	for _, e := range root.find(func(*elem) bool { return true }) {
		switch e.name {
		case "script", "link", "img", "iframe", "object", "embed", "video", "audio", "source", "base", "form":
			t.Errorf("the page has a <%s>", e.name)
		}
		for k, v := range e.attr {
			switch {
			case k == "href" && !strings.HasPrefix(v, "#"):
				t.Errorf("<%s href=%q> leaves the page", e.name, v)
			case k == "src" || k == "action" || strings.HasPrefix(k, "on"):
				t.Errorf("<%s %s=%q>", e.name, k, v)
			}
		}
		if e.name == "style" {
			css := e.text.String()
			require.NotContains(t, css, "url(")
			require.NotContains(t, css, "@import")
		}
	}
	require.NotContains(t, page, "http://")
	require.NotContains(t, page, "https://")
}
