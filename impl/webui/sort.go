package webui

import (
	"slices"

	"sessiondag/impl/node"
)

// sortedBySeq returns the nodes in seq order (stable on ties), without
// copying when they already are.
func sortedBySeq(nodes []*node.Node) []*node.Node {
	if slices.IsSortedFunc(nodes, cmpSeq) {
		return nodes
	}
	c := slices.Clone(nodes)
	slices.SortStableFunc(c, cmpSeq)
	return c
}

func cmpSeq(a, b *node.Node) int {
	switch {
	case a.Seq < b.Seq:
		return -1
	case a.Seq > b.Seq:
		return 1
	}
	return 0
}
