package model

import (
	"math"
	"math/big"
)

// cards is `_rebuild_runtime_cards(chain, all_msgs, sid)` (legacy §3.6, R).
func (rd *reading) cards(chain, all []*Object) []*Object {
	// role_of = id → role over the aggregated list (folded tool ids are absent).
	roleOf := make(map[string]any, len(all))
	for _, m := range all {
		roleOf[msgID(m)] = m.Val("role")
	}
	// children_of (R, 476aa8f6): messages with a truthy top-level `called_by`
	// other than "ROOT", under that id. Only llm rows carry the key at R.
	childrenOf := map[string][]string{}
	for _, m := range all {
		edge := m.Val("called_by")
		if cb, ok := edge.(string); ok && cb != "" && cb != "ROOT" {
			childrenOf[cb] = append(childrenOf[cb], msgID(m))
		}
	}
	drop := map[string]bool{}
	var out []*Object
	for _, row := range chain {
		id := msgID(row)
		if drop[id] {
			continue
		}
		// top code (R): role tool and role_of[target] != "assistant", where
		// target = called_by or parent_id or "".
		target, _ := or(or(row.Val("called_by"), row.Val("parent_id")), "").(string)
		if row.Val("role") != "tool" || roleOf[target] == "assistant" {
			out = append(out, row)
			continue
		}
		card := row.Copy() // the row with these keys set:
		card.Set("role", "assistant")
		card.Set("type", "status")
		card.Set("display", "runtime")
		card.Set("function", row.Val("function"))
		card.Set("content", row.Val("content"))
		status := row.Val("status")
		if !Truthy(status) {
			status = "done"
			if Truthy(row.Val("is_error")) {
				status = "error"
			}
		}
		card.Set("status", status)
		card.Set("context_tree", rd.contextTree(id))
		card.Set("parent_id", "")
		out = append(out, card)
		// drop all transitive children_of descendants (they come later in chain).
		stack := []string{id}
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, c := range childrenOf[x] {
				if !drop[c] {
					drop[c] = true
					stack = append(stack, c)
				}
			}
		}
	}
	return out
}

// contextTree is the execution tree of one top-level run (legacy §2.5).
func contextTree(s *Session, rootID string) any { return newReading(s).contextTree(rootID) }

// contextTree is built from all nodes (not messages) in seq order; children
// = nodes whose node `called_by` is the id. Unknown root → null. The original
// has no cycle guard (it would recurse until Python's recursion limit); this
// model leaves out a child from which its parent can be reached again by
// call edges (the two lie on one called_by cycle), so a tree never depends
// on where it is shown and stays no larger than the nodes below it.
func (rd *reading) contextTree(rootID string) any {
	root := rd.node(rootID)
	if root == nil {
		return nil
	}
	return rd.treeNode(root)
}

// reaches reports whether the id to can be reached from the id from by
// following call children.
func (rd *reading) reaches(from, to string) bool {
	seen := map[string]bool{from: true}
	for queue := []string{from}; len(queue) > 0; queue = queue[1:] {
		if queue[0] == to {
			return true
		}
		for _, k := range rd.idx.kids[queue[0]] {
			if !seen[k.ID] {
				seen[k.ID] = true
				queue = append(queue, k.ID)
			}
		}
	}
	return false
}

func (rd *reading) treeNode(n *Node) *Object {
	md := n.meta()
	// path, name (else role, else "node"), status (else "completed")
	t := newObject("path", n.ID, "name", or(or(n.Name, n.Role), "node"),
		"status", or(md.Val("status"), "completed"))
	// duration_ms = int(duration_seconds × 1000) when present and numeric
	// (Python: int and float, and so also bool).
	if ds, ok := asFloat(md.Val("duration_seconds")); ok && !math.IsInf(ds*1000, 0) && !math.IsNaN(ds) {
		if i, ok := md.Val("duration_seconds").(Int); ok { // int × 1000 stays exact
			v, _ := new(big.Int).SetString(string(i), 10)
			t.Set("duration_ms", Int(v.Mul(v, big.NewInt(1000)).String()))
		} else {
			v, _ := big.NewFloat(ds * 1000).Int(nil) // int() truncates toward zero
			t.Set("duration_ms", Int(v.String()))
		}
	}
	// error = str(output or metadata.error or "") — only when status is "error".
	// (The spec's "else" is read as Python's `or`: an empty output falls
	// through to metadata.error; the data only has object outputs here.)
	if t.Val("status") == "error" {
		t.Set("error", PyStr(or(or(n.Output, md.Val("error")), "")))
	}
	if n.Role == "llm" {
		t.Set("node_type", "exec")
		t.Set("params", newObject("_content", asText(n.Input)))
		t.Set("raw_reply", asText(n.Output))
	} else {
		if in, ok := n.Input.(*Object); ok {
			p := deepCopy(in).(*Object)
			p.del("runtime")
			p.del("callback")
			t.Set("params", p)
		}
		out, ok := n.Output.(string)
		if !ok {
			out = pyDumps(n.Output)
		}
		t.Set("output", out)
	}
	var kids []any
	for _, c := range rd.idx.kids[n.ID] { // nodes_by_seq order = seq order
		if !rd.reaches(c.ID, n.ID) {
			kids = append(kids, rd.treeNode(c))
		}
	}
	if len(kids) > 0 {
		t.Set("children", kids)
	}
	return t
}

// asText: a dict/list JSON-encoded, none → "", anything else str() (§2.5).
func asText(v any) string {
	switch v.(type) {
	case nil:
		return ""
	case *Object, []any:
		return pyDumps(v)
	}
	return PyStr(v)
}
