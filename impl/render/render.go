// Package render is render_context (legacy §3.3): which nodes a function's
// model call sees. At R it is pure, seq-only and branch-unaware.
package render

import (
	"slices"

	"sessiondag/impl/node"
)

// Range is a function's render_range: Callers < 0 keeps every pre-frame
// node, 0 none, N the last N; Subcalls < 0 keeps every in-frame node, N the
// newest N.
type Range struct {
	Callers  int
	Subcalls int
}

// NoRange keeps everything.
var NoRange = Range{Callers: -1, Subcalls: -1}

// Context returns the ids render_context shows, in seq order. headSeq < 0
// with a non-empty graph means "the maximum seq". The graph holds one node
// per id: a later duplicate is not added (Graph.add rejects it).
func Context(nodes []*node.Node, headSeq, frameEntrySeq int64, rng Range) []string {
	graph := make([]*node.Node, 0, len(nodes))
	seen := make(map[string]struct{}, len(nodes))
	var maxSeq int64 = -1
	for _, n := range nodes {
		if _, dup := seen[n.ID]; dup {
			continue
		}
		seen[n.ID] = struct{}{}
		graph = append(graph, n)
		maxSeq = max(maxSeq, n.Seq)
	}
	if headSeq < 0 {
		headSeq = maxSeq
	}
	if headSeq < 0 {
		return []string{}
	}
	slices.SortStableFunc(graph, node.CompareSeq)
	var pre, in []*node.Node
	for _, n := range graph {
		if n.Seq > headSeq {
			continue
		}
		if n.Seq > frameEntrySeq {
			in = append(in, n)
		} else {
			pre = append(pre, n)
		}
	}
	if rng.Callers >= 0 && len(pre) > rng.Callers {
		pre = pre[len(pre)-rng.Callers:]
	}
	chain := append(pre, in...)

	ioOwner := map[string]bool{}
	llmOwner := map[string]bool{}
	for _, n := range chain {
		if n.Role != node.RoleCode {
			continue
		}
		e := n.Meta("expose")
		switch {
		case !e.IsSet() || e.Str() == "io":
			ioOwner[n.ID] = true
		case e.Str() == "llm":
			llmOwner[n.ID] = true
		}
	}
	kept := make([]*node.Node, 0, len(chain))
	inFrame := make([]bool, 0, len(chain))
	for i, n := range chain {
		switch {
		case n.Role == node.RoleLLM && ioOwner[n.CalledBy]:
		case llmOwner[n.ID]:
		case n.Role == node.RoleCode && llmOwner[n.CalledBy]:
		default:
			kept = append(kept, n)
			inFrame = append(inFrame, i >= len(pre))
		}
	}
	if rng.Subcalls >= 0 {
		// Walking from the end, keep at most Subcalls in-frame nodes.
		budget := rng.Subcalls
		out := kept[:0:0]
		for i := len(kept) - 1; i >= 0; i-- {
			if inFrame[i] {
				if budget == 0 {
					continue
				}
				budget--
			}
			out = append(out, kept[i])
		}
		slices.Reverse(out)
		kept = out
	}
	ids := make([]string, len(kept))
	for i, n := range kept {
		ids[i] = n.ID
	}
	return ids
}
