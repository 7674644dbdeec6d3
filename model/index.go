package model

import "sort"

// index is what a plain program keeps about a session's nodes so that no
// rule finds a node by scanning the list: nodes by id, each node's call
// children, and what get_branch's rule 3 asks (§3.2). Nodes are only ever
// added, in list order; what it records of a node (id, called_by,
// metadata.parent_id) never changes once the node is written (the writer's
// updates touch output, status and flags only).
type index struct {
	byID      map[string]*Node   // nodes_by_id: the later node wins (§6 #23)
	first     map[string]*Node   // the first node of each id (render's graph, §3.3)
	kids      map[string][]*Node // called_by → nodes, in list order (context_tree, §2.5)
	roots     []*Node            // get_branch's roots, in list order (§3.2)
	rootMax   []int              // rootMax[i]: the highest seq among roots[:i+1]
	convNamed map[string]bool    // ids some node names as its metadata.parent_id
}

func newIndex(nodes []*Node) *index {
	x := &index{byID: make(map[string]*Node, len(nodes)), first: make(map[string]*Node, len(nodes)),
		kids: map[string][]*Node{}, convNamed: map[string]bool{}}
	for _, n := range nodes {
		x.add(n)
	}
	return x
}

// add records the next node of the list.
func (x *index) add(n *Node) {
	x.byID[n.ID] = n
	if x.first[n.ID] == nil {
		x.first[n.ID] = n
	}
	x.kids[n.CalledBy] = append(x.kids[n.CalledBy], n)
	parent := n.meta().Val("parent_id")
	if p, ok := parent.(string); ok {
		x.convNamed[p] = true
	}
	// A root: caller "" or "ROOT", no metadata.parent_id, not ROOT itself.
	if (n.CalledBy == "" || n.CalledBy == "ROOT") && !Truthy(parent) && n.ID != "ROOT" {
		top := n.Seq
		if k := len(x.rootMax); k > 0 {
			top = max(top, x.rootMax[k-1])
		}
		x.roots = append(x.roots, n)
		x.rootMax = append(x.rootMax, top)
	}
}

// rootBefore is rule 3's prev: scanning the roots in list order and stopping
// at the first with seq >= seq, the last root passed (nil if none). The
// first root with seq >= seq is the first place the running maximum reaches
// seq, so a binary search over rootMax finds it whatever the list order.
func (x *index) rootBefore(seq int) *Node {
	i := sort.Search(len(x.rootMax), func(i int) bool { return x.rootMax[i] >= seq })
	if i == 0 {
		return nil
	}
	return x.roots[i-1]
}
