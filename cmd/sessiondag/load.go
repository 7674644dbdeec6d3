package main

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"sessiondag/impl/adapter"
	"sessiondag/impl/flags"
	"sessiondag/impl/node"
	"sessiondag/impl/store"
	"sessiondag/impl/webui"
	"sessiondag/internal/termtext"
)

func cmdLoad(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("load", stdout, stderr)
	fl := flags.Off
	fs.Var(&fl, "flags", "rollout flags: off, all, or a list such as A,B")
	asJSON := fs.jsonFlag("one object, the view")
	pos, err := fs.parse(args)
	if err != nil || len(pos) != 1 {
		return fs.usageError(err)
	}
	s, err := store.Open(pos[0])
	if err != nil {
		return fail(stderr, "load", err)
	}
	for _, p := range s.Problems {
		fmt.Fprintf(stderr, "sessiondag load: %s: %s\n", termtext.Line(pos[0]), termtext.Line(p.Error()))
	}
	for _, n := range s.Notes {
		fmt.Fprintf(stderr, "sessiondag load: %s: %s\n", termtext.Line(pos[0]), termtext.Line(n))
	}
	l := webui.Load(s, fl)
	status := 0
	if len(s.Problems) > 0 {
		// A file could not be used, the session changed while it was read,
		// or its head names a node it does not have: the view is shown,
		// but it is not the whole conversation.
		status = 1
	}
	if *asJSON {
		w := bufio.NewWriterSize(stdout, 64<<10)
		err := node.WriteView(w, loadDoc(l, fl))
		if err == nil {
			err = w.WriteByte('\n')
		}
		if err == nil {
			err = w.Flush()
		}
		if err != nil {
			return fail(stderr, "load", fmt.Errorf("write the view of %s: %w", pos[0], err))
		}
		return status
	}
	fmt.Fprintf(stdout, "session %s  head %s  flags %s  %d of %d rows shown", termtext.Line(l.SessionID), termtext.Line(l.HeadID.String()), fl, len(l.Chain), len(l.All))
	if l.FallbackUsed {
		fmt.Fprint(stdout, "  (get_branch fallback)")
	}
	fmt.Fprintln(stdout)
	for _, m := range l.Chain {
		transcriptRow(stdout, m)
	}
	return status
}

// loadDoc is what load --json prints, keys in this order: session_id,
// head_id (null when the session has no head), fallback_used, flags, chain,
// all. The messages are shared, not copied: the document is written as it
// is walked (node.WriteView), however large the runtime cards' trees make
// it.
func loadDoc(l *webui.Loaded, fl flags.Set) node.Value {
	head := node.NullV()
	if id, ok := l.HeadID.Get(); ok {
		head = node.Str(id)
	}
	rows := func(ms []*adapter.Message) node.Value {
		a := make([]node.Value, len(ms))
		for i, m := range ms {
			a[i] = node.ObjV(m.F)
		}
		return node.Arr(a)
	}
	return node.ObjV(&node.Obj{M: []node.Member{
		{Key: "session_id", Val: node.Str(l.SessionID)},
		{Key: "head_id", Val: head},
		{Key: "fallback_used", Val: node.BoolV(l.FallbackUsed)},
		{Key: "flags", Val: node.Str(fl.String())},
		{Key: "chain", Val: rows(l.Chain)},
		{Key: "all", Val: rows(l.All)},
	}})
}

// transcriptRow prints one chat row as a reader would see it. Stored text
// is data: ids, names and roles are printed one-line safe, message text with
// its lines but without a control character a terminal would act on.
func transcriptRow(w io.Writer, m *adapter.Message) {
	who := termtext.Line(m.Role)
	if m.Get("type").Str() == "status" && m.Get("display").Str() == "runtime" {
		who = "run " + termtext.Line(m.Get("function").Str())
	} else if m.Get("function").Str() == "attach" {
		who = "sub-agent"
	}
	sib := ""
	if t := m.Get("sibling_total"); t.K != 0 && t.S != "1" && t.S != "0" {
		sib = fmt.Sprintf("  [%s/%s]", termtext.Line(m.Get("sibling_index").S), termtext.Line(t.S))
	}
	fmt.Fprintf(w, "\n%s %s%s\n", who, termtext.Line(m.ID), sib)
	if text := strings.TrimSpace(contentText(m)); text != "" {
		fmt.Fprintf(w, "  %s\n", strings.ReplaceAll(termtext.Text(text), "\n", "\n  "))
	}
	for _, c := range m.Get("tool_calls").A {
		status := "ok"
		if c.O.Get("is_error").Truthy() {
			status = "error"
		}
		fmt.Fprintf(w, "  · %s %s → %s (%s)\n", termtext.Line(c.O.Get("tool").Str()), termtext.Line(c.O.Get("input").Str()),
			termtext.Line(oneLine(c.O.Get("result").Str())), status)
	}
}

func contentText(m *adapter.Message) string {
	c := m.Get("content")
	if c.K == node.String {
		return c.S
	}
	b, _ := c.MarshalJSON()
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
