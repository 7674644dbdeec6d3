// Package adapter turns stored nodes into the message dicts every reader
// sees, and messages back into nodes (legacy §2.2, §2.3).
package adapter

import (
	"sync"
	"sync/atomic"

	"sessiondag/impl/node"
)

// Message is one message dict. F holds every key in order; ID, Role and
// Parent cache the keys readers look up on every row. Code that changes
// those keys in F must build a new Message with New.
type Message struct {
	ID     string
	Role   string
	Parent node.Value // the parent_id value: Missing, Null or a string (other kinds possible in corrupt data)
	F      *node.Obj

	// The keys every load reads on every row, cached: the top-level
	// called_by (Missing on rows without it), function, and whether the
	// row is a legacy runtime status row (type "status", display
	// "runtime").
	TopCalledBy node.Value
	Function    string
	RuntimeRow  bool

	// Legacy is the parent_id R shows (the called_by copy for rows without a
	// recorded conversation parent). It equals Parent unless flag A
	// corrected the visible one; readers that use parent_id as a call edge
	// read this.
	Legacy node.Value
	// CalledBy is the node's call edge (a legacy tool row's edge in its
	// metadata is read from extra.tool_use, as R does); Pred its
	// conversation predecessor under
	// flag A ("" outside the conversation lane). Flag D's readers use only
	// these two.
	CalledBy string
	Pred     string

	// reads counts every read of parent_id by a reader, in the counter of
	// the session the message was read from (ToMessage): flag D retires
	// parent_id, so a load under D must leave it alone. nil counts nowhere.
	reads  *atomic.Int64
	IsConv bool

	// Pos is the position in its store of the node the message came from,
	// -1 when unknown. A load sets it on the messages it memoizes per node
	// so that later stages can index slices by it instead of maps by id.
	Pos int32

	toolUse *node.Obj  // the tool_use object the adapter serialised into extra
	extra   *extraMemo // the parsed extra, shared by copies until extra is set
	args    *argsMemo  // the call's arguments as text, for aggregation
}

// argsMemo holds a tool row's stringified arguments, computed once.
type argsMemo struct {
	once sync.Once
	text node.Value
}

// ArgsText is the tool call's arguments as aggregation shows them
// (legacy §3.4): null → "", a string as is, anything else as JSON. args is
// the tool_use arguments value; the text is computed once per message.
func (m *Message) ArgsText(args func() node.Value) node.Value {
	if m.args == nil {
		m.args = &argsMemo{}
	}
	m.args.once.Do(func() {
		switch a := args(); a.K {
		case node.Missing, node.Null:
			m.args.text = node.Str("")
		case node.String:
			m.args.text = a
		default:
			m.args.text = node.Str(node.Dumps(a))
		}
	})
	return m.args.text
}

// extraMemo parses a message's extra once, however many loads read it.
type extraMemo struct {
	once sync.Once
	v    node.Value
}

// CachedToolUse returns the tool_use object of a tool message built by
// ToMessage, saving readers a parse of the extra string it came from.
func CachedToolUse(m *Message) *node.Obj { return m.toolUse }

// New wraps a message object, caching its hot keys.
func New(f *node.Obj) *Message {
	m := &Message{F: f, extra: &extraMemo{}, args: &argsMemo{}, Pos: -1}
	m.refresh()
	m.Legacy = m.Parent
	return m
}

// Extra is the message's extra decoded: a JSON string parsed (once per
// message and its copies), an object as is; Missing when there is none or
// it does not parse. The value is shared: callers must not change it.
func (m *Message) Extra() node.Value {
	m.extra.once.Do(func() {
		switch v := m.F.Get("extra"); v.K {
		case node.String:
			if v.S != "" {
				if p, err := node.ParseString(v.S); err == nil {
					m.extra.v = p
				}
			}
		case node.Object:
			m.extra.v = v
		}
	})
	return m.extra.v
}

func (m *Message) refresh() {
	for _, kv := range m.F.M {
		switch kv.Key {
		case "id":
			m.ID = kv.Val.Str()
		case "role":
			m.Role = kv.Val.Str()
		case "parent_id":
			m.Parent = kv.Val
		case "called_by":
			m.TopCalledBy = kv.Val
		case "function":
			m.Function = kv.Val.Str()
		}
	}
	m.RuntimeRow = m.F.Get("type").Str() == "status" && m.F.Get("display").Str() == "runtime"
}

// Get returns a key of the message.
func (m *Message) Get(key string) node.Value { return m.F.Get(key) }

// Set sets a key that is not one of the cached ones.
func (m *Message) Set(key string, v node.Value) {
	m.F.Set(key, v)
	switch key {
	case "id", "role", "parent_id", "called_by", "function", "type", "display":
		m.refresh()
	case "extra":
		m.extra = &extraMemo{}
	}
}

// ParentID is the visible parent_id when it is a string, else "" (a
// counted read).
func (m *Message) ParentID() string {
	m.countRead()
	return m.Parent.Str()
}

// ParentValue is the visible parent_id value (a counted read).
func (m *Message) ParentValue() node.Value {
	m.countRead()
	return m.Parent
}

// LegacyParentID is R's parent_id when it is a string, else "" (a counted
// read).
func (m *Message) LegacyParentID() string {
	m.countRead()
	return m.Legacy.Str()
}

func (m *Message) countRead() {
	if m.reads != nil {
		m.reads.Add(1)
	}
}

// Correct sets the visible parent_id to the conversation predecessor (flag
// A), keeping R's value in Legacy.
func (m *Message) Correct(pred string) {
	m.Pred, m.IsConv = pred, true
	m.F.Set("parent_id", node.Str(pred))
	m.Parent = node.Str(pred)
}

// Corrected returns a copy of m with the visible parent_id set to the
// conversation predecessor (flag A). When parent_id already is pred the
// copy shares m's keys, which are then the same: like every message a
// load keeps, it must be copied before it is changed.
func (m *Message) Corrected(pred string) *Message {
	if m.Parent.K == node.String && m.Parent.S == pred {
		c := *m
		c.Pred, c.IsConv = pred, true
		return &c
	}
	c := m.Copy()
	c.Correct(pred)
	return c
}

// Copy is a shallow copy (Python's dict(m)): values are shared, keys are not.
func (m *Message) Copy() *Message {
	c := *m
	c.F = m.F.CloneCap(6)
	return &c
}

// CopyAll is Copy of each of ms, each with room for extra more keys, made in
// three blocks (the messages, their objects, their keys) instead of two
// allocations a message: a load copies every row of its chain to set the
// sibling keys.
func CopyAll(ms []*Message, extra int) []*Message {
	n := 0
	for _, m := range ms {
		n += m.F.Len() + extra
	}
	keys := make([]node.Member, n)
	objs := make([]node.Obj, len(ms))
	rows := make([]Message, len(ms))
	out := make([]*Message, len(ms))
	for i, m := range ms {
		k := m.F.Len()
		objs[i].M = keys[: k : k+extra]
		if m.F != nil {
			copy(objs[i].M, m.F.M)
		}
		keys = keys[k+extra:]
		rows[i] = *m
		rows[i].F = &objs[i]
		out[i] = &rows[i]
	}
	return out
}

// MarshalJSON writes the message object.
func (m *Message) MarshalJSON() ([]byte, error) { return m.F.MarshalJSON() }

// IDs lists the ids of messages in their order: what every comparison of
// a chain or a list of rows looks at first.
func IDs(ms []*Message) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.ID
	}
	return out
}
