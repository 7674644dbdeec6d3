package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"sessiondag/impl/adapter"
	"sessiondag/impl/flags"
	"sessiondag/impl/node"
	"sessiondag/impl/store"
	"sessiondag/impl/webui"
)

func cmdLoad(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("load", stdout, stderr)
	fl := flags.Off
	fs.Var(&fl, "flags", "rollout flags: off, all, or a list such as A,B")
	asJSON := fs.Bool("json", false, "print one JSON object")
	pos, err := fs.parse(args)
	if err != nil || len(pos) != 1 {
		return fs.usageError(err)
	}
	s, err := store.Open(pos[0])
	if err != nil {
		return fail(stderr, "load", err)
	}
	for _, p := range s.Problems {
		fmt.Fprintf(stderr, "sessiondag load: %s: %s\n", pos[0], p.Error())
	}
	l := webui.Load(s, fl)
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetEscapeHTML(false)
		err = enc.Encode(loadJSON{
			SessionID: l.SessionID, HeadID: l.HeadID, FallbackUsed: l.FallbackUsed,
			Flags: fl.String(), Chain: nonNil(l.Chain), All: nonNil(l.All),
		})
		if err != nil {
			return fail(stderr, "load", err)
		}
		return 0
	}
	fmt.Fprintf(stdout, "session %s  head %s  flags %s  %d of %d rows shown", l.SessionID, l.HeadID, fl, len(l.Chain), len(l.All))
	if l.FallbackUsed {
		fmt.Fprint(stdout, "  (get_branch fallback)")
	}
	fmt.Fprintln(stdout)
	for _, m := range l.Chain {
		transcriptRow(stdout, m)
	}
	return 0
}

// loadJSON is what load --json prints, keys in this order.
type loadJSON struct {
	SessionID    string             `json:"session_id"`
	HeadID       webui.Head         `json:"head_id"` // null when the session has no head
	FallbackUsed bool               `json:"fallback_used"`
	Flags        string             `json:"flags"`
	Chain        []*adapter.Message `json:"chain"`
	All          []*adapter.Message `json:"all"`
}

func nonNil(m []*adapter.Message) []*adapter.Message {
	if m == nil {
		return []*adapter.Message{}
	}
	return m
}

// transcriptRow prints one chat row as a reader would see it.
func transcriptRow(w io.Writer, m *adapter.Message) {
	who := m.Role
	if m.Get("type").Str() == "status" && m.Get("display").Str() == "runtime" {
		who = "run " + m.Get("function").Str()
	} else if m.Get("function").Str() == "attach" {
		who = "sub-agent"
	}
	sib := ""
	if t := m.Get("sibling_total"); t.K != 0 && t.S != "1" && t.S != "0" {
		sib = fmt.Sprintf("  [%s/%s]", m.Get("sibling_index").S, t.S)
	}
	fmt.Fprintf(w, "\n%s %s%s\n", who, m.ID, sib)
	if text := strings.TrimSpace(contentText(m)); text != "" {
		fmt.Fprintf(w, "  %s\n", strings.ReplaceAll(text, "\n", "\n  "))
	}
	for _, c := range m.Get("tool_calls").A {
		status := "ok"
		if c.O.Get("is_error").Truthy() {
			status = "error"
		}
		fmt.Fprintf(w, "  · %s %s → %s (%s)\n", c.O.Get("tool").Str(), c.O.Get("input").Str(), oneLine(c.O.Get("result").Str()), status)
	}
}

func contentText(m *adapter.Message) string {
	c := m.Get("content")
	if c.K == node.String {
		return c.S
	}
	b, _ := json.Marshal(c)
	return string(b)
}

// oneLine is s on one line, at most 80 bytes: a longer s is cut to 77 bytes
// or fewer, at the start of a character, so no character is split.
func oneLine(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	if len(s) <= 80 {
		return s
	}
	cut := 77
	for cut > 77-utf8.UTFMax && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "..."
}
