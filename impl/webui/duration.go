package webui

import (
	"math"
	"math/big"
	"strconv"

	"sessiondag/impl/node"
)

// durationMS is a tree node's duration_ms, the original's
// int(duration_seconds * 1000) (legacy §2.5): an int literal multiplied in
// Python's exact integers, a float multiplied as a double and truncated
// towards zero into an exact integer, however large; a boolean is the int
// Python takes it for (True * 1000 is 1000). NaN and infinity have no int()
// (the original raises): the key is left out.
func durationMS(d node.Value) (node.Value, bool) {
	if d.K == node.Bool {
		if d.B {
			return node.Num("1000"), true
		}
		return node.Num("0"), true
	}
	if d.K != node.Number {
		return node.Value{}, false
	}
	if node.IsIntLiteral(d.S) {
		v, ok := new(big.Int).SetString(d.S, 10)
		if !ok {
			return node.Value{}, false
		}
		return node.Num(v.Mul(v, big.NewInt(1000)).String()), true
	}
	f, err := strconv.ParseFloat(d.S, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f*1000, 0) {
		return node.Value{}, false
	}
	ms := f * 1000
	if math.Abs(ms) < 1<<63 {
		return node.Num(strconv.FormatInt(int64(ms), 10)), true
	}
	v, _ := big.NewFloat(ms).Int(nil) // integral already: a double this large has no fraction
	return node.Num(v.String()), true
}
