// Package node holds the stored node record of a session and the ordered JSON
// values it is made of.
//
// The original system's values are Python dicts: their key order shows up in
// every JSON string it builds (a tool message's extra, stringified arguments,
// runtime-card trees). Value therefore keeps object members in order and keeps
// a number's literal, so that 2 and 2.0 stay distinct.
package node

import "slices"

// Kind is the JSON type of a Value. The zero Kind is Missing: a key that is
// absent, which the original distinguishes from an explicit null.
type Kind uint8

const (
	Missing Kind = iota
	Null
	Bool
	Number
	String
	Array
	Object
)

// Value is one JSON value. Exactly the field of its Kind is meaningful.
type Value struct {
	K Kind
	B bool
	S string // String: the text; Number: the literal as written
	A []Value
	O *Obj
}

// Member is one key of an object.
type Member struct {
	Key string
	Val Value
}

// Obj is a JSON object with its keys in insertion order. Later Set calls on an
// existing key replace the value in place, as a Python dict update does.
type Obj struct {
	M []Member
}

// Constructors for the common kinds.
func Str(s string) Value       { return Value{K: String, S: s} }
func BoolV(b bool) Value       { return Value{K: Bool, B: b} }
func NullV() Value             { return Value{K: Null} }
func Num(lit string) Value     { return Value{K: Number, S: lit} }
func ObjV(o *Obj) Value        { return Value{K: Object, O: o} }
func Arr(a []Value) Value      { return Value{K: Array, A: a} }
func NewObj(capacity int) *Obj { return &Obj{M: make([]Member, 0, capacity)} }

// IsSet reports whether the value is present (possibly null).
func (v Value) IsSet() bool { return v.K != Missing }

// Str returns the string of a String value and "" otherwise.
func (v Value) Str() string {
	if v.K == String {
		return v.S
	}
	return ""
}

// Truthy follows Python's truth rules for the JSON types.
func (v Value) Truthy() bool {
	switch v.K {
	case Bool:
		return v.B
	case Number:
		return !isZeroLiteral(v.S)
	case String:
		return v.S != ""
	case Array:
		return len(v.A) > 0
	case Object:
		return v.O != nil && len(v.O.M) > 0
	}
	return false
}

func isZeroLiteral(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == 'e' || c == 'E':
			return true // mantissa was all zeros so far
		case c >= '1' && c <= '9':
			return false
		case c == 'N' || c == 'I': // NaN, Infinity are truthy
			return false
		}
	}
	return true
}

// Get returns the value of key, or a Missing value.
func (o *Obj) Get(key string) Value {
	if o == nil {
		return Value{}
	}
	for i := range o.M {
		if o.M[i].Key == key {
			return o.M[i].Val
		}
	}
	return Value{}
}

// Has reports whether key is present.
func (o *Obj) Has(key string) bool { return o.Get(key).K != Missing }

// Set replaces the value of key in place or appends it.
func (o *Obj) Set(key string, v Value) {
	for i := range o.M {
		if o.M[i].Key == key {
			o.M[i].Val = v
			return
		}
	}
	o.M = append(o.M, Member{key, v})
}

// SetDefault sets key only when it is absent (Python's dict.setdefault).
func (o *Obj) SetDefault(key string, v Value) {
	if !o.Has(key) {
		o.M = append(o.M, Member{key, v})
	}
}

// Delete removes key, keeping the order of the rest, and returns its value.
func (o *Obj) Delete(key string) Value {
	if o == nil {
		return Value{}
	}
	for i := range o.M {
		if o.M[i].Key == key {
			v := o.M[i].Val
			o.M = append(o.M[:i], o.M[i+1:]...)
			return v
		}
	}
	return Value{}
}

// members is o's members (none for a nil o).
func (o *Obj) members() []Member {
	if o == nil {
		return nil
	}
	return o.M
}

// Len is the number of members.
func (o *Obj) Len() int {
	if o == nil {
		return 0
	}
	return len(o.M)
}

// Clone copies the member list (values are shared: they are treated as
// immutable once built).
func (o *Obj) Clone() *Obj {
	if o == nil {
		return &Obj{}
	}
	return o.CloneCap(0)
}

// CloneCap copies the member list with room for extra more members.
func (o *Obj) CloneCap(extra int) *Obj {
	if o == nil {
		return &Obj{M: make([]Member, 0, extra)}
	}
	m := make([]Member, len(o.M), len(o.M)+extra)
	copy(m, o.M)
	return &Obj{M: m}
}

// Update overlays every member of src onto o, in src's order (Python's
// dict.update).
func (o *Obj) Update(src *Obj) { o.UpdateExcept(src, nil) }

// UpdateExcept is Update leaving out the keys in skip. Large objects are
// merged through a map of o's keys, so that laying n keys over n costs n,
// not n².
func (o *Obj) UpdateExcept(src *Obj, skip []string) {
	if src == nil {
		return
	}
	if len(o.M)+len(src.M) <= smallObject {
		for _, m := range src.M {
			if !slices.Contains(skip, m.Key) {
				o.Set(m.Key, m.Val)
			}
		}
		return
	}
	at := make(map[string]int, len(o.M)+len(src.M))
	for i := len(o.M) - 1; i >= 0; i-- { // the first of equal keys, as Set finds it
		at[o.M[i].Key] = i
	}
	for _, m := range src.M {
		if slices.Contains(skip, m.Key) {
			continue
		}
		if i, ok := at[m.Key]; ok {
			o.M[i].Val = m.Val
			continue
		}
		at[m.Key] = len(o.M)
		o.M = append(o.M, m)
	}
}

// DeepClone copies v and everything below it.
func (v Value) DeepClone() Value {
	switch v.K {
	case Array:
		a := make([]Value, len(v.A))
		for i := range v.A {
			a[i] = v.A[i].DeepClone()
		}
		return Arr(a)
	case Object:
		if v.O == nil {
			return v
		}
		o := &Obj{M: make([]Member, len(v.O.M))}
		for i, m := range v.O.M {
			o.M[i] = Member{m.Key, m.Val.DeepClone()}
		}
		return ObjV(o)
	}
	return v
}

// Equal reports whether two values are the same JSON: same kind, same
// literal, same elements, same members in the same order.
func Equal(a, b Value) bool {
	if a.K != b.K {
		return false
	}
	switch a.K {
	case Bool:
		return a.B == b.B
	case Number, String:
		return a.S == b.S
	case Array:
		return slices.EqualFunc(a.A, b.A, Equal)
	case Object:
		if a.O == nil || b.O == nil {
			return a.O.Len() == b.O.Len()
		}
		return slices.EqualFunc(a.O.M, b.O.M, func(x, y Member) bool { return x.Key == y.Key && Equal(x.Val, y.Val) })
	}
	return true
}

// Keys lists the keys in order.
func (o *Obj) Keys() []string {
	if o == nil {
		return nil
	}
	out := make([]string, len(o.M))
	for i := range o.M {
		out[i] = o.M[i].Key
	}
	return out
}
