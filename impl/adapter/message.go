// Package adapter turns stored nodes into the message dicts every reader
// sees, and messages back into nodes (legacy §2.2, §2.3).
package adapter

import "sessiondag/impl/node"

// Message is one message dict. F holds every key in order; ID, Role and
// Parent cache the keys readers look up on every row. Code that changes
// those keys in F must build a new Message with New.
type Message struct {
	ID     string
	Role   string
	Parent node.Value // the parent_id value: Missing, Null or a string (other kinds possible in corrupt data)
	F      *node.Obj

	toolUse *node.Obj // the tool_use object the adapter serialised into extra
}

// CachedToolUse returns the tool_use object of a tool message built by
// ToMessage, saving readers a parse of the extra string it came from.
func CachedToolUse(m *Message) *node.Obj { return m.toolUse }

// New wraps a message object, caching its hot keys.
func New(f *node.Obj) *Message {
	m := &Message{F: f}
	m.refresh()
	return m
}

func (m *Message) refresh() {
	m.ID = m.F.Get("id").Str()
	m.Role = m.F.Get("role").Str()
	m.Parent = m.F.Get("parent_id")
}

// Get returns a key of the message.
func (m *Message) Get(key string) node.Value { return m.F.Get(key) }

// Set sets a key that is not one of the cached ones.
func (m *Message) Set(key string, v node.Value) {
	m.F.Set(key, v)
	if key == "id" || key == "role" || key == "parent_id" {
		m.refresh()
	}
}

// ParentID is the parent_id when it is a string, else "".
func (m *Message) ParentID() string { return m.Parent.Str() }

// Copy is a shallow copy (Python's dict(m)): values are shared, keys are not.
func (m *Message) Copy() *Message {
	c := *m
	c.F = m.F.CloneCap(6)
	return &c
}

// MarshalJSON writes the message object.
func (m *Message) MarshalJSON() ([]byte, error) { return m.F.MarshalJSON() }
