package harness

import (
	"slices"
	"strings"
	"testing"

	"sessiondag/impl/adapter"
	"sessiondag/impl/node"
	"sessiondag/impl/webui"
)

// CheckAggregation's last rule: blocks shown are copies of the stored value
// they come from. Each aggregation below copies the blocks it shows from a
// stored value; when the blocks shown are that stored value itself, the
// scribble reaches the next aggregation and the check fails; when they are
// copies it passes, and the blocks shown are left as they were.
func TestCheckAggregationBlocksAreCopies(t *testing.T) {
	const extra = `{"tool_calls": [], "blocks": [{"type": "text", "text": "hi"}, {"type": "text", "text": "there"}]}`
	stored := map[string]node.Value{}
	for _, id := range []string{"a1", "a2"} {
		p, err := node.ParseString(extra)
		if err != nil {
			t.Fatal(err)
		}
		stored[id] = p.O.Get("blocks")
	}
	assistant := func(id string, blocks node.Value) *adapter.Message {
		v, err := node.ParseString(`{"id": "` + id + `", "role": "assistant", "content": "hi", "extra": ` + node.Dumps(node.Str(extra)) + `}`)
		if err != nil {
			t.Fatal(err)
		}
		m := adapter.New(v.O)
		m.Set("blocks", blocks)
		return m
	}
	aggregate := func(copies bool) []*adapter.Message {
		var out []*adapter.Message
		for _, id := range []string{"a1", "a2"} {
			b := stored[id]
			if copies {
				b = b.DeepClone()
			}
			out = append(out, assistant(id, b))
		}
		return out
	}
	reread := func() []*adapter.Message { return aggregate(true) }

	good := aggregate(true)
	if err := checkAggregationOf(good, good, reread); err != nil {
		t.Fatalf("blocks that are copies: %v", err)
	}
	bad := aggregate(false)
	err := checkAggregationOf(bad, bad, reread)
	if err == nil || !strings.Contains(err.Error(), "share storage") {
		t.Fatalf("blocks that are the stored value: got %v", err)
	}
	if got := node.Dumps(stored["a2"]); strings.Contains(got, "scribbled") {
		t.Fatalf("the check left its scribble in the stored blocks: %s", got)
	}
}

// An assistant with tool_calls and blocks of its own — what the original
// stores when it merges an appended message's extra into the node's
// metadata (compaction's kept tail, the dispatcher's fallback write) — is
// aggregated correctly when its folded rows follow its own calls and its
// own blocks stay unless its extra has blocks. Each deliberately broken
// aggregation below is caught.
func TestCheckAggregationOwnCallsAndBlocks(t *testing.T) {
	msg := func(text string) *adapter.Message {
		t.Helper()
		v, err := node.ParseString(text)
		if err != nil {
			t.Fatal(err)
		}
		return adapter.New(v.O)
	}
	own := `{"id": "a1", "role": "assistant", "content": "hi", "parent_id": "u1",` +
		` "tool_calls": [{"tool_call_id": "k1", "tool": "bash", "input": "", "result": "ok", "is_error": false}],` +
		` "blocks": [{"type": "text", "text": "kept"}]}`
	withExtra := `{"id": "a2", "role": "assistant", "content": "yo", "parent_id": "u1", "blocks": [{"type": "text", "text": "own"}],` +
		` "extra": ` + node.Dumps(node.Str(`{"blocks": [{"type": "text", "text": "from extra"}]}`)) + `}`
	tool := `{"id": "t1", "role": "tool", "content": "out", "parent_id": "a1", "caller": "a1", "function": "bash",` +
		` "extra": ` + node.Dumps(node.Str(`{"tool_use": {"name": "bash", "arguments": {}, "called_by": "a1"}}`)) + `}`
	raw := []*adapter.Message{msg(`{"id": "u1", "role": "user", "content": "q"}`), msg(own), msg(tool), msg(withExtra)}
	all := webui.Aggregate(raw)
	if err := checkAggregationOf(raw, all, nil); err != nil {
		t.Fatalf("the original's aggregation: %v", err)
	}
	calls := all[1].Get("tool_calls").A
	if len(calls) != 2 || calls[0].O.Get("tool_call_id").Str() != "k1" || calls[1].O.Get("tool_call_id").Str() != "t1" {
		t.Fatalf("a1's calls: %s", node.Dumps(all[1].Get("tool_calls")))
	}
	broken := map[string]func(a1, a2 *adapter.Message){
		"own calls dropped":   func(a1, _ *adapter.Message) { a1.Set("tool_calls", node.Arr(calls[1:])) },
		"folded before own":   func(a1, _ *adapter.Message) { a1.Set("tool_calls", node.Arr([]node.Value{calls[1], calls[0]})) },
		"own blocks dropped":  func(a1, _ *adapter.Message) { a1.F.Delete("blocks") },
		"extra's blocks lost": func(_, a2 *adapter.Message) { a2.Set("blocks", raw[3].Get("blocks")) },
	}
	for _, name := range []string{"own calls dropped", "folded before own", "own blocks dropped", "extra's blocks lost"} {
		bad := slices.Clone(all)
		bad[1], bad[2] = all[1].Copy(), all[2].Copy()
		broken[name](bad[1], bad[2])
		if err := checkAggregationOf(raw, bad, nil); err == nil {
			t.Errorf("%s: not caught", name)
		}
	}
}
