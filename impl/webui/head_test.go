package webui_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"sessiondag/impl/flags"
	"sessiondag/impl/store"
	"sessiondag/impl/webui"
)

// An empty session (meta.json with head_id null, an empty history/) has no
// head: the original's None, which it sends as null, not "". Every flag set
// agrees.
func TestEmptySessionHeadIsNull(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "local_empty")
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "history"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "meta.json"), []byte(`{"head_id": null}`), 0o644))
	s, err := store.Open(dir)
	require.NoError(t, err)
	require.Empty(t, s.Problems)
	for _, fl := range flags.Rollout {
		l := webui.Load(s, fl)
		_, ok := l.HeadID.Get()
		require.False(t, ok, "flags %s: head %v", fl, l.HeadID)
		require.Empty(t, l.Chain)

		frame, err := json.Marshal(frame{HeadID: l.HeadID, Chain: l.Chain})
		require.NoError(t, err)
		require.JSONEq(t, `{"head_id": null, "chain": []}`, string(frame))
		view, err := json.Marshal(webui.Views(s, fl))
		require.NoError(t, err)
		require.Contains(t, string(view), `"head_id":null`)
	}
}

func TestHeadJSON(t *testing.T) {
	for _, c := range []struct {
		head webui.Head
		want string
	}{
		{webui.Head{}, `null`},
		{webui.HeadAt("a1"), `"a1"`},
		{webui.HeadAt(""), `""`}, // a message whose id is "": R sends it as it is
		{webui.HeadAt("<&>"), `"<&>"`},
	} {
		b, err := c.head.MarshalJSON()
		require.NoError(t, err)
		require.Equal(t, c.want, string(b))
	}
}
