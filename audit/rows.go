package audit

import (
	"encoding/json"
	"strings"
	"unicode"
	"unicode/utf8"

	"sessiondag/impl/adapter"
	"sessiondag/impl/node"
	"sessiondag/internal/termtext"
)

// Row is a chat row as a report names it: enough to recognise the message
// without loading the session.
type Row struct {
	ID   string `json:"id"`
	Role string `json:"role"`
	Text string `json:"text"`           // the first line of the content, cut at a whole character
	Card bool   `json:"card,omitempty"` // a runtime card (a top-level function run)
	// Function is a card's function.
	Function string `json:"function,omitempty"`
	// Went: for a row a step removed, where it went in the config the
	// step turns on.
	Went *Place `json:"went,omitempty"`
}

// textLimit is how many characters of a row's first line a report keeps.
const textLimit = 80

// rowOf describes a loaded chain row.
func rowOf(m *adapter.Message) Row {
	r := Row{ID: m.ID, Role: m.Role, Text: firstLine(contentText(m))}
	if m.Get("type").Str() == "status" && m.Get("display").Str() == "runtime" && m.Get("context_tree").IsSet() {
		r.Card, r.Function = true, m.Get("function").Str()
	}
	return r
}

// rowOfNode describes a stored node no loaded chain shows, as the adapter
// would name it: user, assistant (system for a standalone error) or tool,
// a top-level function run as the card it would show as.
func rowOfNode(n *node.Node) Row {
	role := n.Role
	switch n.Role {
	case node.RoleLLM:
		role = "assistant"
		if r := n.Meta("role").Str(); r != "" {
			role = r
		}
	case node.RoleCode:
		role = "tool"
	}
	text := n.Output.Str()
	if n.Output.K != node.String && n.Output.IsSet() && n.Output.K != node.Null {
		b, _ := json.Marshal(n.Output)
		text = string(b)
	}
	r := Row{ID: n.ID, Role: role, Text: firstLine(text)}
	if n.Role == node.RoleCode && (n.CalledBy == "" || n.CalledBy == node.RootID) && !n.Meta("called_by").Truthy() {
		r.Card, r.Function = true, n.Name // a top-level run shows as its card
	}
	return r
}

// String is the row for a text report: id, role, the text quoted, every
// part safe for a terminal (the values are the stored ones, as the JSON
// output has them).
func (r Row) String() string {
	who := r.Role
	if r.Card {
		who = "card " + r.Function
	}
	return termtext.Line(r.ID) + " " + termtext.Line(who) + " " + termtext.Line(quote(r.Text))
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return strings.ReplaceAll(string(b), `\u0026`, "&")
}

func contentText(m *adapter.Message) string {
	c := m.Get("content")
	if c.K == node.String {
		return c.S
	}
	if !c.IsSet() || c.K == node.Null {
		return ""
	}
	b, _ := json.Marshal(c)
	return string(b)
}

// firstLine is s's first non-empty line, at most textLimit characters: a
// longer line is cut before a character, never inside one, and ends in "…".
func firstLine(s string) string {
	s = strings.TrimLeft(s, " \t\r\n")
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) <= textLimit {
		return s
	}
	n := 0
	for i := range s {
		if n == textLimit-1 {
			return s[:i] + "…"
		}
		n++
	}
	return s
}

// clean makes text from a session safe to embed in a page: invalid UTF-8
// and control characters (a corrupt file can hold NUL bytes, which XHTML
// cannot carry) become U+FFFD. Text reports escape instead (termtext).
func clean(s string) string {
	ok := utf8.ValidString(s)
	for _, c := range s {
		if unicode.IsControl(c) {
			ok = false
			break
		}
	}
	if ok {
		return s
	}
	var b strings.Builder
	for _, c := range strings.ToValidUTF8(s, "\uFFFD") {
		if unicode.IsControl(c) {
			c = '\uFFFD'
		}
		b.WriteRune(c)
	}
	return b.String()
}
