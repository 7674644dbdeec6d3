package node_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"sessiondag/impl/node"
)

// naiveUpdate is dict.update spelled out: each key set in turn.
func naiveUpdate(o, src *node.Obj, skip []string) {
	for _, m := range src.M {
		skipped := false
		for _, k := range skip {
			skipped = skipped || k == m.Key
		}
		if !skipped {
			o.Set(m.Key, m.Val)
		}
	}
}

// TestUpdateLargeIsDictUpdate: the map-based merge of large objects gives
// what setting each key in turn gives, key order and duplicates included.
func TestUpdateLargeIsDictUpdate(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	obj := func(n, keys int) *node.Obj {
		o := &node.Obj{}
		for i := 0; i < n; i++ {
			o.M = append(o.M, node.Member{Key: fmt.Sprintf("k%d", r.IntN(keys)), Val: node.Num(fmt.Sprint(i))})
		}
		return o
	}
	for i := 0; i < 300; i++ {
		a, b := obj(r.IntN(80), 60), obj(r.IntN(80), 60)
		skip := []string{fmt.Sprintf("k%d", r.IntN(60))}
		want, got := a.Clone(), a.Clone()
		naiveUpdate(want, b, skip)
		got.UpdateExcept(b, skip)
		require.True(t, node.Equal(node.ObjV(want), node.ObjV(got)), "%s over %s", node.Dumps(node.ObjV(b)), node.Dumps(node.ObjV(a)))
	}
}

// TestParseManyKeysKeepsPythonsRule: past the size where keys go into a map,
// a repeated key still keeps its first position and its last value.
func TestParseManyKeysKeepsPythonsRule(t *testing.T) {
	var b strings.Builder
	b.WriteString("{")
	for i := 0; i < 100; i++ {
		fmt.Fprintf(&b, `"k%d": %d, `, i%70, i)
	}
	b.WriteString(`"k3": "last"}`)
	v, err := node.ParseString(b.String())
	require.NoError(t, err)
	require.Len(t, v.O.M, 70)
	require.Equal(t, "k3", v.O.M[3].Key)
	require.Equal(t, "last", v.O.M[3].Val.S)
	require.Equal(t, "99", v.O.Get("k29").S)
	require.Equal(t, "69", v.O.Get("k69").S)
}
