package adapter_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"sessiondag/impl/adapter"
	"sessiondag/impl/node"
)

// TestCopyAllIsCopy holds CopyAll to Copy of each message: the same keys
// and fields, and keys set on one copy, more than the room it was given,
// reach neither the message it copies nor the copy beside it in the block.
func TestCopyAllIsCopy(t *testing.T) {
	var ms []*adapter.Message
	for i := range 3 {
		o := node.NewObj(2)
		o.Set("id", node.Str(fmt.Sprintf("m%d", i)))
		o.Set("role", node.Str("user"))
		ms = append(ms, adapter.New(o))
	}
	ms = append(ms, &adapter.Message{ID: "bare"}) // no object at all
	out := adapter.CopyAll(ms, 2)
	require.Len(t, out, len(ms))
	for i, m := range ms {
		want := m.Copy()
		require.Equal(t, want.ID, out[i].ID)
		require.Equal(t, want.F.M, out[i].F.M, "message %d", i)
	}
	for k := range 5 {
		out[0].Set(fmt.Sprintf("extra%d", k), node.Num("1"))
	}
	require.Equal(t, 2, ms[0].F.Len(), "the message copied")
	require.Equal(t, 2, out[1].F.Len(), "the copy beside it")
	require.Equal(t, "m1", out[1].Get("id").S)
	require.Equal(t, 7, out[0].F.Len())
	out[3].Set("k", node.Str("v"))
	require.Nil(t, ms[3].F)
}
