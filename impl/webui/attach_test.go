package webui_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"sessiondag/impl/adapter"
	"sessiondag/impl/flags"
	"sessiondag/impl/webui"
	"sessiondag/impl/writer"
)

// attachOnPath writes, with every flag on, a reply with an async task (its
// attach row a1), a spawn from that reply (attach row a2, anchored there
// too) and a dispatcher turn that continues from a1.
func attachOnPath(t *testing.T) *writer.Writer {
	t.Helper()
	w, err := writer.New(exSession, t.TempDir(), flags.All)
	require.NoError(t, err)
	require.NoError(t, w.WebUser("u1", "hello", ""))
	require.NoError(t, w.Reply())
	require.NoError(t, w.Task("c1", "s1", "a1", "look around", "scout", true, true))
	require.NoError(t, w.Done())
	require.NoError(t, w.Spawn("inherit", "c2", "s2", "a2", "sub task", "helper", true, false, "", ""))
	require.NoError(t, w.Dispatch("d1", "thanks", "a1", "", true))
	require.NoError(t, w.Reply())
	return w
}

// TestAttachRowOnPathKeepsSeqOrder: an attach row the conversation continues
// from is still spliced among its anchor's attach rows in seq order
// (ops/README.md, Intent), not at its place on the walk ahead of them.
func TestAttachRowOnPathKeepsSeqOrder(t *testing.T) {
	w := attachOnPath(t)
	for _, fl := range []flags.Set{flags.All, flags.A | flags.B} {
		l := webui.Load(w.S, fl)
		require.Equal(t, []string{"u1", "u1_reply", "a1", "a2", "d1", "d1_reply"}, adapter.IDs(l.Chain), "under %s", fl)
		require.Equal(t, adapter.IDs(webui.LoadByMaps(w.S, fl).Chain), adapter.IDs(l.Chain), "by maps under %s", fl)
	}
}

// TestAttachRowOnPathHiddenWithAnchor: a rewound anchor hides every attach
// row spliced after it, the one the conversation continues from included.
func TestAttachRowOnPathHiddenWithAnchor(t *testing.T) {
	w := attachOnPath(t)
	require.NoError(t, w.Done())
	require.NoError(t, w.Rewind("u1_reply"))
	l := webui.Load(w.S, flags.All)
	require.Equal(t, []string{"u1", "d1", "d1_reply"}, adapter.IDs(l.Chain))
}

// TestAttachRowOnPathKeepsItsAttachRows: a spawn issued from a checked-out
// attach row hangs its own attach row off it; moving the first to its
// anchor's group keeps the second right after it.
func TestAttachRowOnPathKeepsItsAttachRows(t *testing.T) {
	w, err := writer.New(exSession, t.TempDir(), flags.All)
	require.NoError(t, err)
	require.NoError(t, w.WebUser("u1", "hello", ""))
	require.NoError(t, w.Reply())
	require.NoError(t, w.Task("c1", "s1", "a1", "look around", "scout", true, true))
	require.NoError(t, w.Done())
	require.NoError(t, w.Checkout("a1"))
	require.NoError(t, w.Spawn("inherit", "c2", "s2", "a2", "sub task", "helper", true, false, "", ""))
	l := webui.Load(w.S, flags.All)
	require.Equal(t, []string{"u1", "u1_reply", "a1", "a2", "c2", "s2", "s2_reply"}, adapter.IDs(l.Chain))
}
