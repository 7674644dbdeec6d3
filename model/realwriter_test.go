package model

// The legacy writer's rows next to the rows the original's own writers
// stored (corpus/realwriter): caller, input kind, metadata keys in order and
// the kinds of their values (legacy §1's table, §6 #28–#36).

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func realNode(t *testing.T, folder, file string) *Object {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "corpus", "realwriter", "sessions", folder, "history", file))
	require.NoError(t, err)
	v, err := ParseJSON(b)
	require.NoError(t, err)
	return v.(*Object)
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case *Object:
		return "object"
	case []any:
		return "list"
	case bool:
		return "bool"
	}
	return "number"
}

func callerKind(c string) string {
	if c == "" || c == "ROOT" {
		return c
	}
	return "a node"
}

// rowShape of a stored file and of a written node, leaving out the keys
// named (what no op models: timing, tokens, a function's doc).
func fileShape(o *Object, skip ...string) string {
	return shapeOf(callerKind(o.Str("called_by")), o.Val("input"), o.Val("metadata").(*Object), skip)
}

func nodeShape(n *Node, skip ...string) string {
	return shapeOf(callerKind(n.CalledBy), n.Input, n.meta(), skip)
}

func shapeOf(caller string, input any, meta *Object, skip []string) string {
	parts := []string{"called_by=" + caller, "input=" + jsonKind(input)}
	for _, f := range meta.Fields {
		if !slices.Contains(skip, f.Key) {
			parts = append(parts, fmt.Sprintf("%s=%s", f.Key, jsonKind(f.Val)))
		}
	}
	return strings.Join(parts, " ")
}

func TestWriterRowsAreTheOriginals(t *testing.T) {
	r, _ := wRun(t, `
user id=u0 text=hi
reply
done
fork-root id=d1 text=plan
reply
tool call=c1 name=bash args="{\"cmd\": \"ls\"}" result=ok
done
spawn mode=async cmd=t1 id=s1 attach=a1 text=dig label=probe followup=f1
user id=w1 text="word_count(text=\"a b\")" form=function
reply
done
user id=w2 text="what is this?" form=image
reply
done
script what=ask id=q1
run id=r1 name=plan_steps args="{\"task\": \"t\"}" expose=full
exec id=x1 prompt=plan reply=ok
end output="\"done\"" duration=0.25
merge cmd=m1 id=mt1 text="combine them"
reply
done
`)
	for _, tc := range []struct{ what, id, folder, file string }{
		{"a dispatcher fork: an explicit null", "d1", "dispatcher_1_2", "0001-u-f8c75274f836.json"},
		{"a tool row: the arguments' text", "d1_reply_t_c1", "dispatcher_1_0", "0003-c-e8af03fd3542_reply_t_call_toolu_1.json"},
		{"an async /task's command row", "t1", "local_0f43f32fab", "0031-u-9bec2ad9.json"},
		{"its attach pointer, finished", "a1", "local_0f43f32fab", "0032-l-fd606a950cbc.json"},
		{"a sub-agent user", "s1", "local_0f43f32fab", "0033-u-529ce5c976d9.json"},
		{"a follow-up turn", "f1", "local_0f43f32fab", "0035-u-88f2f6b1c7ed.json"},
		{"a function-form web user", "w1", "local_0f43f32fab", "0026-u-d224e429.json"},
		{"a web user with an image", "w2", "local_22ea58ec02", "0100-u-cc2da2d0.json"},
		{"a top-level answer", "q1", "local_0f43f32fab", "0052-u-200c51d0d243.json"},
		{"a script run in a session context", "r1", "local_1efaa53533", "0004-c-636cfbd5394b.json"},
		{"a /merge command row", "m1", "local_1efaa53533", "0023-u-73dde56c.json"},
		{"its merge turn", "mt1", "local_1efaa53533", "0025-u-3385264c44ca.json"},
	} {
		require.Equal(t, fileShape(realNode(t, tc.folder, tc.file), "doc"), nodeShape(wNode(t, r, tc.id)),
			"%s (%s/%s)", tc.what, tc.folder, tc.file)
	}
	a := wNode(t, r, "a1").meta()
	want := realNode(t, "local_0f43f32fab", "0032-l-fd606a950cbc.json").Val("metadata").(*Object).Val("attach").(*Object)
	var keys, wantKeys []string
	for _, f := range a.Val("attach").(*Object).Fields {
		keys = append(keys, f.Key)
	}
	for _, f := range want.Fields {
		wantKeys = append(wantKeys, f.Key)
	}
	require.Equal(t, wantKeys, keys)
	require.Equal(t, wNode(t, r, "m1").Seq+2, wNode(t, r, "mt1").Seq, "the merge's dropped attach pointer took a seq")
}

func TestWriterCompactionIsTheOriginals(t *testing.T) {
	r, _ := wRun(t, `
user id=u1 text=hi
reply
tool call=c1 name=bash args={} result=ok
say text=done
done
user id=u2 text=hi
reply
tool call=c2 name=bash args={} result=ok
say text=done
done
compact id=sm keep=2
`)
	real := func(file string) *Object { return realNode(t, "local_1efaa53533", file) }
	require.Equal(t, fileShape(real("0020-l-summary_0adb3241f9.json")), nodeShape(wNode(t, r, "sm")))
	require.Equal(t, fileShape(real("0021-u-k_3bde9ce7fc.json")), nodeShape(wNode(t, r, "sm_k1")))
	require.Equal(t, fileShape(real("0022-l-k_bee1a5e56b.json"), "started_at", "agent_id", "completed_at", "input_tokens",
		"output_tokens", "cache_read_tokens", "cache_write_tokens", "token_source"),
		nodeShape(wNode(t, r, "sm_k2"), "model", "provider", "token_model"))
	k2 := wNode(t, r, "sm_k2")
	require.Equal(t, "u2", k2.CalledBy)
	require.Equal(t, "sm_k1", k2.meta().Val("parent_id"))
	require.Equal(t, "sm", wNode(t, r, "sm_k1").meta().Val("parent_id"))
	require.Equal(t, Float(1782000005.999999), wNode(t, r, "sm").CreatedAt)
	require.Equal(t, "sm_k2", r.Session().HeadID)
}

// A reply's tool calls outside ASCII, as the original stored them
// (local_70050c82f7, c5920f99_reply): each call's input and the reply's
// extra are json.dumps with its defaults, non-ASCII as \uXXXX.
func TestWriterEscapesAsTheOriginal(t *testing.T) {
	r, _ := wRun(t, `
user id=c5920f99 text="list the files"
reply
tool call=call_x_2 name=probe_read args="{\"path\": \"src/main.go\", \"limit\": 16}" result="src/main.go: 16 lines — “ok”"
tool call=call_toolu_3 name=probe_search args="{\"q\": \"café “quotes”\"}" result="{\"q\": \"caf\\u00e9 \\u201cquotes\\u201d\", \"hits\": [1, 2, 3]}"
say text="Done — all good."
done
`)
	const folder = "local_70050c82f7"
	for id, file := range map[string]string{
		"c5920f99_reply_t_call_x_2":     "0014-c-c5920f99_reply_t_call_x_2.json",
		"c5920f99_reply_t_call_toolu_3": "0015-c-c5920f99_reply_t_call_toolu_3.json",
	} {
		want := realNode(t, folder, file)
		require.Equal(t, want.Val("input"), wNode(t, r, id).Input, id)
		require.Equal(t, want.Val("output"), wNode(t, r, id).Output, id)
	}
	want := realNode(t, folder, "0013-l-c5920f99_reply.json").Val("metadata").(*Object).Str("extra")
	require.Equal(t, want, wNode(t, r, "c5920f99_reply").meta().Str("extra"))
}
