package node

import (
	"fmt"
	"strconv"
)

// Roles of a stored node (legacy §1).
const (
	RoleUser = "user"
	RoleLLM  = "llm"
	RoleCode = "code"
)

// RootID is the synthetic node every web and dispatcher session starts with.
const RootID = "ROOT"

// Node is one stored call record. Field order is the on-disk key order.
type Node struct {
	ID        string
	CreatedAt Value // a number
	Seq       int64
	Role      string
	Name      string
	Input     Value
	Output    Value
	CalledBy  string // the call edge; "" none, "ROOT" top level
	Reads     Value  // always [] in practice
	Metadata  *Obj   // never nil; holds the conversation edge parent_id

	// sealed is set by the store once the node is stored, with the flags
	// every reader asks for, read from the metadata then: a stored node
	// is never changed in place (an update replaces it with a clone).
	sealed, root, rewound bool
}

// Seal records the flags of a node that has just been stored. The store
// calls it; nothing may change the node afterwards.
func (n *Node) Seal() {
	n.root, n.rewound = n.scanRoot(), n.scanRewound()
	n.sealed = true
}

// Meta returns a metadata value.
func (n *Node) Meta(key string) Value { return n.Metadata.Get(key) }

// ParentID is the stored conversation predecessor: metadata.parent_id when it
// is a non-empty string.
func (n *Node) ParentID() string {
	v := n.Metadata.Get("parent_id")
	if v.K == String {
		return v.S
	}
	return ""
}

// IsRoot reports whether n is the synthetic ROOT (display "root").
func (n *Node) IsRoot() bool {
	if n.sealed {
		return n.root
	}
	return n.scanRoot()
}

// IsRewound reports whether n is hidden from reads (metadata.rewound).
func (n *Node) IsRewound() bool {
	if n.sealed {
		return n.rewound
	}
	return n.scanRewound()
}

func (n *Node) scanRoot() bool    { return n.Metadata.Get("display").Str() == "root" }
func (n *Node) scanRewound() bool { return n.Metadata.Get("rewound").Truthy() }

// IDs lists the ids of nodes in their order.
func IDs(ns []*Node) []string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = n.ID
	}
	return out
}

// Clone copies the node, unsealed; its metadata object is copied one level
// deep so an update of the copy does not show through.
func (n *Node) Clone() *Node {
	c := *n
	c.Metadata = n.Metadata.Clone()
	c.sealed = false
	return &c
}

// FieldError names the field of a node file that could not be used.
type FieldError struct {
	Field string
	Msg   string
}

func (e *FieldError) Error() string { return fmt.Sprintf("field %q: %s", e.Field, e.Msg) }

// Decode builds a node from the JSON of a history file. Unknown keys are
// dropped, as the original keeps only the known fields. A field of the wrong
// type is an error naming it; null strings read as "" (Python's falsy None).
func Decode(data []byte) (*Node, error) { return DecodeString(string(data)) }

// DecodeString is Decode of a file's contents held in a string; the node's
// strings share its storage.
func DecodeString(data string) (*Node, error) { return DecodeStringLimit(data, -1) }

// DecodeStringLimit is DecodeString of a file that may cost at most limit
// bytes of memory (ParseStringLimit); a negative limit is none.
func DecodeStringLimit(data string, limit int64) (*Node, error) {
	v, err := parse(data, limit)
	if err != nil {
		return nil, err
	}
	if v.K != Object {
		return nil, &FieldError{Field: "", Msg: "top level is not an object"}
	}
	n := &Node{Seq: -1, Reads: Arr([]Value{}), Metadata: &Obj{}}
	str := func(f string, m Value) (string, error) {
		switch m.K {
		case String:
			return m.S, nil
		case Null:
			return "", nil
		}
		return "", &FieldError{Field: f, Msg: "not a string"}
	}
	var hasID bool
	for _, m := range v.O.M {
		var err error
		switch m.Key {
		case "id":
			n.ID, err = str("id", m.Val)
			hasID = m.Val.K == String
		case "created_at":
			if m.Val.K != Number && m.Val.K != Null {
				err = &FieldError{Field: "created_at", Msg: "not a number"}
			}
			n.CreatedAt = m.Val
		case "seq":
			if m.Val.K != Number || !IsIntLiteral(m.Val.S) {
				err = &FieldError{Field: "seq", Msg: "not an integer"}
				break
			}
			n.Seq, err = strconv.ParseInt(m.Val.S, 10, 64)
			if err != nil {
				err = &FieldError{Field: "seq", Msg: "out of range"}
			}
		case "role":
			n.Role, err = str("role", m.Val)
		case "name":
			n.Name, err = str("name", m.Val)
		case "input":
			n.Input = m.Val
		case "output":
			n.Output = m.Val
		case "called_by":
			n.CalledBy, err = str("called_by", m.Val)
		case "reads":
			n.Reads = m.Val
		case "metadata":
			switch m.Val.K {
			case Object:
				n.Metadata = m.Val.O
			case Null:
			default:
				err = &FieldError{Field: "metadata", Msg: "not an object"}
			}
		}
		if err != nil {
			return nil, err
		}
	}
	if !hasID || n.ID == "" {
		return nil, &FieldError{Field: "id", Msg: "missing or empty"}
	}
	if n.Input.K == Missing {
		n.Input = NullV()
	}
	if n.Output.K == Missing {
		n.Output = NullV()
	}
	if n.CreatedAt.K == Missing {
		n.CreatedAt = Num("0.0")
	}
	return n, nil
}

// Encode renders the node as its history file: keys in field order, two-space
// indentation, non-ASCII kept.
func (n *Node) Encode() []byte {
	o := &Obj{M: []Member{
		{"id", Str(n.ID)},
		{"created_at", n.CreatedAt},
		{"seq", Num(strconv.FormatInt(n.Seq, 10))},
		{"role", Str(n.Role)},
		{"name", Str(n.Name)},
		{"input", n.Input},
		{"output", n.Output},
		{"called_by", Str(n.CalledBy)},
		{"reads", n.Reads},
		{"metadata", ObjV(n.Metadata)},
	}}
	b := AppendIndent(nil, ObjV(o), "")
	return append(b, '\n')
}

// AppendIndent writes v as Python's json.dumps(indent=2, ensure_ascii=False),
// each line after the first starting with indent. Text that is not UTF-8
// (a lone surrogate) is escaped, so that the file reads back as the same
// value.
func AppendIndent(b []byte, v Value, indent string) []byte {
	return appendIndent(b, v, indent, 0)
}

// appendIndent writes v nested depth levels below indent.
func appendIndent(b []byte, v Value, indent string, depth int) []byte {
	newline := func(b []byte, depth int) []byte {
		b = append(append(b, '\n'), indent...)
		for range depth {
			b = append(b, "  "...)
		}
		return b
	}
	switch v.K {
	case Array:
		if len(v.A) == 0 {
			return append(b, "[]"...)
		}
		b = append(b, '[')
		for i := range v.A {
			if i > 0 {
				b = append(b, ',')
			}
			b = newline(b, depth+1)
			b = appendIndent(b, v.A[i], indent, depth+1)
		}
		return append(newline(b, depth), ']')
	case Object:
		if v.O.Len() == 0 {
			return append(b, "{}"...)
		}
		b = append(b, '{')
		for i, m := range v.O.M {
			if i > 0 {
				b = append(b, ',')
			}
			b = newline(b, depth+1)
			b = appendSafeString(b, m.Key)
			b = append(b, ": "...)
			b = appendIndent(b, m.Val, indent, depth+1)
		}
		return append(newline(b, depth), '}')
	case String:
		return appendSafeString(b, v.S)
	}
	return AppendJSON(b, v, Python)
}

// CompareSeq orders nodes by seq, for sorts that must be stable on ties.
func CompareSeq(a, b *Node) int {
	switch {
	case a.Seq < b.Seq:
		return -1
	case a.Seq > b.Seq:
		return 1
	}
	return 0
}
