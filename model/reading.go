package model

// reading is one session as the reading half reads it: the nodes, their
// index, and a memo of what the adapter makes of each node. LegacyView builds
// a fresh one per call (a function of the session alone); the writer keeps
// one up to date as it writes (LegacyRun.View).
type reading struct {
	s    *Session
	idx  *index
	memo *memo
}

func newReading(s *Session) *reading {
	return &reading{s: s, idx: newIndex(s.Nodes), memo: newMemo()}
}

// node is nodes_by_id[id], nil if none.
func (rd *reading) node(id string) *Node { return rd.idx.byID[id] }

// message is the adapter's message for a node (§2.3). It is shared by every
// view taken from the same memo: read it, never change it.
func (rd *reading) message(n *Node) *Object { return rd.memo.message(n, rd.s.ID) }

// memo keeps the adapter's message per node version and each `extra` string
// parsed, so a view converts a node once, not once per rule that reads it.
type memo struct {
	msgs   map[*Node]*Object
	extras map[string]*Object
	calls  map[*Object]*Object // a tool message → its entry in tool_calls
	folds  map[*Object]folded  // an assistant message → as aggregation last left it
}

// folded is an assistant as aggregation left it, and the calls it folded.
type folded struct {
	calls []any
	out   *Object
}

func newMemo() *memo {
	return &memo{msgs: map[*Node]*Object{}, extras: map[string]*Object{}, calls: map[*Object]*Object{},
		folds: map[*Object]folded{}}
}

func (m *memo) message(n *Node, sid string) *Object {
	msg, ok := m.msgs[n]
	if !ok {
		msg = nodeToMsg(n, sid)
		m.msgs[n] = msg
	}
	return msg
}

// forget drops a node's message: the writer changed the node.
func (m *memo) forget(n *Node) {
	delete(m.calls, m.msgs[n])
	delete(m.folds, m.msgs[n])
	delete(m.msgs, n)
}

// folded is build(): an assistant with these calls folded in, made again only
// when the calls are not the same entries as last time.
func (m *memo) folded(msg *Object, calls []any, build func() *Object) *Object {
	if f, ok := m.folds[msg]; ok && sameEntries(f.calls, calls) {
		return f.out
	}
	out := build()
	m.folds[msg] = folded{calls, out}
	return out
}

// sameEntries: the same call entries (the same objects), in the same order.
func sameEntries(a, b []any) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].(*Object) != b[i].(*Object) {
			return false
		}
	}
	return true
}

// call is toolCall of a tool message, made once per message. The entry is
// shared: read it, never change it.
func (m *memo) call(msg *Object) *Object {
	c, ok := m.calls[msg]
	if !ok {
		c = toolCall(msg, m)
		m.calls[msg] = c
	}
	return c
}

// extra is parseExtra, remembered per string. The parsed value is shared:
// read it, never change it.
func (m *memo) extra(v any) *Object {
	s, ok := v.(string)
	if !ok {
		return parseExtra(v)
	}
	o, ok := m.extras[s]
	if !ok {
		o = parseExtra(s)
		m.extras[s] = o
	}
	return o
}
