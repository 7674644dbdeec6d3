package model

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Hand-made node lists for docs/legacy.md §4 (worked example), §5.1 L1–L4
// and §5.2. Expected values are the doc's tables.

func mkNode(seq int, id, role, name, calledBy string, input, output any, meta ...any) *Node {
	return &Node{ID: id, CreatedAt: Float(1782000000 + float64(seq)), Seq: seq, Role: role, Name: name,
		Input: input, Output: output, CalledBy: calledBy, Reads: []any{}, Metadata: newObject(meta...)}
}

func rootNode() *Node { return mkNode(0, "ROOT", "user", "", "", nil, "", "display", "root") }

func ids(ms []*Object) []string {
	out := []string{}
	for _, m := range ms {
		out = append(out, msgID(m))
	}
	return out
}

func rowByID(ms []*Object, id string) *Object {
	for _, m := range ms {
		if msgID(m) == id {
			return m
		}
	}
	return nil
}

// Ids of §4.
const (
	u1 = "9f1c2a7b"
	a1 = "9f1c2a7b_reply"
	t1 = "9f1c2a7b_reply_t_toolu_01"
	fF = "5e6f7a8b9c0d"
	fx = "1a2b3c4d5e6f"
	u3 = "c0ffee12"
	a3 = "c0ffee12_reply"
)

// workedExample builds §4's session: u3's parent is F (variant A) or a1 (B).
func workedExample(u3Parent string) *Session {
	extra := `{"tool_calls": [{"id": "toolu_01", "tool_call_id": "toolu_01", "tool": "bash", "input": "{\"cmd\": \"ls\"}", "result": "a.txt\nb.txt", "is_error": false}], ` +
		`"blocks": [{"type": "thinking", "text": "hmm"}, {"type": "text", "text": "Let me look"}, {"type": "tool", "tool": "bash", "tool_call_id": "toolu_01", "input": "{\"cmd\": \"ls\"}", "result": "a.txt\nb.txt", "is_error": false}, {"type": "text", "text": "There are 2 files"}]}`
	return &Session{ID: "local_0a1b2c3d4e", HeadID: a3, Nodes: []*Node{
		rootNode(),
		mkNode(1, u1, "user", "", "ROOT", nil, "list files", "source", "web"),
		mkNode(2, a1, "llm", "", u1, nil, "Let me look\nThere are 2 files",
			"parent_id", u1, "source", "web", "status", "completed", "token_model", "m", "extra", extra),
		mkNode(3, t1, "code", "bash", a1, newObject("cmd", "ls"), "a.txt\nb.txt",
			"tool_call_id", "toolu_01", "is_error", false),
		mkNode(4, fF, "code", "word_count", "ROOT", newObject("text", "hi"), Int("2"),
			"expose", "io", "status", "completed", "duration_seconds", Float(0.25)),
		mkNode(5, fx, "llm", "model", fF, newObject("system", "count"), "2 words",
			"status", "completed", "prompt_text", "count the words"),
		mkNode(6, u3, "user", "", "ROOT", nil, "thanks", "parent_id", u3Parent, "source", "web"),
		mkNode(7, a3, "llm", "", u3, nil, "you're welcome", "parent_id", u3, "status", "completed"),
	}}
}

func TestWorkedExampleMessages(t *testing.T) {
	for _, variant := range []struct{ name, u3Parent string }{{"A", fF}, {"B", a1}} {
		t.Run(variant.name, func(t *testing.T) {
			v := LegacyView(workedExample(variant.u3Parent))
			// The node/message table of §4 (ROOT hidden).
			require.Equal(t, []string{u1, a1, t1, fF, fx, u3, a3}, ids(v.Messages))
			want := []struct {
				id, role  string
				parent    string
				calledBy  any // nil = no top-level called_by key
				hasCalled bool
			}{
				{u1, "user", "ROOT", nil, false},
				{a1, "assistant", u1, u1, true},
				{t1, "tool", a1, nil, false},
				{fF, "tool", "ROOT", nil, false},
				{fx, "assistant", fF, fF, true},
				{u3, "user", variant.u3Parent, nil, false},
				{a3, "assistant", u3, u3, true},
			}
			for i, w := range want {
				m := v.Messages[i]
				assert.Equal(t, w.role, m.Val("role"), w.id)
				assert.Equal(t, w.parent, m.Val("parent_id"), w.id)
				cb, has := m.Get("called_by")
				assert.Equal(t, w.hasCalled, has, w.id)
				assert.Equal(t, w.calledBy, cb, w.id)
			}
			// The tool row's extra is Python json.dumps text.
			assert.Equal(t, `{"tool_use": {"name": "bash", "arguments": {"cmd": "ls"}, "called_by": "", "tool_call_id": "toolu_01"}}`,
				rowByID(v.Messages, t1).Val("extra"))
			assert.Equal(t, "2", rowByID(v.Messages, fF).Val("content"))

			// Aggregation: t1 folds into a1; all = [u1, a1, F, Fx, u3, a3].
			require.Equal(t, []string{u1, a1, fF, fx, u3, a3}, ids(v.All))
			calls := rowByID(v.All, a1).Val("tool_calls").([]any)
			require.Len(t, calls, 1)
			assert.Equal(t, newObject("tool_call_id", t1, "tool", "bash", "input", `{"cmd": "ls"}`,
				"result", "a.txt\nb.txt", "is_error", false), calls[0])
			assert.Len(t, rowByID(v.All, a1).Val("blocks").([]any), 4)
			assert.False(t, rowByID(v.Messages, a1).Has("tool_calls"), "get_messages stays raw")
			assert.Equal(t, a3, v.StoredHead)
			assert.Equal(t, headAt(a3), v.HeadID)
		})
	}
}

func TestWorkedExampleVariantA(t *testing.T) {
	s := workedExample(fF)
	all := aggregateToolMessages(getMessages(s))
	assert.Equal(t, []string{fF, u3, a3}, ids(linearHistory(all, a3)))
	// get_branch: a3→u3→F; F is a root, previous root u1 has conv child a1 → stop.
	assert.Equal(t, []string{fF, u3, a3}, ids(getBranch(s, a3)))

	v := LegacyView(s)
	assert.False(t, v.FallbackUsed, "not longer → keep")
	// runtime cards R: F→{Fx}; drop {Fx} ⇒ [F-card, u3, a3]; u1, a1 missing.
	require.Equal(t, []string{fF, u3, a3}, ids(v.Chain))
	card := v.Chain[0]
	assert.Equal(t, "assistant", card.Val("role"))
	assert.Equal(t, "status", card.Val("type"))
	assert.Equal(t, "runtime", card.Val("display"))
	assert.Equal(t, "word_count", card.Val("function"))
	assert.Equal(t, "", card.Val("parent_id"))
	assert.Equal(t, "completed", card.Val("status"))
	tree, err := json.Marshal(card.Val("context_tree"))
	require.NoError(t, err)
	assert.JSONEq(t, `{"path": "`+fF+`", "name": "word_count", "status": "completed", "duration_ms": 250,
		"params": {"text": "hi"}, "output": "2",
		"children": [{"path": "`+fx+`", "name": "model", "status": "completed", "node_type": "exec",
			"params": {"_content": "{\"system\": \"count\"}"}, "raw_reply": "2 words"}]}`, string(tree))
	// Sibling keys: the card's siblings come from its all-row (parent "ROOT": u1, F).
	assert.Equal(t, Int("2"), card.Val("sibling_index"))
	assert.Equal(t, Int("2"), card.Val("sibling_total"))
	assert.Equal(t, a1, card.Val("prev_sibling_id"))
	assert.Nil(t, card.Val("next_sibling_id"))
	// u3's siblings under F: Fx and u3.
	assert.Equal(t, Int("2"), v.Chain[1].Val("sibling_index"))
	assert.Equal(t, fx, v.Chain[1].Val("prev_sibling_id"))
	assert.Equal(t, Int("1"), v.Chain[2].Val("sibling_total"))
	assert.Nil(t, v.Chain[2].Val("prev_sibling_id"))
	// render_context at max seq: seq-only; Fx is hidden by F's expose io.
	assert.Equal(t, []string{"ROOT", u1, a1, t1, fF, u3, a3}, v.Render)
}

func TestWorkedExampleVariantB(t *testing.T) {
	s := workedExample(a1)
	all := aggregateToolMessages(getMessages(s))
	assert.Equal(t, []string{u1, a1, u3, a3}, ids(linearHistory(all, a3)))
	assert.Equal(t, []string{u1, a1, u3, a3}, ids(getBranch(s, a3)))
	v := LegacyView(s)
	assert.False(t, v.FallbackUsed)
	// F not in chain ⇒ [u1, a1, u3, a3]; the F card is what is missing.
	assert.Equal(t, []string{u1, a1, u3, a3}, ids(v.Chain))
	assert.True(t, v.Chain[1].Has("tool_calls"), "chain rows are aggregated")
	assert.Equal(t, []string{u1, a1, u3, a3}, ids(v.Branch))
	assert.False(t, v.Branch[1].Has("tool_calls"), "get_branch rows are raw")
}

// manualFn is a ROOT-called function row (fn-form run).
func manualFn(seq int, id string) *Node {
	return mkNode(seq, id, "code", "fn", "ROOT", newObject("x", Int("1")), "ok", "expose", "io", "status", "completed")
}

func userTurn(seq int, id, parent string) *Node {
	if parent == "" {
		return mkNode(seq, id, "user", "", "ROOT", nil, "q "+id, "source", "web")
	}
	return mkNode(seq, id, "user", "", "ROOT", nil, "q "+id, "parent_id", parent, "source", "web")
}

func reply(seq int, id, user string) *Node {
	return mkNode(seq, id, "llm", "", user, nil, "a "+id, "parent_id", user, "status", "completed")
}

func session(head string, nodes ...*Node) *Session {
	return &Session{ID: "local_test", HeadID: head, Nodes: append([]*Node{rootNode()}, nodes...)}
}

func TestL1ThreeManualRuns(t *testing.T) {
	s := session("F3", manualFn(1, "F1"), manualFn(2, "F2"), manualFn(3, "F3"))
	all := aggregateToolMessages(getMessages(s))
	assert.Equal(t, []string{"F3"}, ids(linearHistory(all, "F3")))
	assert.Equal(t, []string{"F1", "F2", "F3"}, ids(getBranch(s, "F3")))
	v := LegacyView(s)
	assert.True(t, v.FallbackUsed)
	require.Equal(t, []string{"F1", "F2", "F3"}, ids(v.Chain)) // R: all three cards
	for _, r := range v.Chain {
		assert.Equal(t, "status", r.Val("type"))
	}
}

func TestL2FunctionBeforeFirstTurn(t *testing.T) {
	s := session("a1", manualFn(1, "F"), userTurn(2, "u1", ""), reply(3, "a1", "u1"))
	all := aggregateToolMessages(getMessages(s))
	assert.Equal(t, []string{"u1", "a1"}, ids(linearHistory(all, "a1")))
	v := LegacyView(s)
	assert.True(t, v.FallbackUsed)
	require.Equal(t, []string{"F", "u1", "a1"}, ids(v.Chain)) // R shows the F card
	assert.Equal(t, "status", v.Chain[0].Val("type"))
}

func TestL3HeadOnFunctionAfterChat(t *testing.T) {
	s := session("F", userTurn(1, "u1", ""), reply(2, "a1", "u1"), manualFn(3, "F"))
	all := aggregateToolMessages(getMessages(s))
	assert.Equal(t, []string{"F"}, ids(linearHistory(all, "F")))
	assert.Equal(t, []string{"F"}, ids(getBranch(s, "F"))) // u1 has a conv child → stop
	v := LegacyView(s)
	assert.False(t, v.FallbackUsed)
	require.Equal(t, []string{"F"}, ids(v.Chain)) // not fixed at R: only the F card
	assert.Equal(t, "status", v.Chain[0].Val("type"))
}

func TestL4TwoRootParentedUsers(t *testing.T) {
	s := session("a2", userTurn(1, "u1", ""), reply(2, "a1", "u1"), userTurn(3, "u2", ""), reply(4, "a2", "u2"))
	all := aggregateToolMessages(getMessages(s))
	assert.Equal(t, []string{"u2", "a2"}, ids(linearHistory(all, "a2")))
	assert.Equal(t, []string{"u2", "a2"}, ids(getBranch(s, "a2")))
	v := LegacyView(s)
	assert.False(t, v.FallbackUsed)
	assert.Equal(t, []string{"u2", "a2"}, ids(v.Chain)) // not fixed at R
	// u1 and u2 are siblings under "ROOT".
	assert.Equal(t, Int("2"), v.Chain[0].Val("sibling_total"))
	assert.Equal(t, "a1", v.Chain[0].Val("prev_sibling_id"))
}

func TestUserRowsKeptByRuntimeCards(t *testing.T) {
	// §5.2: u1 a1 F(ROOT) u3(parent F) a3; chain contains F, u3, a3.
	nodes := []*Node{userTurn(1, "u1", ""), reply(2, "a1", "u1"), manualFn(3, "F"),
		mkNode(4, "Fx", "llm", "model", "F", nil, "inner", "status", "completed"),
		userTurn(5, "u3", "F"), reply(6, "a3", "u3")}
	v := LegacyView(session("a3", nodes...))
	assert.Equal(t, []string{"F", "u3", "a3"}, ids(v.Chain), "u3, a3 survive (476aa8f6)")

	// With the head on F's internal llm row the chain is [F, Fx]: Fx is
	// F's called_by child and is absorbed by the card.
	v = LegacyView(session("Fx", nodes...))
	assert.Equal(t, []string{"F"}, ids(v.Chain))
}

func TestCrashHeadOnToolRow(t *testing.T) {
	// §6 #15: stored head on a folded tool row. The fix-up walks raw parent_id
	// to the reply; the fallback from the STORED head returns raw rows, longer.
	s := session("t1", userTurn(1, "u1", ""),
		mkNode(2, "a1", "llm", "", "u1", nil, "", "parent_id", "u1", "status", "running"),
		mkNode(3, "t1", "code", "bash", "a1", newObject("cmd", "ls"), "out", "tool_call_id", "toolu_1", "is_error", false),
		// another branch, so that the chain (2) is shorter than all (3)
		mkNode(4, "r1", "user", "", "", nil, "retry", "parent_id", "ROOT", "forked_from", "u1"))
	v := LegacyView(s)
	assert.Equal(t, "t1", v.StoredHead)
	assert.Equal(t, headAt("a1"), v.HeadID)
	assert.True(t, v.FallbackUsed)
	require.Equal(t, []string{"u1", "a1", "t1"}, ids(v.Chain))
	assert.False(t, v.Chain[1].Has("tool_calls"), "fallback rows are un-aggregated")
	assert.Equal(t, "tool", v.Chain[2].Val("role"), "raw tool row, its caller is an assistant: no card")
	assert.Equal(t, Int("0"), v.Chain[2].Val("sibling_index"), "folded id is not in all")
}

func TestViewMarshals(t *testing.T) {
	v := LegacyView(workedExample(fF))
	b, err := json.Marshal(v)
	require.NoError(t, err)
	var doc map[string]any
	require.NoError(t, json.Unmarshal(b, &doc))
	for _, k := range []string{"session_id", "stored_head", "head_id", "fallback_used", "messages", "all", "chain", "branch", "render"} {
		assert.Contains(t, doc, k)
	}
	assert.Contains(t, string(b), `"timestamp":1782000001.0`, "float keeps its .0")

	empty, err := json.Marshal(LegacyView(&Session{ID: "x"}))
	require.NoError(t, err)
	assert.JSONEq(t, `{"session_id":"x","stored_head":"","head_id":null,"fallback_used":false,
		"messages":[],"all":[],"chain":[],"branch":[],"render":[]}`, string(empty))
}
