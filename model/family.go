package model

// family answers §3.1's sibling_index and deepest_leaf over one message list
// (the load's `all`, step 10) from groups made once: the messages of each
// parent_id value, sorted as the helpers sort them. A sibling set is the
// group of a message's parent_id; children(id) are the group of the string id.
type family struct {
	msgs   []*Object
	first  map[string]*Object  // the first message with each id
	noID   *Object             // the first message without one
	groups map[groupKey]*group // by parent_id
	leaf   map[string]string   // deepest_leaf results of walks that ended at a leaf
}

// groupKey names a parent_id value so that values Python finds equal share
// a name: None (or no key) and strings. Other values (numbers, lists, dicts:
// only in damaged data) have none and are grouped by scanning with PyEqual.
type groupKey struct {
	null bool
	id   string
}

func keyOf(v any) (groupKey, bool) {
	switch x := v.(type) {
	case nil:
		return groupKey{null: true}, true
	case string:
		return groupKey{id: x}, true
	}
	return groupKey{}, false
}

// group is one parent_id's messages, sorted, and where each id first occurs
// among them (filled when first asked).
type group struct {
	rows []*Object
	at   map[string]int
}

// newFamily groups msgs; byID is indexByID(msgs), which names the first
// message of each id too when no id repeats.
func newFamily(msgs []*Object, byID map[string]*Object) *family {
	f := &family{msgs: msgs, first: byID, groups: make(map[groupKey]*group, len(msgs)), leaf: map[string]string{}}
	withID := 0
	for _, m := range msgs {
		if msgID(m) != "" {
			withID++
		} else if f.noID == nil {
			f.noID = m
		}
	}
	if withID != len(byID) { // an id repeats: the first one counts here
		f.first = make(map[string]*Object, len(msgs))
		for _, m := range msgs {
			if id := msgID(m); id != "" && f.first[id] == nil {
				f.first[id] = m
			}
		}
	}
	for _, m := range msgs {
		if k, ok := keyOf(m.Val("parent_id")); ok {
			g := f.groups[k]
			if g == nil {
				g = &group{}
				f.groups[k] = g
			}
			g.rows = append(g.rows, m)
		}
	}
	for _, g := range f.groups {
		sortByCreatedAt(g.rows)
	}
	return f
}

// siblingIndex is 1-based (i, n) of the first message with this id among its
// siblings, or (0, 0) when no message has the id (§3.1).
func (f *family) siblingIndex(id string) (int, int, []*Object) {
	m := f.first[id]
	if id == "" {
		m = f.noID
	}
	if m == nil {
		return 0, 0, nil
	}
	k, ok := keyOf(m.Val("parent_id"))
	if !ok {
		sibs := siblings(f.msgs, m)
		for i, s := range sibs {
			if msgID(s) == id {
				return i + 1, len(sibs), sibs
			}
		}
		return 0, 0, nil
	}
	g := f.groups[k]
	if g.at == nil {
		g.at = make(map[string]int, len(g.rows))
		for i := len(g.rows) - 1; i >= 0; i-- {
			g.at[msgID(g.rows[i])] = i
		}
	}
	return g.at[id] + 1, len(g.rows), g.rows
}

// lastChild is the last of children(id): messages whose parent_id is id,
// sorted (§3.1); ok is false when there are none.
func (f *family) lastChild(id string) (string, bool) {
	g := f.groups[groupKey{id: id}]
	if g == nil {
		return "", false
	}
	return msgID(g.rows[len(g.rows)-1]), true
}

// deepestLeaf repeatedly moves to the last child and returns the leaf it
// reaches (§3.1); a revisit (a parent_id cycle) gives back the id the walk
// started from, as the original does. A walk that ends at a leaf ends there
// from every id it passed, so those results are kept; one cut short by a
// revisit is not (from another start it gives that start back).
func (f *family) deepestLeaf(id string) string {
	seen := map[string]bool{id: true}
	path := []string{id}
	cur := id
	for {
		if leaf, ok := f.leaf[cur]; ok {
			cur = leaf
			break
		}
		next, ok := f.lastChild(cur)
		if !ok {
			break
		}
		if seen[next] {
			return id
		}
		seen[next] = true
		path = append(path, next)
		cur = next
	}
	for _, p := range path {
		f.leaf[p] = cur
	}
	return cur
}
