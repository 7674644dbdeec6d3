// Package jsoncmp compares JSON documents the way the conformance rule asks:
// object key order ignored, numbers compared as numbers, strings byte for
// byte. It is shared by tests of impl/ and model/ and by the CLI; it knows
// nothing of either.
package jsoncmp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"

	"github.com/google/go-cmp/cmp"
)

// Decode parses a JSON document with numbers kept exact.
func Decode(data []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// Of marshals v with encoding/json and decodes it back.
func Of(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("marshal: %w", err)
	}
	return Decode(b)
}

// numbers compares json.Number values by value (1.0 == 1, 1e2 == 100).
var numbers = cmp.Comparer(func(a, b json.Number) bool {
	x, _, errA := big.ParseFloat(string(a), 10, 200, big.ToNearestEven)
	y, _, errB := big.ParseFloat(string(b), 10, 200, big.ToNearestEven)
	if errA != nil || errB != nil {
		return a == b
	}
	return x.Cmp(y) == 0
})

// Diff returns a go-cmp diff of two decoded documents ("" when equal).
func Diff(want, got any) string {
	return cmp.Diff(want, got, numbers)
}
