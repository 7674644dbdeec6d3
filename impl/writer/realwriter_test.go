package writer_test

// The rows the writers write as the original's own writers store them: each
// compared, caller, metadata keys in order and the kinds of its values, with
// a row of corpus/realwriter, which the original's code wrote (legacy §1's
// table, §6 #28–#36).

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"sessiondag/impl/node"
)

// realRow reads a node file of a folder the original's writers stored.
func realRow(t *testing.T, folder, file string) *node.Node {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "corpus", "realwriter", "sessions", folder, "history", file))
	require.NoError(t, err)
	n, err := node.Decode(b)
	require.NoError(t, err)
	return n
}

// shape is what the comparison looks at: the caller ("" or ROOT, else
// "a node"), the input's kind, and each metadata key with its value's kind.
func shape(n *node.Node) []string {
	caller := n.CalledBy
	if caller != "" && caller != node.RootID {
		caller = "a node"
	}
	out := []string{"called_by " + caller, "input " + kindName(n.Input)}
	for _, m := range n.Metadata.M {
		out = append(out, m.Key+" "+kindName(m.Val))
	}
	return out
}

func kindName(v node.Value) string {
	switch v.K {
	case node.Null:
		return "null"
	case node.String:
		return "string"
	case node.Object:
		return "object"
	case node.Array:
		return "array"
	case node.Bool:
		return "bool"
	case node.Number:
		return "number"
	}
	return "missing"
}

// without leaves out metadata keys of the original's rows that come from
// what no op models (timing, tokens, peers of a chat channel).
func without(sh []string, keys ...string) []string {
	var out []string
next:
	for _, s := range sh {
		for _, k := range keys {
			if len(s) > len(k) && s[:len(k)+1] == k+" " {
				continue next
			}
		}
		out = append(out, s)
	}
	return out
}

func TestRowsAsTheOriginalWritesThem(t *testing.T) {
	w := newW(t)
	require.NoError(t, w.WebUser("u0", "hi", ""))
	require.NoError(t, w.Reply())
	require.NoError(t, w.Done())
	require.NoError(t, w.ForkRoot("d1", "plan", false))
	require.NoError(t, w.Reply())
	require.NoError(t, w.Tool("c1", "bash", `{"cmd": "ls"}`, "ok", false, false, false))
	require.NoError(t, w.Done())
	require.NoError(t, w.Spawn("async", "t1", "s1", "a1", "dig", "probe", false, false, "f1", ""))
	require.NoError(t, w.WebUser("w1", `word_count(text="a b")`, "function"))
	require.NoError(t, w.Reply())
	require.NoError(t, w.Done())
	require.NoError(t, w.WebUser("w2", "what is this?", "image"))
	require.NoError(t, w.Reply())
	require.NoError(t, w.Done())
	require.NoError(t, w.Script("ask", "q1", "", ""))
	require.NoError(t, w.Script("exec", "x0", "", "a top-level model call"))
	require.NoError(t, w.Run("r1", "plan_steps", `{"task": "t"}`, "full"))
	require.NoError(t, w.Exec("x1", "plan", "ok"))
	require.NoError(t, w.EndAfter(`"done"`, "", 0.25))

	s := w.S
	for _, tc := range []struct{ what, id, folder, file string }{
		{"a dispatcher user forking at the root: an explicit null", "d1", "dispatcher_1_2", "0001-u-f8c75274f836.json"},
		{"a tool row: input the arguments' text", "d1_reply_t_c1", "dispatcher_1_0", "0003-c-e8af03fd3542_reply_t_call_toolu_1.json"},
		{"an async /task's command row", "t1", "local_0f43f32fab", "0031-u-9bec2ad9.json"},
		{"an async /task's attach pointer, finished", "a1", "local_0f43f32fab", "0032-l-fd606a950cbc.json"},
		{"a sub-agent user", "s1", "local_0f43f32fab", "0033-u-529ce5c976d9.json"},
		{"a finished async task's follow-up", "f1", "local_0f43f32fab", "0035-u-88f2f6b1c7ed.json"},
		{"a function-form web user", "w1", "local_0f43f32fab", "0026-u-d224e429.json"},
		{"a web user with an image", "w2", "local_22ea58ec02", "0100-u-cc2da2d0.json"},
		{"a top-level ask_user answer", "q1", "local_0f43f32fab", "0052-u-200c51d0d243.json"},
		{"a top-level model call, its prompt recorded", "x0", "local_1efaa53533", "0009-l-84bc72eecbea.json"},
		{"a script run in a session context", "r1", "local_1efaa53533", "0004-c-636cfbd5394b.json"},
	} {
		got, ok := s.Get(tc.id)
		require.True(t, ok, tc.id)
		want := realRow(t, tc.folder, tc.file)
		require.Equal(t, without(shape(want), "doc"), shape(got), "%s (%s/%s)", tc.what, tc.folder, tc.file)
	}
	a, _ := s.Get("a1")
	wantAttach := realRow(t, "local_0f43f32fab", "0032-l-fd606a950cbc.json").Metadata.Get("attach").O
	var keys, wantKeys []string
	for _, m := range a.Metadata.Get("attach").O.M {
		keys = append(keys, m.Key)
	}
	for _, m := range wantAttach.M {
		wantKeys = append(wantKeys, m.Key)
	}
	require.Equal(t, wantKeys, keys, "the async attach's keys")
	again, err := node.ParseString(a.Metadata.Get("extra").Str())
	require.NoError(t, err)
	require.Equal(t, node.Dumps(a.Metadata.Get("attach")), node.Dumps(again.O.Get("attach")),
		"the async attach holds its attach again in extra")
}

// Compaction: the summary, a user copy and a reply copy, as the original's
// persister wrote them in local_1efaa53533 (the reply's extra merged into
// metadata, its caller kept, the copies chained from the summary).
func TestCompactionAsTheOriginalWritesIt(t *testing.T) {
	w := newW(t)
	for _, u := range []string{"u1", "u2"} {
		require.NoError(t, w.WebUser(u, "hi", ""))
		require.NoError(t, w.Reply())
		require.NoError(t, w.Tool("c"+u, "bash", "{}", "ok", false, false, false))
		require.NoError(t, w.Say("done"))
		require.NoError(t, w.Done())
	}
	require.NoError(t, w.Compact("sm", "2", nil))
	require.Equal(t, "sm_k2", w.S.PersistedHead())
	summary, _ := w.S.Get("sm")
	user, _ := w.S.Get("sm_k1")
	reply, _ := w.S.Get("sm_k2")
	require.Equal(t, shape(realRow(t, "local_1efaa53533", "0020-l-summary_0adb3241f9.json")), shape(summary))
	require.Equal(t, shape(realRow(t, "local_1efaa53533", "0021-u-k_3bde9ce7fc.json")), shape(user))
	require.Equal(t, without(shape(realRow(t, "local_1efaa53533", "0022-l-k_bee1a5e56b.json")),
		"started_at", "agent_id", "completed_at", "input_tokens", "output_tokens", "cache_read_tokens",
		"cache_write_tokens", "token_source"), without(shape(reply), "model", "provider", "token_model"))
	require.Equal(t, "u2", reply.CalledBy, "a copied reply keeps its caller, the original user")
	require.Equal(t, "sm_k1", reply.Meta("parent_id").Str())
	require.Equal(t, "sm", user.Meta("parent_id").Str())
	u2, _ := w.S.Get("u2")
	require.Equal(t, u2.CreatedAt, user.CreatedAt, "a copy keeps its row's created_at")
	require.Equal(t, "1782000005.999999", summary.CreatedAt.S, "the summary is 1e-6 s before the first kept row")
	require.Error(t, w.Compact("sm2", "5", nil), "a branch not longer than what it keeps is not compacted")
}

// The copies under the ids the original drew ("k_" and ten hex digits, as
// in local_1efaa53533): the chain and the head follow them; a count of ids
// other than keep, or an id taken, is refused.
func TestCompactionUnderTheOriginalsIDs(t *testing.T) {
	w := newW(t)
	for _, u := range []string{"u1", "u2"} {
		require.NoError(t, w.WebUser(u, "hi", ""))
		require.NoError(t, w.Reply())
		require.NoError(t, w.Say("done"))
		require.NoError(t, w.Done())
	}
	require.Error(t, w.Compact("sm", "2", []string{"k_3bde9ce7fc"}), "two copies need two ids")
	require.Error(t, w.Compact("sm", "2", []string{"k_3bde9ce7fc", "k_3bde9ce7fc"}), "the ids are distinct")
	require.Error(t, w.Compact("sm", "2", []string{"k_3bde9ce7fc", "u1"}), "a copy's id is new")
	require.NoError(t, w.Compact("sm", "2", []string{"k_3bde9ce7fc", "k_bee1a5e56b"}))
	require.Equal(t, "k_bee1a5e56b", w.S.PersistedHead())
	user, _ := w.S.Get("k_3bde9ce7fc")
	reply, _ := w.S.Get("k_bee1a5e56b")
	require.Equal(t, "sm", user.Meta("parent_id").Str())
	require.Equal(t, "k_3bde9ce7fc", reply.Meta("parent_id").Str())
	_, derived := w.S.Get("sm_k1")
	require.False(t, derived, "no copy under a derived id")
}

// /merge: its command row, the seq its dropped attach pointer took, and the
// merge turn under the command row.
func TestMergeAsTheOriginalWritesIt(t *testing.T) {
	w := newW(t)
	require.NoError(t, w.WebUser("u1", "hi", ""))
	require.NoError(t, w.Reply())
	require.NoError(t, w.Done())
	require.NoError(t, w.Merge("m1", "mt1", "combine them"))
	cmd, _ := w.S.Get("m1")
	turn, _ := w.S.Get("mt1")
	require.Equal(t, shape(realRow(t, "local_1efaa53533", "0023-u-73dde56c.json")), shape(cmd))
	require.Equal(t, without(shape(realRow(t, "local_1efaa53533", "0025-u-3385264c44ca.json"))), shape(turn))
	require.Equal(t, cmd.Seq+2, turn.Seq, "the merge's attach pointer took the seq between them")
	require.Equal(t, "m1", turn.Meta("parent_id").Str())
	require.Equal(t, "mt1", w.S.Head())
}

// A reply's tool calls outside ASCII, as the original stored them
// (local_70050c82f7, c5920f99_reply): each call's input and the reply's
// extra are json.dumps with its defaults, non-ASCII as \uXXXX.
func TestEscapesAsTheOriginal(t *testing.T) {
	w := newW(t)
	require.NoError(t, w.WebUser("c5920f99", "list the files", ""))
	require.NoError(t, w.Reply())
	require.NoError(t, w.Tool("call_x_2", "probe_read", `{"path": "src/main.go", "limit": 16}`, "src/main.go: 16 lines — “ok”", false, false, false))
	require.NoError(t, w.Tool("call_toolu_3", "probe_search", `{"q": "café “quotes”"}`, `{"q": "caf\u00e9 \u201cquotes\u201d", "hits": [1, 2, 3]}`, false, false, false))
	require.NoError(t, w.Say("Done — all good."))
	require.NoError(t, w.Done())
	const folder = "local_70050c82f7"
	for _, tc := range []struct{ id, file string }{
		{"c5920f99_reply_t_call_x_2", "0014-c-c5920f99_reply_t_call_x_2.json"},
		{"c5920f99_reply_t_call_toolu_3", "0015-c-c5920f99_reply_t_call_toolu_3.json"},
	} {
		want, got := realRow(t, folder, tc.file), get(t, w.S, tc.id)
		require.Equal(t, node.Dumps(want.Input), node.Dumps(got.Input), tc.id)
		require.Equal(t, node.Dumps(want.Output), node.Dumps(got.Output), tc.id)
	}
	want := realRow(t, folder, "0013-l-c5920f99_reply.json").Metadata.Get("extra")
	require.Equal(t, node.Dumps(want), node.Dumps(get(t, w.S, "c5920f99_reply").Metadata.Get("extra")))
}
