package harness

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"sessiondag/impl/adapter"
	"sessiondag/impl/node"
	"sessiondag/impl/webui"
	"sessiondag/model"
)

// sameValues reports whether two views certainly are the same document,
// without writing their messages out: the parts around the message lists
// are marshalled (a small document) and compared byte for byte, and each
// message is compared value by value: the same keys in the same order,
// equal strings and numbers, the same nesting. False only means "not shown
// equal here"; ViewDiff then compares the whole documents. It knows a model
// view against an implementation view, and two implementation views.
//
// Against the model, a string counts as equal only when it is valid UTF-8
// (encoders may write other bytes differently) and a number by its value (a
// float only when finite and spelled as one), which is what the whole
// comparison decides too: each side's encoder writes a valid UTF-8 string
// and a finite number so that it reads back unchanged (TestEncodersReadBack).
// Between two implementation views, the same literals are the same bytes,
// and two number literals count as equal when they are written alike.
func sameValues(want, got any) bool {
	w, ok := viewParts(want)
	if !ok {
		return false
	}
	g, ok := viewParts(got)
	if !ok || g.model != nil {
		return false
	}
	we, err1 := json.Marshal(w.envelope)
	ge, err2 := json.Marshal(g.envelope)
	if err1 != nil || err2 != nil || !bytes.Equal(we, ge) {
		return false
	}
	// The lists share messages (all and branch show rows of messages): a
	// pair found equal once in this comparison is equal again.
	seenModel := map[pair[*model.Object]]bool{}
	seenImpl := map[pair[*adapter.Message]]bool{}
	for i, gl := range g.impl {
		same := false
		if w.model != nil {
			same = sameList(w.model[i], gl, seenModel, func(m *model.Object, v node.Value) bool { return sameModelImpl(m, v) })
		} else {
			same = sameList(w.impl[i], gl, seenImpl, sameImpl)
		}
		if !same {
			return false
		}
	}
	return true
}

// pair is a message of the wanted view and one of the view got.
type pair[T comparable] struct {
	want T
	got  *adapter.Message
}

// parts is a view split into its envelope (the view with its message lists
// left out) and the lists, in the order the document lists them: model
// lists for a model view, the implementation's for its own.
type parts struct {
	envelope any
	model    [][]*model.Object
	impl     [][]*adapter.Message
}

func viewParts(v any) (parts, bool) {
	var p parts
	switch x := v.(type) {
	case model.View:
		p.model = [][]*model.Object{x.Messages, x.All, x.Chain, x.Branch}
		x.Messages, x.All, x.Chain, x.Branch = nil, nil, nil, nil
		p.envelope = x
	case webui.View:
		p.impl = [][]*adapter.Message{x.Messages, x.All, x.Chain, x.Branch}
		x.Messages, x.All, x.Chain, x.Branch = nil, nil, nil, nil
		p.envelope = x
	default:
		return p, false
	}
	return p, true
}

// sameList compares a list with an implementation list message by message.
// A nil list is null in the document, an empty one [].
func sameList[T comparable](want []T, got []*adapter.Message, seen map[pair[T]]bool, same func(T, node.Value) bool) bool {
	var zero T
	if (want == nil) != (got == nil) || len(want) != len(got) {
		return false
	}
	for j := range want {
		p := pair[T]{want[j], got[j]}
		if seen[p] {
			continue
		}
		if want[j] == zero || got[j] == nil || !same(want[j], node.ObjV(got[j].F)) {
			return false
		}
		seen[p] = true
	}
	return true
}

// sameModelImpl: a model value and an implementation value read back as
// the same JSON value.
func sameModelImpl(m any, v node.Value) bool {
	switch x := m.(type) {
	case nil:
		return v.K == node.Null
	case bool:
		return v.K == node.Bool && v.B == x
	case string:
		return v.K == node.String && v.S == x && utf8.ValidString(x)
	case model.Int:
		return v.K == node.Number && v.S == string(x)
	case model.Float:
		if v.K != node.Number || !strings.ContainsAny(v.S, ".eE") {
			return false // an int literal is written as it stands, not as the float
		}
		f, err := strconv.ParseFloat(v.S, 64)
		return err == nil && f == float64(x) && !math.IsInf(f, 0)
	case []any:
		if v.K != node.Array || len(x) != len(v.A) {
			return false
		}
		for i := range x {
			if !sameModelImpl(x[i], v.A[i]) {
				return false
			}
		}
		return true
	case *model.Object:
		if x == nil || v.K != node.Object || v.O == nil || len(x.Fields) != len(v.O.M) {
			return false
		}
		for i, f := range x.Fields {
			mem := v.O.M[i]
			if f.Key != mem.Key || !utf8.ValidString(f.Key) || !sameModelImpl(f.Val, mem.Val) {
				return false
			}
		}
		return true
	}
	return false
}

// sameImpl: two implementation values are the same literals in the same
// shape (so its encoder writes the same bytes for both).
func sameImpl(a *adapter.Message, b node.Value) bool {
	if a.F == b.O { // one message shown by both: equal to itself
		return b.K == node.Object
	}
	return sameImplValue(node.ObjV(a.F), b)
}

// sameNumber: two number literals the view writes alike (1e16 and 1e+16, a
// literal the writer kept and the one read back from its file).
func sameNumber(a, b node.Value) bool {
	ab, err1 := a.MarshalJSON()
	bb, err2 := b.MarshalJSON()
	return err1 == nil && err2 == nil && bytes.Equal(ab, bb)
}

func sameImplValue(a, b node.Value) bool {
	if a.K != b.K {
		return false
	}
	switch a.K {
	case node.Bool:
		return a.B == b.B
	case node.String:
		return a.S == b.S
	case node.Number:
		return a.S == b.S || sameNumber(a, b)
	case node.Array:
		if len(a.A) != len(b.A) {
			return false
		}
		for i := range a.A {
			if !sameImplValue(a.A[i], b.A[i]) {
				return false
			}
		}
		return true
	case node.Object:
		if a.O == nil || b.O == nil {
			return a.O == nil && b.O == nil
		}
		if len(a.O.M) != len(b.O.M) {
			return false
		}
		for i, m := range a.O.M {
			if m.Key != b.O.M[i].Key || !sameImplValue(m.Val, b.O.M[i].Val) {
				return false
			}
		}
		return true
	}
	return true // Missing, Null
}
