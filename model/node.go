package model

// Node is one stored `Call` record (legacy §1). Field order = key order on disk.
// Values that are free-form JSON (created_at, input, output, reads, metadata
// values) keep this package's JSON representation (see json.go).
type Node struct {
	ID        string  // unique within a session (not enforced on rebuild, §6 #23)
	CreatedAt any     // float unix seconds (messages expose it as `timestamp`)
	Seq       int     // append counter, canonical time order
	Role      string  // "user" | "llm" | "code"
	Name      string  // llm: model id; code: tool/function name; user: ""
	Input     any     // code: arguments; llm exec: {"system": …}; else null
	Output    any     // user: text; llm: reply; code: result (any JSON)
	CalledBy  string  // call edge: "" none, "ROOT" top level, else a node id
	Reads     any     // always [] at R
	Metadata  *Object // everything else, incl. the conversation edge `parent_id`
}

// Session is a session as the store's index holds it after a rebuild (§2.1).
type Session struct {
	ID     string  // the session id (directory name)
	Nodes  []*Node // nodes_by_seq: every parsed node, duplicates kept
	HeadID string  // the index head: meta head_id, else last_node_id
	Meta   *Object // meta.json as read; empty when the folder has none
	// Dir is the folder the session was read from ("" for one built in
	// memory): the load reads the context commits attach rows name there.
	Dir string
}

// meta returns node metadata, never nil.
func (n *Node) meta() *Object {
	if n.Metadata == nil {
		n.Metadata = &Object{}
	}
	return n.Metadata
}

// isRootNode: the synthetic ROOT is recognised by `metadata.display == "root"` (§1, §2.1).
func (n *Node) isRootNode() bool { return n.meta().Str("display") == "root" }

// isRewound: `metadata.rewound` hides a node from reads (§1, §6 #20).
func (n *Node) isRewound() bool { return Truthy(n.meta().Val("rewound")) }

// byID is nodes_by_id: on duplicate ids the later node in seq order wins (§6 #23).
func (s *Session) byID(id string) *Node {
	var found *Node
	for _, n := range s.Nodes {
		if n.ID == id {
			found = n
		}
	}
	return found
}
