// Package lane classifies nodes into the conversation lane (what a user sees
// as a chat row) and the call lane (tool rows and function internals, which
// fold into their caller). Flag A's writers and adapter both need it.
package lane

import (
	"sessiondag/impl/node"
)

// Lookup finds a node by id.
type Lookup func(id string) (*node.Node, bool)

// IsConv reports whether n is a conversation-lane node (docs/rollout.md §2):
// user turns, chat replies, top-level function runs, standalone error rows,
// attach pointers. ROOT, tool rows, function internals and ask_user rows are
// not.
func IsConv(n *node.Node, get Lookup) bool {
	if n.IsRoot() {
		return false
	}
	switch n.Role {
	case node.RoleUser:
		// ask_user rows carry their question as input and hang off a function.
		return n.Input.K == node.Null || n.Input.K == node.Missing || n.CalledBy == "" || n.CalledBy == node.RootID
	case node.RoleLLM:
		if n.Metadata.Get("function").Str() == "attach" || n.Metadata.Get("role").Str() == "system" {
			return true
		}
		if n.CalledBy == "" || n.CalledBy == node.RootID {
			return true
		}
		// A reply to a user row, an ask_user row included: a retry of one
		// with no answer yet makes it the turn the reply answers.
		c, ok := get(n.CalledBy)
		return ok && c.Role == node.RoleUser
	case node.RoleCode:
		if n.Metadata.Get("called_by").Truthy() {
			return false // a legacy tool row: its edge lives in metadata
		}
		return n.CalledBy == "" || n.CalledBy == node.RootID
	}
	return false
}

// Anchor climbs from id over called_by to the nearest conversation-lane
// node: the conversation position a head on a tool row or a function
// internal stands for. It returns "ROOT" for an empty session position
// (no head, ROOT, or a climb that reaches no such node).
func Anchor(id string, get Lookup) string {
	var seen map[string]bool // only long climbs need a cycle guard's memory
	for steps := 0; id != "" && id != node.RootID && !seen[id]; steps++ {
		if steps >= 64 {
			if seen == nil {
				seen = make(map[string]bool)
			}
			seen[id] = true
		}
		n, ok := get(id)
		if !ok {
			break
		}
		if IsConv(n, get) {
			return n.ID
		}
		next := n.CalledBy
		if next == "" {
			next = n.Metadata.Get("called_by").Str()
		}
		id = next
	}
	return node.RootID
}
