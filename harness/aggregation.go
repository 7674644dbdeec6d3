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
	var shown []shownBlocks
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
			shown = append(shown, shownBlocks{m.ID, b.A, orig})
		}
	}
	for tid, n := range seenCalls {
		if n != 1 {
			return fmt.Errorf("tool row %s folded %d times", tid, n)
		}
	}
	if reread != nil {
		return copiedBlocks(shown, reread)
	}
	return nil
}

// shownBlocks is an assistant's blocks as a load shows them.
type shownBlocks struct {
	id     string
	blocks []node.Value
	dumped string
}

// copiedBlocks checks that shown blocks are copies: with each one's first
// block scribbled over, a fresh aggregation of the session (one for all of
// them) still shows every assistant's blocks as they were.
func copiedBlocks(shown []shownBlocks, reread func() []*adapter.Message) error {
	if len(shown) == 0 {
		return nil
	}
	saved := make([]node.Value, len(shown))
	for i, s := range shown {
		saved[i], s.blocks[0] = s.blocks[0], node.Str("scribbled")
	}
	again := reread()
	for i, s := range shown {
		s.blocks[0] = saved[i]
	}
	first := make(map[string]*adapter.Message, len(again))
	for _, m := range again {
		if first[m.ID] == nil {
			first[m.ID] = m
		}
	}
	for _, s := range shown {
		if m := first[s.id]; m != nil && node.Dumps(m.Get("blocks")) != s.dumped {
			return fmt.Errorf("assistant %s: blocks share storage between reads", s.id)
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
