package webui_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"sessiondag/impl/flags"
	"sessiondag/impl/node"
	"sessiondag/impl/store"
	"sessiondag/impl/webui"
)

// embedCase is an attach row's metadata, the context commit files of its
// folder, and the attach the load must show, worked out by hand from the
// original's _attach_info, _attach_embed_stats and ContextCommit readers.
type embedCase struct {
	name, meta string
	commits    map[string]string
	want       string
}

var embedCases = []embedCase{
	{"counts the items not summarized", `"attach": {"label": "p", "source_commit_id": "c1"}`,
		map[string]string{"c1": commit(`[` + item("full", `4`) + `, ` + item("summarized", `2`) + `, {"source_node_id": "x", "role": "user", "tokens": 5}]`)},
		`{"label": "p", "source_commit_id": "c1", "embed_count": 2, "embed_tokens": 9}`},
	{"tokens as Python's int() reads them", `"attach": {"source_commit_id": "c1"}`,
		map[string]string{"c1": commit(`[` + item("full", `3.9`) + `, ` + item("full", `" 7 "`) + `, ` + item("aged", `true`) + `]`)},
		`{"source_commit_id": "c1", "embed_count": 3, "embed_tokens": 11}`},
	{"a null token count refuses the commit", `"attach": {"source_commit_id": "c1"}`,
		map[string]string{"c1": commit(`[` + item("full", `null`) + `]`)},
		`{"source_commit_id": "c1"}`},
	{"no commit file", `"attach": {"head_id": "a1", "source_commit_id": "gone"}`, nil,
		`{"head_id": "a1", "source_commit_id": "gone"}`},
	{"from the extra, inside an attach object", `"extra": "{\"attach\": {\"source_commit_id\": \"c1\"}}"`,
		map[string]string{"c1": commit(`[]`)},
		`{"source_commit_id": "c1", "embed_count": 0, "embed_tokens": 0}`},
	{"the id stripped for the lookup, kept as stored", `"attach": {"source_commit_id": "  c1\n", "embed_count": 99}`,
		map[string]string{"c1": commit(`[` + item("full", `1`) + `]`)},
		`{"source_commit_id": "  c1\n", "embed_count": 1, "embed_tokens": 1}`},
	{"a commit without session_id is refused", `"attach": {"source_commit_id": "c1"}`,
		map[string]string{"c1": `{"id": "c1", "items": []}`},
		`{"source_commit_id": "c1"}`},
	{"created_at must be a float", `"attach": {"source_commit_id": "c1"}`,
		map[string]string{"c1": `{"id": "c1", "session_id": "s", "created_at": "soon", "items": []}`},
		`{"source_commit_id": "c1"}`},
	{"created_at in float()'s syntax", `"attach": {"source_commit_id": "c1"}`,
		map[string]string{"c1": `{"id": "c1", "session_id": "s", "created_at": " 1_0.5e3 ", "total_tokens": "+4", "items": []}`},
		`{"source_commit_id": "c1", "embed_count": 0, "embed_tokens": 0}`},
	{"an id naming another directory finds nothing", `"attach": {"source_commit_id": "../c1"}`,
		map[string]string{"c1": commit(`[]`)},
		`{"source_commit_id": "../c1"}`},
	{"no source commit: the attach as it is", `"attach": {"source_commit_id": "   "}`,
		map[string]string{"c1": commit(`[]`)},
		`{"source_commit_id": "   "}`},
}

func commit(items string) string {
	return `{"id": "c1", "session_id": "s", "parent_id": null, "parent_ids": [], "created_at": 3.0, "total_tokens": 9, "items": ` + items + `}`
}

func item(state, tokens string) string {
	return `{"source_node_id": "n", "role": "user", "state": "` + state + `", "tokens": ` + tokens + `}`
}

// writeEmbedSession writes a folder with a user, a reply and an attach row
// holding meta, the commits under context/commits, and meta.json.
func writeEmbedSession(t *testing.T, c embedCase) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "s")
	files := map[string]string{
		"history/0000-u-u1.json":  `{"id": "u1", "created_at": 1.0, "seq": 0, "role": "user", "name": "", "input": null, "output": "go", "called_by": "", "reads": [], "metadata": {}}`,
		"history/0001-l-a1.json":  `{"id": "a1", "created_at": 2.0, "seq": 1, "role": "llm", "name": "", "input": null, "output": "ok", "called_by": "", "reads": [], "metadata": {"parent_id": "u1"}}`,
		"history/0002-l-at1.json": `{"id": "at1", "created_at": 3.0, "seq": 2, "role": "llm", "name": "", "input": null, "output": "done", "called_by": "", "reads": [], "metadata": {"display": "runtime", "function": "attach", "parent_id": "a1", ` + c.meta + `}}`,
		"meta.json":               `{"head_id": "at1"}`,
	}
	for id, text := range c.commits {
		files["context/commits/"+id+".json"] = text
	}
	for name, text := range files {
		p := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	}
	return dir
}

// TestEmbedStats: the attach row a load shows, for each case, has exactly
// the attach the original builds, keys in its order.
func TestEmbedStats(t *testing.T) {
	for _, c := range embedCases {
		t.Run(c.name, func(t *testing.T) {
			s, err := store.Open(writeEmbedSession(t, c))
			require.NoError(t, err)
			require.Empty(t, s.Problems)
			for _, fl := range []flags.Set{flags.Off, flags.All} {
				l := webui.Load(s, fl)
				require.Equal(t, "at1", l.Chain[len(l.Chain)-1].ID)
				got := node.Dumps(l.Chain[len(l.Chain)-1].Get("attach"))
				want, err := node.ParseString(c.want)
				require.NoError(t, err)
				require.Equal(t, node.Dumps(want), got, "flags %s", fl)
			}
		})
	}
}
