package model

// renderContext is `render_context(graph, head_seq)` at R (legacy §3.3) with
// head_seq = max seq, no frame (frame_entry_seq = -1: every node in-frame),
// no render_range (subcalls -1: no cap). Pure, seq-only, branch-unaware: the
// graph is every node (ROOT and rewound too). Returns ids in seq order.
func renderContext(s *Session) []string {
	out := []string{}
	if len(s.Nodes) == 0 {
		return out // no nodes: head_seq < 0 → []
	}
	headSeq := s.Nodes[0].Seq
	for _, n := range s.Nodes {
		headSeq = max(headSeq, n.Seq)
	}
	if headSeq < 0 {
		return out
	}
	// visible = nodes with seq <= head_seq (the chain: pre-frame is empty).
	// The graph holds one node per id (Graph.add rejects duplicate ids, §1):
	// a later duplicate is left out.
	var chain []*Node
	inGraph := map[string]bool{}
	for _, n := range s.Nodes {
		if n.Seq <= headSeq && !inGraph[n.ID] {
			inGraph[n.ID] = true
			chain = append(chain, n)
		}
	}
	// Expose: code nodes with metadata.expose (default io when absent) = io
	// become io-owners, = llm llm-owners; any other value behaves like full.
	ioOwner, llmOwner := map[string]bool{}, map[string]bool{}
	for _, n := range chain {
		if n.Role != "code" {
			continue
		}
		expose, ok := n.meta().Get("expose")
		if !ok {
			expose = "io"
		}
		switch expose {
		case "io":
			ioOwner[n.ID] = true
		case "llm":
			llmOwner[n.ID] = true
		}
	}
	// Drop: llm nodes called by an io-owner; llm-owners themselves; code nodes
	// called by an llm-owner (direct children only).
	for _, n := range chain {
		switch {
		case n.Role == "llm" && ioOwner[n.CalledBy]:
		case llmOwner[n.ID]:
		case n.Role == "code" && llmOwner[n.CalledBy]:
		default:
			out = append(out, n.ID)
		}
	}
	return out
}
