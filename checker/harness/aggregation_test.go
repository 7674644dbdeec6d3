package harness

import (
	"strings"
	"testing"

	"sessiondag/impl/adapter"
	"sessiondag/impl/node"
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
