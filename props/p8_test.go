package props

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"sessiondag/impl/adapter"
	"sessiondag/impl/node"
)

// TestP8AdapterRoundTrip: a message written through append_message and read
// back keeps every field it had (legacy §2.2 then §2.3). The adapter adds
// keys (session_id, caller, a default status) but never loses or changes one;
// a user's or an assistant's extra comes back as its keys, which
// append_message merged into the node's metadata in its place.
func TestP8AdapterRoundTrip(t *testing.T) {
	inProcessOnly(t, "the message adapter")
	rapid.Check(t, adapterRoundTrip)
}

// FuzzAdapterRoundTrip runs the same property from fuzzer bytes.
func FuzzAdapterRoundTrip(f *testing.F) {
	inProcessOnly(f, "the message adapter")
	f.Fuzz(rapid.MakeFuzz(adapterRoundTrip))
}

var (
	extraKeys   = []string{"source", "status", "display", "forked_from", "edit_of", "worker_id", "agent_id", "x-custom", "café"}
	valueTexts  = []string{"web", "done", "runtime", "a1", "ünïcode ☕", "", "line\nbreak", `q"uote`}
	argsObjects = []string{`{"cmd": "ls"}`, `{"q": "café", "n": 2}`, `{"nested": {"a": [1, 2.5, null]}}`}
)

func genValue(t *rapid.T, label string) node.Value {
	switch rapid.IntRange(0, 4).Draw(t, label+" kind") {
	case 0:
		return node.Num(fmt.Sprint(rapid.IntRange(-5, 1000).Draw(t, label+" int")))
	case 1:
		return node.BoolV(rapid.Bool().Draw(t, label+" bool"))
	case 2:
		return node.Num(rapid.SampledFrom([]string{"0.5", "2.0", "1782000001.5", "1e-07"}).Draw(t, label+" float"))
	}
	return node.Str(rapid.SampledFrom(valueTexts).Draw(t, label+" text"))
}

func genMessage(t *rapid.T) *node.Obj {
	m := &node.Obj{}
	role := rapid.SampledFrom([]string{"user", "assistant", "system", "tool"}).Draw(t, "role")
	m.Set("id", node.Str(rapid.StringMatching(`[0-9a-f]{8}`).Draw(t, "id")))
	m.Set("role", node.Str(role))
	m.Set("content", node.Str(rapid.StringMatching(`[a-z é☕]{1,12}`).Draw(t, "content")))
	m.Set("timestamp", node.Num(rapid.SampledFrom([]string{"1782000001.5", "1782000003.0", "17"}).Draw(t, "timestamp")))
	switch rapid.IntRange(0, 2).Draw(t, "parent") {
	case 1:
		m.Set("parent_id", node.Str(rapid.SampledFrom([]string{"ROOT", "u1", "a1_reply"}).Draw(t, "parent id")))
	case 2:
		m.Set("parent_id", node.NullV())
	}
	for _, k := range rapid.SliceOfNDistinct(rapid.SampledFrom(extraKeys), 0, 4, rapid.ID[string]).Draw(t, "keys") {
		m.Set(k, genValue(t, k))
	}
	switch role {
	case "assistant", "system":
		if rapid.Bool().Draw(t, "has called_by") {
			m.Set("called_by", node.Str(rapid.SampledFrom([]string{"u1", "F1"}).Draw(t, "called_by")))
		}
		if rapid.Bool().Draw(t, "has token_model") {
			m.Set("token_model", node.Str("model-x"))
		}
		if rapid.Bool().Draw(t, "has extra") {
			m.Set("extra", node.Str(`{"blocks": [{"type": "text", "text": "hi"}], "tool_calls": []}`))
		}
	case "tool":
		m.Set("function", node.Str(rapid.SampledFrom([]string{"bash", "grep"}).Draw(t, "function")))
		tu := &node.Obj{}
		if rapid.Bool().Draw(t, "tool_use called_by") {
			tu.Set("called_by", node.Str("a1_reply"))
		}
		args, _ := node.Parse([]byte(rapid.SampledFrom(argsObjects).Draw(t, "arguments")))
		tu.Set("arguments", args)
		extra := &node.Obj{}
		extra.Set("tool_use", node.ObjV(tu))
		if rapid.Bool().Draw(t, "extra rest") {
			extra.Set("note", node.Str("kept"))
		}
		m.Set("extra", node.Str(node.Dumps(node.ObjV(extra))))
	}
	return m
}

func adapterRoundTrip(t *rapid.T) {
	m := genMessage(t)
	n := adapter.FromMessage(m, func() string { return "fresh" }, node.Num("1782000000.0"))
	back := adapter.ToMessage("local_test", n, nil)
	role := m.Get("role").Str()
	for _, kv := range m.M {
		want := kv.Val
		got := back.Get(kv.Key)
		switch {
		case role == "tool" && kv.Key == "extra":
			checkToolExtra(t, m, back)
			continue
		case kv.Key == "extra":
			checkMergedExtra(t, m, back)
			continue
		case role == "tool" && kv.Key == "parent_id":
			if tuCaller(m) != "" {
				want = node.Str(tuCaller(m)) // the extra's edge wins
			} else if !want.Truthy() {
				want = node.Str("") // an empty edge reads back as ""
			}
		}
		if !got.IsSet() || node.Dumps(want) != node.Dumps(got) {
			t.Fatalf("key %q: wrote %s, read back %s\nmessage: %s\nnode: %s\nback: %s",
				kv.Key, node.Dumps(want), node.Dumps(got), node.Dumps(node.ObjV(m)), n.Encode(), node.Dumps(node.ObjV(back.F)))
		}
	}
}

// checkMergedExtra: the keys of a user's or an assistant's extra read back
// as keys of the message, where the message did not have them already.
func checkMergedExtra(t *rapid.T, m *node.Obj, back *adapter.Message) {
	x, err := node.Parse([]byte(m.Get("extra").Str()))
	if err != nil || x.K != node.Object {
		return
	}
	for _, kv := range x.O.M {
		if m.Has(kv.Key) {
			continue // the message's own key wins
		}
		if got := back.Get(kv.Key); !got.IsSet() || node.Dumps(got) != node.Dumps(kv.Val) {
			t.Fatalf("extra key %q: wrote %s, read back %s\nback: %s", kv.Key, node.Dumps(kv.Val), node.Dumps(got), node.Dumps(node.ObjV(back.F)))
		}
	}
	if back.Get("extra").IsSet() {
		t.Fatalf("extra read back itself; append_message takes it out: %s", node.Dumps(node.ObjV(back.F)))
	}
}

func tuCaller(m *node.Obj) string {
	p, err := node.Parse([]byte(m.Get("extra").Str()))
	if err != nil || p.K != node.Object {
		return ""
	}
	return p.O.Get("tool_use").O.Get("called_by").Str()
}

// checkToolExtra: the extra a tool message reads back with is rebuilt, but
// keeps the call's arguments and every other key.
func checkToolExtra(t *rapid.T, m *node.Obj, back *adapter.Message) {
	w, _ := node.Parse([]byte(m.Get("extra").Str()))
	g, err := node.Parse([]byte(back.Get("extra").Str()))
	if err != nil || g.K != node.Object {
		t.Fatalf("extra read back is not a JSON object: %q", back.Get("extra").Str())
	}
	if a, b := node.Dumps(w.O.Get("tool_use").O.Get("arguments")), node.Dumps(g.O.Get("tool_use").O.Get("arguments")); a != b {
		t.Fatalf("tool arguments: wrote %s, read back %s", a, b)
	}
	for _, kv := range w.O.M {
		if kv.Key != "tool_use" && node.Dumps(kv.Val) != node.Dumps(g.O.Get(kv.Key)) {
			t.Fatalf("extra key %q: wrote %s, read back %s", kv.Key, node.Dumps(kv.Val), node.Dumps(g.O.Get(kv.Key)))
		}
	}
}
