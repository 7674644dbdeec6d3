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

// TestPage renders the page for the bundled corpus plus two sessions (one
// where a step hides a user's message, one with a chain of 400 rows) and
// checks its structure.
func TestPage(t *testing.T) {
	extra := t.TempDir()
	buildHiding(t, filepath.Join(extra, "hidden"))
	build(t, filepath.Join(extra, "long"), linearChat(200), false)
	var pg audit.Page
	sessions := 0
	sum, err := audit.RunWith([]string{filepath.Join("..", "corpus"), extra}, audit.Options{Columns: true}, func(s *audit.Session) {
		pg.Add(s)
		sessions++
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
	require.Len(t, secs, sessions, "one section per session")
	blocking := map[string]bool{"hides-user": true, "regression": true, "broken": true, "violation": true}
	rank := func(s string) int {
		switch {
		case blocking[s]:
			return 0
		case s == "fix":
			return 1
		}
		return 2
	}
	for i := 1; i < len(secs); i++ {
		require.LessOrEqual(t, rank(secs[i-1].attr["data-status"]), rank(secs[i].attr["data-status"]),
			"sessions with a regression or a hidden user message first")
	}
	first := secs[0]
	require.Equal(t, "hides-user", first.attr["data-status"])
	require.Equal(t, filepath.Join(extra, "hidden"), strings.TrimSpace(first.find(func(e *elem) bool { return e.name == "h2" })[0].text.String()))

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

	// The hidden message (and its reply) is marked as removed in A's
	// column and absent from A,B's.
	cols := first.find(func(e *elem) bool { return e.name == "div" && e.hasClass("config") })
	require.Len(t, markedRows(cols[1], "del"), 2)
	require.Contains(t, markedRows(cols[1], "del")[0], "u1")
	for _, r := range rowsText(cols[2]) {
		require.NotContains(t, r, "u1 ")
	}

	long := sectionOf(t, secs, filepath.Join(extra, "long"))
	for _, c := range long.find(func(e *elem) bool { return e.name == "div" && e.hasClass("config") }) {
		folds := c.find(func(e *elem) bool { return e.name == "li" && e.hasClass("fold") })
		require.NotEmpty(t, folds, "a long chain is folded")
		require.NotEmpty(t, folds[0].find(func(e *elem) bool { return e.name == "details" }), "inside <details>")
		shown := c.find(func(e *elem) bool { return e.name == "li" && e.hasClass("row") })
		require.Less(t, len(shown), 400, "not every row of a 400-row chain is on the page")
	}
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
