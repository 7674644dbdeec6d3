package harness

import (
	"fmt"
	"slices"

	"sessiondag/impl/adapter"
	"sessiondag/impl/node"
	"sessiondag/impl/webui"
)

// CheckAggregation checks the aggregated list all against its input msgs
// (P6): each tool row folded exactly once into the assistant it names, in
// seq order, or kept in place as an orphan; nothing lost, duplicated or
// reordered; blocks equal to the extra's. reread, when not nil, aggregates
// the same session afresh, to check that blocks are copies: a change to
// the blocks shown must not reach the stored value they came from.
func CheckAggregation(msgs, all []*adapter.Message, reread func() []*adapter.Message) error {
	return ExtraBlocks{}.CheckAggregation(msgs, all, reread)
}

// ExtraBlocks remembers, per `extra` string, the blocks it holds as
// node.Dumps writes them: checks of several loads of one session (the
// audit's five configs) parse each extra once.
type ExtraBlocks map[string]string

func (e ExtraBlocks) of(m *adapter.Message) string {
	extra := m.Get("extra").Str()
	b, ok := e[extra]
	if !ok {
		b = node.Dumps(extraBlocks(extra))
		e[extra] = b
	}
	return b
}

// CheckAggregation is the package's CheckAggregation with e's blocks.
func (e ExtraBlocks) CheckAggregation(msgs, all []*adapter.Message, reread func() []*adapter.Message) error {
	asst := make(map[string]bool, len(msgs))
	for _, m := range msgs {
		if m.Role == "assistant" && m.ID != "" {
			asst[m.ID] = true
		}
	}
	wantKept := make([]*adapter.Message, 0, len(msgs))
	folded := make(map[string][]string, len(msgs))
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
		return fmt.Errorf("kept %d rows, want %d: %v vs %v", len(all), len(wantKept), IDs(all), IDs(wantKept))
	}
	lastAsst := make(map[string]int, len(all))
	for i, m := range all {
		if m.ID != wantKept[i].ID {
			return fmt.Errorf("row %d is %s, want %s (reordered)", i, m.ID, wantKept[i].ID)
		}
		if m.Role == "assistant" {
			lastAsst[m.ID] = i
		}
	}
	seenCalls := make(map[string]int, len(msgs)-len(all))
	for i, m := range all {
		if m.Role != "assistant" || lastAsst[m.ID] != i {
			continue
		}
		var got []string
		for _, c := range m.Get("tool_calls").A {
			tid := c.O.Get("tool_call_id").Str()
			got = append(got, tid)
			seenCalls[tid]++
		}
		if !slices.Equal(got, folded[m.ID]) {
			return fmt.Errorf("assistant %s folded %v, want %v in seq order", m.ID, got, folded[m.ID])
		}
		if b := m.Get("blocks"); b.K == node.Array && len(b.A) > 0 {
			orig := node.Dumps(b)
			if want := e.of(m); orig != want {
				return fmt.Errorf("assistant %s: blocks %s, want the extra's %s", m.ID, orig, want)
			}
			if reread != nil {
				saved := b.A[0]
				b.A[0] = node.Str("scribbled") // a copy: this must not show in the next read
				again := byID(reread(), m.ID)
				b.A[0] = saved
				if again != nil && node.Dumps(again.Get("blocks")) != orig {
					return fmt.Errorf("assistant %s: blocks share storage between reads", m.ID)
				}
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

func byID(ms []*adapter.Message, id string) *adapter.Message {
	for _, m := range ms {
		if m.ID == id {
			return m
		}
	}
	return nil
}

func extraBlocks(extra string) node.Value {
	p, err := node.ParseString(extra)
	if err != nil || p.K != node.Object {
		return node.Value{}
	}
	return p.O.Get("blocks")
}

// IDs lists the ids of messages.
func IDs(ms []*adapter.Message) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.ID
	}
	return out
}
