package props

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"sessiondag/gen"
	"sessiondag/impl/adapter"
	"sessiondag/impl/flags"
	"sessiondag/impl/node"
	"sessiondag/impl/webui"
)

// TestP6AggregationConservation: aggregation folds each tool row exactly
// once into the assistant it names, or keeps it in place as an orphan;
// nothing is lost, duplicated or reordered, and blocks are copies.
func TestP6AggregationConservation(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := newImplSession(t, "TestP6AggregationConservation", "", gen.Options{Legacy: true}, flags.Off)
		t.Repeat(map[string]func(*rapid.T){"op": s.step, "": func(t *rapid.T) {
			msgs := webui.Messages(s.run.W.S)
			all := webui.Aggregate(msgs)
			reread := func() []*adapter.Message { return webui.Aggregate(webui.Messages(s.run.W.S)) }
			if err := conserved(msgs, all, reread); err != nil {
				report(t, s.name, s.script, "aggregation broke conservation", err.Error())
			}
		}})
	})
}

// conserved checks the aggregated list against its input.
func conserved(msgs, all []*adapter.Message, reread func() []*adapter.Message) error {
	asst := map[string]bool{}
	for _, m := range msgs {
		if m.Role == "assistant" && m.ID != "" {
			asst[m.ID] = true
		}
	}
	// The rows kept, in order: every non-tool row and every tool row whose
	// target is not an assistant.
	var wantKept []*adapter.Message
	folded := map[string][]string{} // assistant → tool ids in seq order
	for _, m := range msgs {
		if m.Role == "tool" {
			if target := webui.ToolTarget(m); asst[target] {
				folded[target] = append(folded[target], m.ID)
				continue
			}
		}
		wantKept = append(wantKept, m)
	}
	if len(all) != len(wantKept) {
		return fmt.Errorf("kept %d rows, want %d: %v vs %v", len(all), len(wantKept), ids(all), ids(wantKept))
	}
	seenCalls := map[string]int{}
	lastAsst := map[string]int{}
	for i, m := range all {
		if m.ID != wantKept[i].ID {
			return fmt.Errorf("row %d is %s, want %s (reordered)", i, m.ID, wantKept[i].ID)
		}
		if m.Role == "assistant" {
			lastAsst[m.ID] = i
		}
	}
	for id, i := range lastAsst {
		m := all[i]
		var got []string
		for _, c := range m.Get("tool_calls").A {
			tid := c.O.Get("tool_call_id").Str()
			got = append(got, tid)
			seenCalls[tid]++
		}
		if fmt.Sprint(got) != fmt.Sprint(folded[id]) {
			return fmt.Errorf("assistant %s folded %v, want %v in seq order", id, got, folded[id])
		}
		if b := m.Get("blocks"); b.K == node.Array && len(b.A) > 0 {
			orig := node.Dumps(b)
			if want := node.Dumps(extraBlocksOf(m)); orig != want {
				return fmt.Errorf("assistant %s: blocks %s, want the extra's %s", id, orig, want)
			}
			// A copy: scribbling on it must not show in the next read.
			b.A[0] = node.Str("scribbled")
			if again := msgByID(reread(), id); again != nil && node.Dumps(again.Get("blocks")) != orig {
				return fmt.Errorf("assistant %s: blocks share storage between reads", id)
			}
		}
	}
	for tid, n := range seenCalls {
		if n != 1 {
			return fmt.Errorf("tool row %s folded %d times", tid, n)
		}
	}
	return nil
}

func msgByID(ms []*adapter.Message, id string) *adapter.Message {
	for _, m := range ms {
		if m.ID == id {
			return m
		}
	}
	return nil
}

// extraBlocksOf re-reads the blocks from the message's stored extra.
func extraBlocksOf(m *adapter.Message) node.Value {
	p, err := node.Parse([]byte(m.Get("extra").Str()))
	if err != nil || p.K != node.Object {
		return node.Value{}
	}
	return p.O.Get("blocks")
}

func ids(ms []*adapter.Message) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.ID
	}
	return out
}
