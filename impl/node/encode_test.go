package node_test

// Text that holds JSON (docs/legacy.md §2.6): Python's json.dumps
// defaults — ", " and ": " separators, non-ASCII kept, control characters
// escaped, floats in repr form — and str() of a decoded value (§2.5).

import (
	"testing"

	"github.com/stretchr/testify/require"

	"sessiondag/impl/node"
)

func obj(kv ...any) node.Value {
	o := &node.Obj{}
	for i := 0; i+1 < len(kv); i += 2 {
		o.Set(kv[i].(string), kv[i+1].(node.Value))
	}
	return node.ObjV(o)
}

func TestDumpsSeparators(t *testing.T) {
	v := obj("cmd", node.Str("ls"), "n", node.Num("2"), "xs",
		node.Arr([]node.Value{node.Num("1"), node.Num("2.0"), node.NullV(), node.BoolV(true), node.BoolV(false)}),
		"empty", obj(), "none", node.Arr([]node.Value{}))
	require.Equal(t, `{"cmd": "ls", "n": 2, "xs": [1, 2.0, null, true, false], "empty": {}, "none": []}`, node.Dumps(v))
	require.Equal(t, `{"cmd": "ls"}`, node.Dumps(obj("cmd", node.Str("ls"))))
}

func TestDumpsStrings(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"é 漢字 ☕ 😀", `"é 漢字 ☕ 😀"`}, // non-ASCII kept
		{"a\nb", `"a\nb"`},
		{"a\x1fb", `"a\u001fb"`},
		{"\x00", `"\u0000"`},
		{"\t\r\b\f", `"\t\r\b\f"`},
		{`say "hi" \ bye`, `"say \"hi\" \\ bye"`},
		{"/", `"/"`},             // not escaped
		{"\x7f", "\"\x7f\""},     // DEL is not a control char for json
		{"\u2028", "\"\u2028\""}, // kept with ensure_ascii=False
	} {
		require.Equalf(t, tc.want, node.Dumps(node.Str(tc.in)), "dumps(%q)", tc.in)
	}
}

// DumpsASCII against Python's json.dumps with its defaults (ensure_ascii):
// everything outside ' '..'~' escaped, DEL included, a character outside the
// BMP as its surrogate pair, a lone surrogate (kept as WTF-8 by Parse) as
// itself.
func TestDumpsASCII(t *testing.T) {
	v := obj("a", node.Str("é\x7f𝄞"), "b", node.Arr([]node.Value{node.Num("1.0"), node.Num("1e16"), node.Str("\t")}))
	require.Equal(t, `{"a": "\u00e9\u007f\ud834\udd1e", "b": [1.0, 1e+16, "\t"]}`, node.DumpsASCII(v))
	require.Equal(t, `{"q": "plain"}`, node.DumpsASCII(obj("q", node.Str("plain"))))
	p, err := node.Parse([]byte(`"x\udc80y"`))
	require.NoError(t, err)
	require.Equal(t, `"x\udc80y"`, node.DumpsASCII(p))
}

func TestDumpsNumbers(t *testing.T) {
	for _, tc := range []struct{ lit, want string }{
		{"1.0", "1.0"},
		{"1e16", "1e+16"},
		{"1E16", "1e+16"},
		{"10000000000000000.0", "1e+16"},
		{"1000000000000000.0", "1000000000000000.0"},
		{"0.00001", "1e-05"},
		{"1e-5", "1e-05"},
		{"0.0001", "0.0001"},
		{"1782000001.5", "1782000001.5"},
		{"1782000000.0", "1782000000.0"},
		{"0.0", "0.0"},
		{"-0.0", "-0.0"},
		{"2.50", "2.5"},
		{"1e22", "1e+22"},
		{"0.30000000000000004", "0.30000000000000004"},
		{"2", "2"},
		{"-7", "-7"},
		{"12345678901234567890", "12345678901234567890"}, // ints stay exact
		{"1e400", "Infinity"},
	} {
		require.Equalf(t, tc.want, node.Dumps(node.Num(tc.lit)), "dumps(%s)", tc.lit)
	}
	for _, tc := range []struct {
		f    float64
		want string
	}{
		{1.0, "1.0"}, {1e16, "1e+16"}, {1e-05, "1e-05"}, {0.0001, "0.0001"},
		{1782000001.5, "1782000001.5"}, {0.5, "0.5"}, {123456789012345680.0, "1.2345678901234568e+17"},
	} {
		require.Equal(t, tc.want, string(node.AppendPyFloat(nil, tc.f)))
	}
}

func TestPyStr(t *testing.T) {
	require.Equal(t, "{'error': 'boom'}", node.PyStr(obj("error", node.Str("boom"))))
	require.Equal(t, "boom", node.PyStr(node.Str("boom")), "a string is itself")
	require.Equal(t, "[True, False, None, 1, 1.0]", node.PyStr(node.Arr([]node.Value{
		node.BoolV(true), node.BoolV(false), node.NullV(), node.Num("1"), node.Num("1.0")})))
	require.Equal(t, `{'k': "it's"}`, node.PyStr(obj("k", node.Str("it's"))))
	require.Equal(t, `{'a': {'b': []}}`, node.PyStr(obj("a", obj("b", node.Arr(nil)))))
	require.Equal(t, "2", node.PyStr(node.Num("2")))
}

func TestParseKeepsKeyOrderAndNumberLiterals(t *testing.T) {
	v, err := node.Parse([]byte(`{"z":1,"a":{"y":2.0,"b":2},"m":[2,2.0]}`))
	require.NoError(t, err)
	require.Equal(t, node.Object, v.K)
	var keys []string
	for _, m := range v.O.M {
		keys = append(keys, m.Key)
	}
	require.Equal(t, []string{"z", "a", "m"}, keys)
	require.Equal(t, `{"z": 1, "a": {"y": 2.0, "b": 2}, "m": [2, 2.0]}`, node.Dumps(v))
	xs := v.O.Get("m").A
	require.Equal(t, "2", xs[0].S)
	require.Equal(t, "2.0", xs[1].S)
	require.True(t, node.IsIntLiteral(xs[0].S))
	require.False(t, node.IsIntLiteral(xs[1].S))

	// Missing vs null.
	v, err = node.Parse([]byte(`{"parent_id": null}`))
	require.NoError(t, err)
	require.Equal(t, node.Null, v.O.Get("parent_id").K)
	require.Equal(t, node.Missing, v.O.Get("other").K)
	require.True(t, v.O.Has("parent_id"))
	require.False(t, v.O.Has("other"))

	// Non-ASCII escapes decode to the characters; dumps keeps them raw.
	v, err = node.Parse([]byte(`"caf\u00e9 \ud83d\ude00"`))
	require.NoError(t, err)
	require.Equal(t, "café 😀", v.S)
	require.Equal(t, `"café 😀"`, node.Dumps(v))

	_, err = node.Parse([]byte(`{"a": 1,}`))
	require.Error(t, err)
}

func TestNodeFileRoundTrip(t *testing.T) {
	md := &node.Obj{}
	md.Set("source", node.Str("web"))
	md.Set("parent_id", node.Str("a1"))
	md.Set("extra", node.Str(`{"tool_calls": [], "blocks": []}`))
	n := &node.Node{ID: "u3", CreatedAt: node.Num("1782000009.0"), Seq: 6, Role: node.RoleUser,
		Input: node.NullV(), Output: node.Str("thanks é"), CalledBy: node.RootID, Reads: node.Arr([]node.Value{}), Metadata: md}
	back, err := node.Decode(n.Encode())
	require.NoError(t, err)
	require.Equal(t, n.ID, back.ID)
	require.Equal(t, n.Seq, back.Seq)
	require.Equal(t, n.Role, back.Role)
	require.Equal(t, n.CalledBy, back.CalledBy)
	require.Equal(t, "1782000009.0", node.Dumps(back.CreatedAt))
	require.Equal(t, node.Dumps(n.Output), node.Dumps(back.Output))
	require.Equal(t, node.Dumps(node.ObjV(md)), node.Dumps(node.ObjV(back.Metadata)), "metadata keys keep their order")
	require.Contains(t, string(n.Encode()), "thanks é", "non-ASCII kept in the file")

	// Dataclass field order = JSON key order on disk (§1).
	v, err := node.Parse(n.Encode())
	require.NoError(t, err)
	var keys []string
	for _, m := range v.O.M {
		keys = append(keys, m.Key)
	}
	require.Equal(t, []string{"id", "created_at", "seq", "role", "name", "input", "output", "called_by", "reads", "metadata"}, keys)
}
