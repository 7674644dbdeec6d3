// Package jsoncmp compares JSON documents the way the conformance rule asks:
// every object's keys in the order the document lists them (the original is
// Python, whose dicts keep insertion order, so key order is part of what it
// sends), numbers as the literals they are (2 and 2.0 differ, and so do
// 1e16 and 1e+16: the original writes each number in one text, Python's),
// strings byte for byte. It is shared by
// tests of impl/ and by the harness; it knows nothing of either.
package jsoncmp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/google/go-cmp/cmp"
)

// Object is a JSON object with its members in document order.
type Object []Member

// Member is one key of an Object and its value.
type Member struct {
	Key   string
	Value any
}

// Get returns the value under key. A key repeated within one object counts
// with its last value, as encoding/json and Python read it.
func (o Object) Get(key string) (any, bool) {
	for i := len(o) - 1; i >= 0; i-- {
		if o[i].Key == key {
			return o[i].Value, true
		}
	}
	return nil, false
}

// Keys returns the keys in document order.
func (o Object) Keys() []string {
	keys := make([]string, len(o))
	for i, m := range o {
		keys[i] = m.Key
	}
	return keys
}

// MarshalJSON writes the object with its keys in order.
func (o Object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := json.Marshal(m.Key)
		if err != nil {
			return nil, err
		}
		v, err := json.Marshal(m.Value)
		if err != nil {
			return nil, fmt.Errorf("%q: %w", m.Key, err)
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// Decode parses one JSON document. Values are nil, bool, string,
// json.Number (the number's text, kept exact), []any and Object.
func Decode(data []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	v, err := decodeValue(d)
	if err != nil {
		return nil, fmt.Errorf("jsoncmp: decode: %w", err)
	}
	if _, err := d.Token(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("jsoncmp: decode: data after the document")
	}
	return v, nil
}

// Of marshals v with encoding/json and decodes it back.
func Of(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("jsoncmp: marshal: %w", err)
	}
	return Decode(b)
}

func decodeValue(d *json.Decoder) (any, error) {
	t, err := d.Token()
	if err != nil {
		return nil, err
	}
	switch t {
	case json.Delim('{'):
		return decodeObject(d)
	case json.Delim('['):
		return decodeArray(d)
	}
	return t, nil // nil, bool, string or json.Number: Token never yields a closing delimiter here
}

func decodeObject(d *json.Decoder) (Object, error) {
	o := Object{}
	for d.More() {
		t, err := d.Token()
		if err != nil {
			return nil, err
		}
		key := t.(string) // the decoder only yields strings in key position
		v, err := decodeValue(d)
		if err != nil {
			return nil, fmt.Errorf("%q: %w", key, err)
		}
		o = append(o, Member{Key: key, Value: v})
	}
	_, err := d.Token() // '}'
	return o, err
}

func decodeArray(d *json.Decoder) ([]any, error) {
	a := []any{}
	for d.More() {
		v, err := decodeValue(d)
		if err != nil {
			return nil, fmt.Errorf("[%d]: %w", len(a), err)
		}
		a = append(a, v)
	}
	_, err := d.Token() // ']'
	return a, err
}

// Diff compares two decoded documents and returns "" when they are equal.
// When their content differs it returns a go-cmp diff (-want +got), keys
// shown sorted — for documents of more than 64 KiB of text, the first few
// differences and the count of the rest (boundedDiff); when only key
// order differs, the first key out of place.
func Diff(want, got any) string {
	if !small(want, got, smallDocs) {
		if d := boundedDiff(want, got); d != "" {
			return d
		}
	} else if d := cmp.Diff(want, got, numbers, unordered); d != "" {
		return d
	}
	if m, ok := FirstMisplaced(want, got); ok {
		return m.String()
	}
	return ""
}

// numbers compares json.Number values as literals: the same text.
var numbers = cmp.Comparer(func(a, b json.Number) bool {
	return a == b
})

// unordered shows objects to go-cmp as maps: the content diff reads like
// any go-cmp diff of decoded JSON, and order is judged by FirstMisplaced.
var unordered = cmp.Transformer("object", func(o Object) map[string]any {
	m := make(map[string]any, len(o))
	for _, mem := range o {
		m[mem.Key] = mem.Value
	}
	return m
})

// Path locates a value in a document: object keys (string) and array
// indexes (int) from the top.
type Path []any

func (p Path) String() string {
	if len(p) == 0 {
		return "top level"
	}
	var b strings.Builder
	for _, step := range p {
		switch s := step.(type) {
		case int:
			fmt.Fprintf(&b, "[%d]", s)
		case string:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(s)
		}
	}
	return b.String()
}

// Misplaced is the first key out of place in an object whose keys are the
// same set in both documents: at Index, Want lists WantKey and Got GotKey.
type Misplaced struct {
	Path            Path // the object
	Index           int  // position in the object, from 0
	WantKey, GotKey string
}

func (m Misplaced) String() string {
	return fmt.Sprintf("%s: keys out of order: key %d is %s, want %s", m.Path, m.Index+1, strconv.Quote(m.GotKey), strconv.Quote(m.WantKey))
}

// FirstMisplaced walks want in document order and returns the first key out
// of place in an object that has the same keys in got, in another order.
// Members are paired by key and array items by index, so it also finds
// order differences next to differences of content.
func FirstMisplaced(want, got any) (Misplaced, bool) {
	return firstMisplaced(want, got, nil)
}

func firstMisplaced(want, got any, path Path) (Misplaced, bool) {
	switch w := want.(type) {
	case Object:
		g, ok := got.(Object)
		if !ok {
			return Misplaced{}, false
		}
		if m, ok := outOfPlace(w, g, path); ok {
			return m, true
		}
		for _, mem := range w {
			if gv, ok := g.Get(mem.Key); ok {
				if m, ok := firstMisplaced(mem.Value, gv, with(path, mem.Key)); ok {
					return m, true
				}
			}
		}
	case []any:
		g, ok := got.([]any)
		if !ok {
			return Misplaced{}, false
		}
		for i := 0; i < len(w) && i < len(g); i++ {
			if m, ok := firstMisplaced(w[i], g[i], with(path, i)); ok {
				return m, true
			}
		}
	}
	return Misplaced{}, false
}

// outOfPlace compares the key sequences of two objects with the same keys.
func outOfPlace(w, g Object, path Path) (Misplaced, bool) {
	wk, gk := w.Keys(), g.Keys()
	if slices.Equal(wk, gk) || !sameSet(wk, gk) {
		return Misplaced{}, false
	}
	i := 0
	for wk[i] == gk[i] {
		i++
	}
	return Misplaced{Path: path, Index: i, WantKey: wk[i], GotKey: gk[i]}, true
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// with is path extended by one step, never sharing the caller's array.
func with(path Path, step any) Path {
	return append(slices.Clip(path), step)
}
