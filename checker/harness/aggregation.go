package harness

import (
	"fmt"
	"slices"

	"sessiondag/impl/adapter"
	"sessiondag/impl/node"
	"sessiondag/impl/webui"
)

// checkAggregationOf checks the aggregated list all against its input msgs
// (P6): each tool row folded exactly once into the assistant it names, in
// seq order, or kept in place as an orphan; nothing lost, duplicated or
// reordered; blocks equal to the extra's. An assistant may carry tool_calls
// and blocks of its own: the original merges an appended message's extra
// into the node's metadata (compaction's kept tail, the dispatcher's
// fallback write, importers). Its folded rows then follow its own calls,
// and its own blocks stay unless its extra has blocks. reread, when not
// nil, aggregates the same session afresh, to check that blocks taken from
// an extra are copies: a change to the blocks shown must not reach the
// stored value they came from.
func checkAggregationOf(msgs, all []*adapter.Message, reread func() []*adapter.Message) error {
	return NewAggregationCheck().Check(msgs, all, reread)
}

// AggregationCheck is CheckAggregation for several loads of one session
// (the audit's five configs): it keeps what they share, each extra string's
// blocks parsed once, and its work maps.
type AggregationCheck struct {
	blocks map[string]node.Value // an extra string → the blocks it holds
	asst   map[string]bool       // assistant ids of msgs
	folded map[string][]string   // assistant id → the tool rows that fold into it
	last   map[string]int        // assistant id → its last position in all
	calls  map[string]int        // tool row → how many assistants show it
}

// NewAggregationCheck starts one.
func NewAggregationCheck() *AggregationCheck {
	return &AggregationCheck{blocks: map[string]node.Value{}, asst: map[string]bool{},
		folded: map[string][]string{}, last: map[string]int{}, calls: map[string]int{}}
}

// extraBlocks is the blocks of an assistant's extra: a JSON string (parsed
// once per text) or an object.
func (c *AggregationCheck) extraBlocks(m *adapter.Message) node.Value {
	v := m.Get("extra")
	if v.K == node.Object {
		return v.O.Get("blocks")
	}
	extra := v.Str()
	b, ok := c.blocks[extra]
	if !ok {
		b = extraBlocks(extra)
		c.blocks[extra] = b
	}
	return b
}

// Check is CheckAggregation.
func (c *AggregationCheck) Check(msgs, all []*adapter.Message, reread func() []*adapter.Message) error {
	clear(c.asst)
	clear(c.folded)
	clear(c.last)
	clear(c.calls)
	for _, m := range msgs {
		if m.Role == "assistant" && m.ID != "" {
			c.asst[m.ID] = true
		}
	}
	wantKept := make([]*adapter.Message, 0, len(msgs))
	for _, m := range msgs {
		if m.Role == "tool" {
			if target := webui.ToolTarget(m); c.asst[target] {
				c.folded[target] = append(c.folded[target], m.ID)
				continue
			}
		}
		wantKept = append(wantKept, m)
	}
	if len(all) != len(wantKept) {
		return fmt.Errorf("kept %d rows, want %d: %v vs %v", len(all), len(wantKept), adapter.IDs(all), adapter.IDs(wantKept))
	}
	for i, m := range all {
		if m.ID != wantKept[i].ID {
			return fmt.Errorf("row %d is %s, want %s (reordered)", i, m.ID, wantKept[i].ID)
		}
		if m.Role == "assistant" {
			c.last[m.ID] = i
		}
	}
	var shown []shownBlocks
	var order []string // tool rows in the order the assistants show them
	for i, m := range all {
		if m.Role != "assistant" || c.last[m.ID] != i {
			continue
		}
		own := wantKept[i]
		calls := m.Get("tool_calls").A
		mine := ownCalls(own)
		if len(calls) < len(mine) || !sameImplValue(node.Arr(calls[:len(mine)]), node.Arr(mine)) {
			return fmt.Errorf("assistant %s: tool_calls do not start with its own %s", m.ID, node.Dumps(node.Arr(mine)))
		}
		var got []string
		for _, call := range calls[len(mine):] {
			tid := call.O.Get("tool_call_id").Str()
			got = append(got, tid)
			if c.calls[tid]++; c.calls[tid] == 2 {
				order = append(order, tid)
			}
		}
		if !slices.Equal(got, c.folded[m.ID]) {
			return fmt.Errorf("assistant %s folded %v, want %v in seq order", m.ID, got, c.folded[m.ID])
		}
		b := m.Get("blocks")
		want := c.extraBlocks(m)
		fromExtra := want.Truthy()
		if !fromExtra {
			want = own.Get("blocks")
		}
		// The same values are the same text; otherwise compare the text.
		if !sameImplValue(b, want) && node.Dumps(b) != node.Dumps(want) {
			return fmt.Errorf("assistant %s: blocks %s, want %s", m.ID, node.Dumps(b), node.Dumps(want))
		}
		if fromExtra && b.K == node.Array && len(b.A) > 0 {
			shown = append(shown, shownBlocks{m.ID, b.A})
		}
	}
	if len(order) > 0 {
		return fmt.Errorf("tool row %s folded %d times", order[0], c.calls[order[0]])
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
}

// copiedBlocks checks that shown blocks are copies: with each one's first
// block scribbled over, a fresh aggregation of the session (one for all of
// them) still shows every assistant's blocks as they were.
func copiedBlocks(shown []shownBlocks, reread func() []*adapter.Message) error {
	if len(shown) == 0 {
		return nil
	}
	saved := make([]node.Value, len(shown))
	dumped := make([]string, len(shown))
	for i, s := range shown {
		dumped[i] = node.Dumps(node.Arr(s.blocks))
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
	for i, s := range shown {
		if m := first[s.id]; m != nil && node.Dumps(m.Get("blocks")) != dumped[i] {
			return fmt.Errorf("assistant %s: blocks share storage between reads", s.id)
		}
	}
	return nil
}

// ownCalls is the tool_calls list an assistant's message carries before
// aggregation (from its node's metadata), nil when it has none.
func ownCalls(m *adapter.Message) []node.Value {
	if v := m.Get("tool_calls"); v.K == node.Array {
		return v.A
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
