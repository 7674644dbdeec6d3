package model

// render is `render_context(graph, head_seq)` at R (legacy §3.3) with
// head_seq = max seq, no frame (frame_entry_seq = -1: every node in-frame),
// no render_range (subcalls -1: no cap). Pure, seq-only, branch-unaware: the
// graph is every node (ROOT and rewound too). Returns ids in seq order.
func (rd *reading) render() []string {
	nodes := rd.s.Nodes
	out := []string{}
	if len(nodes) == 0 {
		return out // no nodes: head_seq < 0 → []
	}
	headSeq := nodes[0].Seq
	for _, n := range nodes {
		headSeq = max(headSeq, n.Seq)
	}
	if headSeq < 0 {
		return out
	}
	// visible = nodes with seq <= head_seq (the chain: pre-frame is empty),
	// which is every node. The graph holds one node per id (Graph.add
	// rejects duplicate ids, §1): a later duplicate is left out, and an id
	// names its first node.
	inGraph := func(n *Node) bool { return rd.idx.first[n.ID] == n }
	// Expose: code nodes with metadata.expose (default io when absent) = io
	// become io-owners, = llm llm-owners; any other value behaves like full.
	exposeOf := func(n *Node) any {
		if n == nil || n.Role != "code" {
			return nil
		}
		expose, ok := n.meta().Get("expose")
		if !ok {
			expose = "io"
		}
		return expose
	}
	owner := func(id string) any { return exposeOf(rd.idx.first[id]) }
	// Drop: llm nodes called by an io-owner; llm-owners themselves; code nodes
	// called by an llm-owner (direct children only).
	for _, n := range nodes {
		switch {
		case !inGraph(n):
		case n.Role == "llm" && owner(n.CalledBy) == "io":
		case exposeOf(n) == "llm": // n is the graph's node of its id
		case n.Role == "code" && owner(n.CalledBy) == "llm":
		default:
			out = append(out, n.ID)
		}
	}
	return out
}
