package node_test

import (
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"

	"sessiondag/impl/node"
)

// TestLoneSurrogatesStayApart: Python's json.loads reads "\ud800" and
// "\ud801" as two different one-character strings, neither of them U+FFFD;
// so does Parse. A view writes each back as its escape, which is what
// Python's json.dumps writes (ensure_ascii) and the browser reads as the
// same string; a node file too, so it reads back as the same id.
func TestLoneSurrogatesStayApart(t *testing.T) {
	parse := func(text string) string {
		v, err := node.ParseString(text)
		require.NoError(t, err, text)
		return v.S
	}
	a, b, repl := parse(`"\ud800"`), parse(`"\ud801"`), parse(`"\ufffd"`)
	require.NotEqual(t, a, b)
	require.NotEqual(t, a, repl)
	require.Equal(t, "😀", parse(`"\ud83d\ude00"`), "a pair is one character")
	require.Equal(t, parse(`"\udc00"`)+parse(`"\ud800"`), parse(`"\udc00\ud800"`), "low then high: two lone ones")
	require.Equal(t, a+"A", parse(`"\ud800\u0041"`))

	for text, want := range map[string]string{
		`"\ud800"`:                `"\ud800"`,
		`"x\udbff_reply"`:         `"x\udbff_reply"`,
		`"\udc00\ud800 é \n"`:     `"\udc00\ud800 é \n"`,
		`{"\ud800": "\udfff"}`:    `{"\ud800":"\udfff"}`,
		`["\ud83d\ude00 \ud83d"]`: `["😀 \ud83d"]`,
	} {
		v, err := node.ParseString(text)
		require.NoError(t, err)
		out, err := v.MarshalJSON()
		require.NoError(t, err)
		require.Equal(t, want, string(out), "view of %s", text)
		require.True(t, utf8.Valid(out))

		file := node.AppendIndent(nil, v, "")
		require.True(t, utf8.Valid(file), "%q", file)
		back, err := node.Parse(file)
		require.NoError(t, err, "%q", file)
		require.True(t, node.Equal(v, back), "file %q of %s", file, text)
	}
	// The raw bytes of a surrogate are not UTF-8: a file holding them is
	// refused, as Python cannot decode it.
	_, err := node.ParseString("\"\xed\xa0\x80\"")
	require.Error(t, err)
}

// TestViewOfBytesThatAreNotUTF8: a string that is not UTF-8 (a session id
// taken from a directory name) is written as Python's file system decoding
// gives it, each undecodable byte as \udcXX: valid UTF-8 JSON.
func TestViewOfBytesThatAreNotUTF8(t *testing.T) {
	out, err := node.Str("local_\xff\xfe é").MarshalJSON()
	require.NoError(t, err)
	require.Equal(t, `"local_\udcff\udcfe é"`, string(out))
}

// TestReprOfLoneSurrogate: str() of a container (a card tree's error) shows
// a lone surrogate as Python's repr does, \ud800.
func TestReprOfLoneSurrogate(t *testing.T) {
	v, err := node.ParseString(`{"error": "bad \ud800"}`)
	require.NoError(t, err)
	require.Equal(t, `{'error': 'bad \ud800'}`, node.PyStr(v))
}

// TestWriteViewDeepAndShared: a value nested past any decoder's default
// bound, its one subtree shared n times, is written whole and as
// MarshalJSON writes it, without the text ever being held.
func TestWriteViewDeepAndShared(t *testing.T) {
	deep := node.Str("leaf")
	for range 20000 {
		deep = node.ObjV(&node.Obj{M: []node.Member{{Key: "children", Val: node.Arr([]node.Value{deep})}}})
	}
	doc := node.Arr([]node.Value{deep, deep, node.Arr(nil), node.ObjV(nil), node.ObjV(&node.Obj{})})
	var w countingWriter
	require.NoError(t, node.WriteView(&w, doc))
	want, err := doc.MarshalJSON()
	require.NoError(t, err)
	require.Equal(t, int64(len(want)), w.n)
	require.Equal(t, string(want[:40]), string(w.head))
	require.LessOrEqual(t, w.largest, 128<<10, "written in bounded pieces")
}

type countingWriter struct {
	n       int64
	largest int
	head    []byte
}

func (w *countingWriter) Write(p []byte) (int, error) {
	if len(w.head) < 40 {
		w.head = append(w.head, p[:min(len(p), 40-len(w.head))]...)
	}
	w.n += int64(len(p))
	w.largest = max(w.largest, len(p))
	return len(p), nil
}
