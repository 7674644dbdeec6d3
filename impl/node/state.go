package node

import "encoding/binary"

// AppendState appends an unambiguous binary encoding of v to b: two values
// have equal encodings exactly when they are the same JSON value with the
// same key order and number literals (2 and 2.0 apart). Fingerprints of a
// session's state are built from it.
func AppendState(b []byte, v Value) []byte {
	b = append(b, byte(v.K))
	switch v.K {
	case Bool:
		if v.B {
			return append(b, 1)
		}
		return append(b, 0)
	case Number, String:
		return AppendString(b, v.S)
	case Array:
		b = binary.AppendUvarint(b, uint64(len(v.A)))
		for _, e := range v.A {
			b = AppendState(b, e)
		}
	case Object:
		b = appendObj(b, v.O)
	}
	return b
}

func appendObj(b []byte, o *Obj) []byte {
	if o == nil {
		return append(b, 0)
	}
	b = binary.AppendUvarint(b, uint64(len(o.M))+1)
	for _, m := range o.M {
		b = AppendString(b, m.Key)
		b = AppendState(b, m.Val)
	}
	return b
}

// AppendString appends s with its length in front.
func AppendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// AppendState appends an unambiguous binary encoding of every stored field
// of n (the flags Seal derives from its metadata are left out).
func (n *Node) AppendState(b []byte) []byte {
	b = AppendString(b, n.ID)
	b = AppendState(b, n.CreatedAt)
	b = binary.AppendVarint(b, n.Seq)
	b = AppendString(b, n.Role)
	b = AppendString(b, n.Name)
	b = AppendState(b, n.Input)
	b = AppendState(b, n.Output)
	b = AppendString(b, n.CalledBy)
	b = AppendState(b, n.Reads)
	return appendObj(b, n.Metadata)
}
