package webui_test

// Worked examples of docs/legacy.md §4 (both variants and the
// continuation) and §5 (the known bugs at R), built through impl/writer and
// loaded with every flag off. Every expected value below is read off the
// spec's tables and prose, not off the implementation's output.

import (
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/stretchr/testify/require"

	"sessiondag/impl/adapter"
	"sessiondag/impl/flags"
	"sessiondag/impl/history"
	"sessiondag/impl/node"
	"sessiondag/impl/store"
	"sessiondag/impl/webui"
	"sessiondag/impl/writer"
)

// Ids of §4, shortened as in the doc. Replies and tool rows follow the id
// formats of §1: <user>_reply and <reply>_t_<tool_call_id>.
const (
	exSession = "local_0a1b2c3d4e"
	u1        = "u1"
	a1        = "u1_reply"
	t1        = "u1_reply_t_toolu_01"
	fnF       = "F"
	fnFx      = "Fx"
	u3        = "u3"
	a3        = "u3_reply"

	u4   = "u4"
	a4   = "u4_reply"
	fnG  = "G"
	fnGx = "Gx"
	fnH  = "H"
	subS = "S"
	subR = "S_reply"
	attA = "A"
	t3   = "u4_reply_t_toolu_03"
	u5   = "u5"
	a5   = "u5_reply"
	u6   = "u6"
	a6   = "u6_reply"
)

// ---- helpers ---------------------------------------------------------------

// pv renders a parent_id value: "<absent>", "<null>" or the string.
func pv(v node.Value) string {
	switch v.K {
	case node.Missing:
		return "<absent>"
	case node.Null:
		return "<null>"
	case node.String:
		return v.S
	}
	return "<other:" + node.Dumps(v) + ">"
}

func byID(t *testing.T, ms []*adapter.Message, id string) *adapter.Message {
	t.Helper()
	for _, m := range ms {
		if m.ID == id {
			return m
		}
	}
	require.FailNowf(t, "missing message", "no message %q in %v", id, adapter.IDs(ms))
	return nil
}

func mustNode(t *testing.T, s *store.Store, id string) *node.Node {
	t.Helper()
	n, ok := s.Get(id)
	require.Truef(t, ok, "node %q is not stored", id)
	return n
}

func newWriter(t *testing.T, dir string) *writer.Writer {
	t.Helper()
	w, err := writer.New(exSession, dir, flags.Off)
	require.NoError(t, err)
	return w
}

// buildSection4 writes §4 turns 1–3. reload selects variant A (the client
// reloaded after turn 2, so its conv head is F) over variant B (no reload,
// conv head still a1).
func buildSection4(t *testing.T, w *writer.Writer, reload bool) {
	t.Helper()
	// Turn 1: the user types "list files"; one tool call.
	require.NoError(t, w.WebUser(u1, "list files", ""))
	require.Equal(t, u1, w.S.Head(), "set_head(u1) after the user row")
	require.NoError(t, w.Reply())
	require.Equal(t, a1, w.S.Head(), "set_head(reply) at placeholder insert")
	require.NoError(t, w.Think("the user wants a listing"))
	require.NoError(t, w.Say("Let me look.\n"))
	require.NoError(t, w.Tool("toolu_01", "bash", `{"cmd":"ls"}`, "a.txt\nb.txt", false, false, true))
	require.NoError(t, w.Say("There are 2 files. "))
	require.NoError(t, w.Done())
	require.Equal(t, a1, w.S.PersistedHead())

	// Turn 2: Run on word_count(text="hi"), one internal exec call.
	require.NoError(t, w.Manual(fnF, "word_count", `{"text":"hi"}`, ""))
	require.NoError(t, w.Exec(fnFx, "count the words of: hi", "2"))
	require.NoError(t, w.End("2", ""))
	require.Equal(t, fnF, w.S.PersistedHead(), "the forced path sets head := F after the run")

	if reload {
		require.NoError(t, w.Reload())
	}

	// Turn 3: "thanks".
	require.NoError(t, w.WebUser(u3, "thanks", ""))
	require.NoError(t, w.Reply())
	require.NoError(t, w.Say("You're welcome."))
	require.NoError(t, w.Done())
}

type nodeRow struct {
	seq      int64
	id       string
	role     string
	name     string
	calledBy string
	parent   string // metadata.parent_id, "<absent>" when missing
}

type msgRow struct {
	id        string
	role      string
	parent    string
	hasCaller bool // top-level called_by key
}

// ---- §4 --------------------------------------------------------------------

func TestSection4WorkedExample(t *testing.T) {
	for _, tc := range []struct {
		name        string
		reload      bool
		u3Parent    string
		linear      []string
		branch      []string
		chain       []string
		fCardInView bool
	}{
		{
			name: "A_reload", reload: true, u3Parent: fnF,
			linear: []string{fnF, u3, a3},
			branch: []string{fnF, u3, a3},
			chain:  []string{fnF, u3, a3}, fCardInView: true,
		},
		{
			name: "B_no_reload", reload: false, u3Parent: a1,
			linear: []string{u1, a1, u3, a3},
			branch: []string{u1, a1, u3, a3},
			chain:  []string{u1, a1, u3, a3},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWriter(t, "")
			buildSection4(t, w, tc.reload)
			st := w.S.AtPersistedHead()

			// The node table.
			want := []nodeRow{
				{0, node.RootID, "user", "", "", "<absent>"},
				{1, u1, "user", "", node.RootID, "<absent>"},
				{2, a1, "llm", "", u1, u1},
				{3, t1, "code", "bash", a1, "<absent>"},
				{4, fnF, "code", "word_count", node.RootID, "<absent>"},
				{5, fnFx, "llm", "model-x", fnF, "<absent>"},
				{6, u3, "user", "", node.RootID, tc.u3Parent},
				{7, a3, "llm", "", u3, u3},
			}
			var got []nodeRow
			for _, n := range st.Nodes() {
				got = append(got, nodeRow{n.Seq, n.ID, n.Role, n.Name, n.CalledBy, pv(n.Metadata.Get("parent_id"))})
			}
			require.Equal(t, want, got)

			// ROOT: role user, output "", called_by "", metadata {"display": "root"}.
			root := mustNode(t, st, node.RootID)
			require.Equal(t, `{"display": "root"}`, node.Dumps(node.ObjV(root.Metadata)))
			require.Equal(t, `""`, node.Dumps(root.Output))
			// u1: metadata {source: "web"} (the null parent is filtered out).
			require.Equal(t, "web", mustNode(t, st, u1).Meta("source").Str())
			// t1: the tool row.
			tn := mustNode(t, st, t1)
			require.Equal(t, `{"cmd": "ls"}`, node.Dumps(tn.Input))
			require.Equal(t, "a.txt\nb.txt", tn.Output.Str())
			require.Equal(t, "toolu_01", tn.Meta("tool_call_id").Str())
			require.Equal(t, node.Bool, tn.Meta("is_error").K)
			require.False(t, tn.Meta("is_error").B)
			// a1 after the turn: completed, output = text parts concatenated and stripped.
			an := mustNode(t, st, a1)
			require.Equal(t, "completed", an.Meta("status").Str())
			require.Equal(t, "Let me look.\nThere are 2 files.", an.Output.Str())
			require.Equal(t, node.String, an.Meta("extra").K, "extra is a JSON string")
			// F after exit: output 2, completed.
			fn := mustNode(t, st, fnF)
			require.Equal(t, "2", node.Dumps(fn.Output))
			require.Equal(t, "completed", fn.Meta("status").Str())
			require.Equal(t, "io", fn.Meta("expose").Str())
			require.Equal(t, "hi", fn.Input.O.Get("text").Str())

			// Stored head = a3.
			require.Equal(t, a3, st.PersistedHead())
			require.Equal(t, a3, st.Head())

			// The message table.
			msgs := webui.Messages(st)
			wantMsgs := []msgRow{
				{u1, "user", "ROOT", false},
				{a1, "assistant", u1, true},
				{t1, "tool", a1, false},
				{fnF, "tool", "ROOT", false},
				{fnFx, "assistant", fnF, true},
				{u3, "user", tc.u3Parent, false},
				{a3, "assistant", u3, true},
			}
			var gotMsgs []msgRow
			for _, m := range msgs {
				gotMsgs = append(gotMsgs, msgRow{m.ID, m.Role, pv(m.Get("parent_id")), m.Get("called_by").IsSet()})
			}
			require.Equal(t, wantMsgs, gotMsgs)
			require.Equal(t, u1, byID(t, msgs, a1).Get("called_by").Str())
			require.Equal(t, fnF, byID(t, msgs, fnFx).Get("called_by").Str())
			require.Equal(t, u3, byID(t, msgs, a3).Get("called_by").Str())

			// Aggregation: t1 folds into a1.
			all := webui.Aggregate(msgs)
			require.Equal(t, []string{u1, a1, fnF, fnFx, u3, a3}, adapter.IDs(all))
			agg := byID(t, all, a1)
			calls := agg.Get("tool_calls")
			require.Equal(t, node.Array, calls.K)
			require.Len(t, calls.A, 1)
			c := calls.A[0].O
			require.Equal(t, t1, c.Get("tool_call_id").Str())
			require.Equal(t, "bash", c.Get("tool").Str())
			require.Equal(t, `{"cmd": "ls"}`, c.Get("input").Str())
			require.Equal(t, "a.txt\nb.txt", c.Get("result").Str())
			require.Equal(t, node.Bool, c.Get("is_error").K)
			require.False(t, c.Get("is_error").B)
			// blocks copied from extra.blocks: thinking, text, tool, text.
			blocks := agg.Get("blocks")
			require.Equal(t, node.Array, blocks.K)
			var kinds []string
			for _, b := range blocks.A {
				kinds = append(kinds, b.O.Get("type").Str())
			}
			require.Equal(t, []string{"thinking", "text", "tool", "text"}, kinds)
			extra, err := node.Parse([]byte(agg.Get("extra").Str()))
			require.NoError(t, err)
			require.Equal(t, node.Dumps(extra.O.Get("blocks")), node.Dumps(blocks))
			require.NotContains(t, adapter.IDs(all), t1, "t1 is folded and dropped")
			require.False(t, byID(t, all, a3).Get("tool_calls").IsSet())

			// Load.
			l := webui.Load(st, flags.Off)
			require.Equal(t, webui.HeadAt(a3), l.HeadID)
			require.Equal(t, []string{u1, a1, fnF, fnFx, u3, a3}, adapter.IDs(l.All))
			require.Equal(t, tc.linear, adapter.IDs(l.Linear), "linear_history(a3)")
			// R fallback: triggered (chain shorter than all), get_branch is not longer → keep.
			require.Less(t, len(l.Linear), len(l.All))
			require.Equal(t, tc.branch, adapter.IDs(history.Branch(st, "")), "get_branch from the stored head")
			require.False(t, l.FallbackUsed, "get_branch is not strictly longer: keep the linear chain")
			require.Equal(t, tc.linear, adapter.IDs(l.BeforeCards))
			require.Equal(t, tc.chain, adapter.IDs(l.Chain), "runtime cards at R")

			if tc.fCardInView {
				card := l.Chain[0]
				require.Equal(t, fnF, card.ID)
				require.Equal(t, "assistant", card.Role)
				require.Equal(t, "status", card.Get("type").Str())
				require.Equal(t, "runtime", card.Get("display").Str())
				require.Equal(t, "word_count", card.Get("function").Str())
				require.Equal(t, "2", card.Get("content").Str())
				require.Equal(t, "completed", card.Get("status").Str())
				require.Equal(t, "", pv(card.Get("parent_id")))
				tree := card.Get("context_tree")
				require.Equal(t, node.Object, tree.K)
				// §2.5: keys in order; F's input without "runtime"; an int
				// output JSON-encoded; Fx an exec node with its input as text
				// (R's runtime.exec stores none: empty).
				require.Equal(t,
					`{"path": "F", "name": "word_count", "status": "completed", "duration_ms": 500, `+
						`"params": {"text": "hi"}, "output": "2", "children": [`+
						`{"path": "Fx", "name": "model-x", "status": "completed", "node_type": "exec", `+
						`"params": {"_content": ""}, "raw_reply": "2"}]}`,
					node.Dumps(tree))
				// u3 and a3 survive the card pass (the §5.2 fix); Fx is absorbed.
				require.NotContains(t, adapter.IDs(l.Chain), fnFx)
			} else {
				// Variant B: F is not on the chain, so there is no card; a1 keeps its folded call.
				require.Equal(t, []string{t1}, toolCallIDs(byID(t, l.Chain, a1)))
				for _, m := range l.Chain {
					require.NotEqual(t, "status", m.Get("type").Str())
				}
			}

			// Context side (dispatcher path, variant A): get_branch from F = [F].
			if tc.reload {
				require.Equal(t, []string{fnF}, adapter.IDs(history.Branch(st, fnF)))
			}
		})
	}
}

func toolCallIDs(m *adapter.Message) []string {
	var out []string
	for _, c := range m.Get("tool_calls").A {
		out = append(out, c.O.Get("tool_call_id").Str())
	}
	return out
}

// The same session written to disk loads the same way cold (§2.1): one
// history file per node named NNNN-R-<id>.json, and meta.json's head_id.
func TestSection4ColdLoad(t *testing.T) {
	dir := filepath.Join(t.TempDir(), exSession)
	w := newWriter(t, dir)
	buildSection4(t, w, true)

	entries, err := os.ReadDir(filepath.Join(dir, "history"))
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	require.Equal(t, []string{
		"0000-u-ROOT.json",
		"0001-u-u1.json",
		"0002-l-u1_reply.json",
		"0003-c-u1_reply_t_toolu_01.json",
		"0004-c-F.json",
		"0005-l-Fx.json",
		"0006-u-u3.json",
		"0007-l-u3_reply.json",
	}, names)

	s, err := store.Open(dir)
	require.NoError(t, err)
	require.Empty(t, s.Problems)
	require.Equal(t, a3, s.Head())
	l := webui.Load(s, flags.Off)
	require.Equal(t, webui.HeadAt(a3), l.HeadID)
	require.Equal(t, []string{u1, a1, fnF, fnFx, u3, a3}, adapter.IDs(l.All))
	require.Equal(t, []string{fnF, u3, a3}, adapter.IDs(l.Linear))
	require.False(t, l.FallbackUsed)
	require.Equal(t, []string{fnF, u3, a3}, adapter.IDs(l.Chain))
	require.Equal(t, "runtime", l.Chain[0].Get("display").Str())
}

// §4 continuation: turns 4–6 in the same session.
func TestSection4Continuation(t *testing.T) {
	for _, tc := range []struct {
		name      string
		variantA  bool
		reload6   bool // the page reloaded after the error of turn 5
		u6Parent  string
		chainHead []string // the chain's rows before u4
	}{
		{name: "A", variantA: true, u6Parent: u5,
			chainHead: []string{fnF, u3, a3}},
		{name: "B", variantA: false, u6Parent: u5,
			chainHead: []string{u1, a1, u3, a3}},
		{name: "A_reload_after_error", variantA: true, reload6: true, u6Parent: u5,
			chainHead: []string{fnF, u3, a3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWriter(t, "")
			buildSection4(t, w, tc.variantA)

			// Turn 4: u4, placeholder a4, the agentic tool analyze (G, Gx, H),
			// then the plain task tool.
			require.NoError(t, w.WebUser(u4, "analyze it", ""))
			require.NoError(t, w.Reply())
			require.Equal(t, a4, w.S.Head())
			require.NoError(t, w.Fn(fnG, "analyze", `{"what":"files"}`, "", false))
			require.NoError(t, w.Exec(fnGx, "analyze files", "calling helper"))
			require.NoError(t, w.Fn(fnH, "helper", `{}`, "", true))
			require.NoError(t, w.End(`"ok"`, ""))
			require.NoError(t, w.End(`{"n": 2}`, ""))
			require.NoError(t, w.Task("toolu_03", subS, attA, "summarise", "sub", false, true))
			require.Equal(t, subR, w.S.Head(), "the task tool re-sets the head to the sub reply")
			require.NoError(t, w.Say("Done."))
			require.NoError(t, w.Done())
			require.Equal(t, a4, w.S.PersistedHead(), "finalize sets head a4")

			// Turn 5: the provider raises; the error is folded into a5.
			require.NoError(t, w.WebUser(u5, "again", ""))
			require.NoError(t, w.Reply())
			require.NoError(t, w.ErrorFolded("RuntimeError", "boom"))
			require.Equal(t, u5, w.S.PersistedHead(), "R's web action saves its conversation, whose head is u5")
			require.Equal(t, "failed", w.S.Meta.Get("status").Str())

			if tc.reload6 {
				require.NoError(t, w.Reload())
			}
			// Turn 6: the user presses stop.
			require.NoError(t, w.WebUser(u6, "more", ""))
			require.NoError(t, w.Reply())
			require.NoError(t, w.Say("partial answer"))
			require.NoError(t, w.Cancel())
			require.Equal(t, a6, w.S.PersistedHead())

			st := w.S.AtPersistedHead()
			// Node table of the continuation (seq in brackets in the doc).
			want := []nodeRow{
				{8, u4, "user", "", node.RootID, a3},
				{9, a4, "llm", "", u4, u4},
				{10, fnG, "code", "analyze", a4, "<absent>"},
				{11, fnGx, "llm", "model-x", fnG, "<absent>"},
				{12, fnH, "code", "helper", fnGx, "<absent>"},
				{13, subS, "user", "", node.RootID, a4},
				{14, subR, "llm", "", subS, subS},
				{15, attA, "llm", "", "", a4},
				{16, t3, "code", "task", a4, "<absent>"},
				{17, u5, "user", "", node.RootID, a4},
				{18, a5, "llm", "", u5, u5},
				{19, u6, "user", "", node.RootID, tc.u6Parent},
				{20, a6, "llm", "", u6, u6},
			}
			var got []nodeRow
			for _, n := range st.Nodes()[8:] {
				got = append(got, nodeRow{n.Seq, n.ID, n.Role, n.Name, n.CalledBy, pv(n.Metadata.Get("parent_id"))})
			}
			require.Equal(t, want, got)

			sn := mustNode(t, st, subS)
			require.Equal(t, "agent_spawn", sn.Meta("source").Str())
			an := mustNode(t, st, attA)
			require.Equal(t, "runtime", an.Meta("display").Str())
			require.Equal(t, "attach", an.Meta("function").Str())
			require.Equal(t, subR, an.Meta("attach").O.Get("head_id").Str())
			// No a4_t_… row for the agentic tool: G is the only row for it.
			for _, n := range st.Nodes() {
				if n.Name == "analyze" {
					require.Equal(t, fnG, n.ID, "only G records analyze")
				}
			}
			// a4 has three conversation children: S, A and the next user turn.
			require.Equal(t, []string{subS, attA, u5}, node.IDs(st.ConvChildren(a4)))

			e5 := mustNode(t, st, a5)
			require.Equal(t, "[error] RuntimeError: boom", e5.Output.Str())
			require.Equal(t, "error", e5.Meta("status").Str())
			c6 := mustNode(t, st, a6)
			require.Equal(t, "cancelled", c6.Meta("status").Str())
			require.Equal(t, "partial answer", c6.Output.Str())

			// Load at head a6.
			l := webui.Load(st, flags.Off)
			require.Equal(t, webui.HeadAt(a6), l.HeadID)
			require.Equal(t, []string{u1, a1, fnF, fnFx, u3, a3, u4, a4, fnGx, subS, subR, attA, u5, a5, u6, a6}, adapter.IDs(l.All))
			require.Equal(t, []string{fnG, t3}, toolCallIDs(byID(t, l.All, a4)), "G and the task row fold into a4")
			require.Equal(t, []string{fnH}, toolCallIDs(byID(t, l.All, fnGx)), "H folds into Gx")

			// reloaded or not: the failed turn left the head on u5
			mid := []string{u4, a4, u5, u6, a6}
			// linear_history(a6) stops at F (A) or walks on to u1 (B); the
			// card pass later leaves these rows as they are.
			linear := append(append([]string{}, tc.chainHead...), mid...)
			require.Equal(t, linear, adapter.IDs(l.Linear))
			require.False(t, l.FallbackUsed, "get_branch from a6 is not longer")

			// A is spliced right after a4; S, S_reply, Gx stay off the chain.
			var chain []string
			chain = append(chain, tc.chainHead...)
			chain = append(chain, u4, a4, attA)
			chain = append(chain, mid[2:]...)
			require.Equal(t, chain, adapter.IDs(l.Chain))
			for _, off := range []string{subS, subR, fnGx} {
				require.NotContains(t, adapter.IDs(l.Chain), off)
			}

			if !tc.reload6 {
				// u6 is a sibling of a5 under u5.
				r6 := byID(t, l.Chain, u6)
				require.Equal(t, "2", node.Dumps(r6.Get("sibling_index")))
				require.Equal(t, "2", node.Dumps(r6.Get("sibling_total")))
				require.Equal(t, a5, r6.Get("prev_sibling_id").Str())
			}
		})
	}
}

// Turn 5's other shape: the placeholder was never inserted, so a system row
// under u5 carries the error and becomes the head.
func TestSection4StandaloneError(t *testing.T) {
	w := newWriter(t, "")
	buildSection4(t, w, false)
	require.NoError(t, w.WebUser(u5, "again", ""))
	require.NoError(t, w.ErrorStandalone("E5", "RuntimeError", "boom"))
	st := w.S.AtPersistedHead()
	require.Equal(t, "E5", st.PersistedHead())
	require.Equal(t, "failed", st.Meta.Get("status").Str())
	e := mustNode(t, st, "E5")
	require.Equal(t, "llm", e.Role)
	require.Equal(t, "", e.CalledBy)
	require.Equal(t, u5, e.ParentID())
	require.Equal(t, "system", e.Meta("role").Str())
	l := webui.Load(st, flags.Off)
	require.Equal(t, webui.HeadAt("E5"), l.HeadID)
	require.Equal(t, []string{u1, a1, u3, a3, u5, "E5"}, adapter.IDs(l.Chain))
	require.Equal(t, "system", byID(t, l.Chain, "E5").Role)
}

// ---- §5.1 ------------------------------------------------------------------

func TestSection5L1ThreeManualRuns(t *testing.T) {
	w := newWriter(t, "")
	for _, id := range []string{"F1", "F2", "F3"} {
		require.NoError(t, w.Manual(id, "word_count", `{"text":"hi"}`, ""))
		require.NoError(t, w.End("1", ""))
	}
	st := w.S.AtPersistedHead()
	require.Equal(t, "F3", st.PersistedHead())
	for _, m := range webui.Messages(st) {
		require.Equal(t, "tool", m.Role)
		require.Equal(t, "ROOT", pv(m.Get("parent_id")))
	}
	l := webui.Load(st, flags.Off)
	require.Equal(t, []string{"F3"}, adapter.IDs(l.Linear))
	require.Equal(t, []string{"F1", "F2", "F3"}, adapter.IDs(history.Branch(st, "")))
	require.True(t, l.FallbackUsed)
	require.Equal(t, []string{"F1", "F2", "F3"}, adapter.IDs(l.Chain), "R: all three cards")
	for _, m := range l.Chain {
		require.Equal(t, "status", m.Get("type").Str())
		require.Equal(t, "runtime", m.Get("display").Str())
	}
}

func TestSection5L2FunctionBeforeFirstChat(t *testing.T) {
	w := newWriter(t, "")
	require.NoError(t, w.Manual("F", "word_count", `{"text":"hi"}`, ""))
	require.NoError(t, w.End("1", ""))
	// No reload: the conv head is null when typing.
	require.NoError(t, w.WebUser(u1, "hello", ""))
	require.NoError(t, w.Reply())
	require.NoError(t, w.Say("hi"))
	require.NoError(t, w.Done())
	st := w.S.AtPersistedHead()
	msgs := webui.Messages(st)
	require.Equal(t, "ROOT", pv(byID(t, msgs, "F").Get("parent_id")))
	require.Equal(t, "ROOT", pv(byID(t, msgs, u1).Get("parent_id")))
	require.Equal(t, u1, pv(byID(t, msgs, a1).Get("parent_id")))

	l := webui.Load(st, flags.Off)
	require.Equal(t, webui.HeadAt(a1), l.HeadID)
	require.Equal(t, []string{u1, a1}, adapter.IDs(l.Linear))
	require.Equal(t, []string{"F", u1, a1}, adapter.IDs(history.Branch(st, "")))
	require.True(t, l.FallbackUsed)
	require.Equal(t, []string{"F", u1, a1}, adapter.IDs(l.Chain), "R shows the F card")
	require.Equal(t, "runtime", l.Chain[0].Get("display").Str())
}

func TestSection5L3HeadOnRootFunctionAfterChat(t *testing.T) {
	w := newWriter(t, "")
	require.NoError(t, w.WebUser(u1, "hello", ""))
	require.NoError(t, w.Reply())
	require.NoError(t, w.Say("hi"))
	require.NoError(t, w.Done())
	require.NoError(t, w.Manual("F", "word_count", `{"text":"hi"}`, ""))
	require.NoError(t, w.End("1", ""))
	st := w.S.AtPersistedHead()
	require.Equal(t, "F", st.PersistedHead())

	l := webui.Load(st, flags.Off)
	require.Equal(t, []string{"F"}, adapter.IDs(l.Linear))
	require.Equal(t, []string{"F"}, adapter.IDs(history.Branch(st, "")), "u1 has a conv child: stop")
	require.False(t, l.FallbackUsed)
	require.Equal(t, []string{"F"}, adapter.IDs(l.Chain), "not fixed at R: only the F card")
	require.Equal(t, "runtime", l.Chain[0].Get("display").Str())
}

func TestSection5L4TwoRootParentedUsers(t *testing.T) {
	w := newWriter(t, "")
	require.NoError(t, w.WebUser(u1, "one", ""))
	require.NoError(t, w.Reply())
	require.NoError(t, w.Done())
	require.NoError(t, w.ForkRoot("u2", "two", true))
	require.NoError(t, w.Reply())
	require.NoError(t, w.Done())
	st := w.S.AtPersistedHead()
	require.Equal(t, "u2_reply", st.PersistedHead())
	msgs := webui.Messages(st)
	require.Equal(t, "ROOT", pv(byID(t, msgs, u1).Get("parent_id")))
	require.Equal(t, "ROOT", pv(byID(t, msgs, "u2").Get("parent_id")))

	l := webui.Load(st, flags.Off)
	require.Equal(t, []string{"u2", "u2_reply"}, adapter.IDs(l.Linear))
	require.Equal(t, []string{"u2", "u2_reply"}, adapter.IDs(history.Branch(st, "")), "get_branch stops at u2")
	require.False(t, l.FallbackUsed)
	require.Equal(t, []string{"u2", "u2_reply"}, adapter.IDs(l.Chain), "not fixed at R")
}

// ---- §5.2 ------------------------------------------------------------------

// The minimal case, built from raw nodes: u1 a1 F u3(parent F) a3, with F's
// internal exec row. At R the card pass absorbs only F's llm internals.
func TestSection5_2UserRowsKeptAfterCard(t *testing.T) {
	s := store.New("s52")
	md := func(kv ...string) *node.Obj {
		o := &node.Obj{}
		for i := 0; i+1 < len(kv); i += 2 {
			o.Set(kv[i], node.Str(kv[i+1]))
		}
		return o
	}
	add := func(n *node.Node) {
		n.Seq = -1
		if n.Metadata == nil {
			n.Metadata = &node.Obj{}
		}
		if n.Input.K == node.Missing {
			n.Input = node.NullV()
		}
		n.CreatedAt = node.Num("1.0")
		n.Reads = node.Arr([]node.Value{})
		_, err := s.Append(n)
		require.NoError(t, err)
	}
	add(&node.Node{ID: "ROOT", Role: "user", Output: node.Str(""), Metadata: md("display", "root")})
	add(&node.Node{ID: "u1", Role: "user", Output: node.Str("hi"), CalledBy: "ROOT", Metadata: md("source", "web")})
	add(&node.Node{ID: "a1", Role: "llm", Output: node.Str("hello"), CalledBy: "u1", Metadata: md("parent_id", "u1", "status", "completed")})
	add(&node.Node{ID: "F", Role: "code", Name: "word_count", Input: node.ObjV(md("text", "hi")), Output: node.Num("1"), CalledBy: "ROOT", Metadata: md("expose", "io", "status", "completed")})
	add(&node.Node{ID: "Fx", Role: "llm", Name: "m", Output: node.Str("1"), CalledBy: "F", Metadata: md("status", "completed")})
	add(&node.Node{ID: "u3", Role: "user", Output: node.Str("thanks"), CalledBy: "ROOT", Metadata: md("source", "web", "parent_id", "F")})
	add(&node.Node{ID: "a3", Role: "llm", Output: node.Str("welcome"), CalledBy: "u3", Metadata: md("parent_id", "u3", "status", "completed")})
	require.NoError(t, s.SetHead("a3"))

	l := webui.Load(s.AtPersistedHead(), flags.Off)
	require.Equal(t, []string{"F", "u3", "a3"}, adapter.IDs(l.BeforeCards))
	require.Equal(t, []string{"F", "u3", "a3"}, adapter.IDs(l.Chain), "u3 and a3 are kept")
	require.Equal(t, "runtime", l.Chain[0].Get("display").Str())
	require.Equal(t, "user", l.Chain[1].Role)
	require.Equal(t, "assistant", l.Chain[2].Role)
}

// §2.5: a function that failed shows its output as Python's str() in the
// tree's error key.
func TestCardTreeErrorIsPythonStr(t *testing.T) {
	w := newWriter(t, "")
	require.NoError(t, w.Manual("F", "word_count", `{"text":"hi"}`, ""))
	require.NoError(t, w.End("", "boom"))
	require.NoError(t, w.Checkout("F")) // a run that raised leaves the head (R13)
	st := w.S.AtPersistedHead()
	fn := mustNode(t, st, "F")
	require.Equal(t, `{"error": "boom"}`, node.Dumps(fn.Output))
	require.Equal(t, "error", fn.Meta("status").Str())
	l := webui.Load(st, flags.Off)
	require.Equal(t, []string{"F"}, adapter.IDs(l.Chain))
	card := l.Chain[0]
	require.Equal(t, "error", card.Get("status").Str())
	tree := card.Get("context_tree").O
	require.Equal(t, "error", tree.Get("status").Str())
	require.Equal(t, "{'error': 'boom'}", tree.Get("error").Str())
	require.Equal(t, `{"error": "boom"}`, tree.Get("output").Str())
}

// §6 #17: a legacy tool row keeps its edge only in metadata.called_by; the
// message has parent_id "" and aggregation folds it through
// extra.tool_use.called_by (§3.4).
func TestLegacyToolFoldsViaExtraEdge(t *testing.T) {
	w := newWriter(t, "")
	require.NoError(t, w.WebUser(u1, "list files", ""))
	require.NoError(t, w.Reply())
	require.NoError(t, w.Tool("toolu_01", "bash", `{"cmd":"ls"}`, "a.txt", false, true, true))
	require.Equal(t, t1, w.S.Head(), "a caller-less append moves the in-memory head")
	require.NoError(t, w.Say("one file"))
	require.NoError(t, w.Done())
	st := w.S.AtPersistedHead()

	tn := mustNode(t, st, t1)
	require.Equal(t, "", tn.CalledBy)
	require.Equal(t, a1, tn.Meta("called_by").Str())
	msgs := webui.Messages(st)
	tm := byID(t, msgs, t1)
	require.Equal(t, "", pv(tm.Get("parent_id")))
	require.Equal(t, a1, tm.Get("caller").Str())
	require.False(t, tm.Get("called_by").IsSet(), "tool messages carry no top-level called_by at R")
	extra, err := node.Parse([]byte(tm.Get("extra").Str()))
	require.NoError(t, err)
	require.Equal(t, a1, extra.O.Get("tool_use").O.Get("called_by").Str())

	all := webui.Aggregate(msgs)
	require.Equal(t, []string{u1, a1}, adapter.IDs(all))
	require.Equal(t, []string{t1}, toolCallIDs(byID(t, all, a1)))
	l := webui.Load(st, flags.Off)
	require.Equal(t, []string{u1, a1}, adapter.IDs(l.Chain))
}
