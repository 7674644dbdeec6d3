package webui

import (
	"slices"

	"sessiondag/impl/node"
)

// sortedBySeq returns the nodes in seq order (stable on ties), without
// copying when they already are.
func sortedBySeq(nodes []*node.Node) []*node.Node {
	if slices.IsSortedFunc(nodes, node.CompareSeq) {
		return nodes
	}
	c := slices.Clone(nodes)
	slices.SortStableFunc(c, node.CompareSeq)
	return c
}
