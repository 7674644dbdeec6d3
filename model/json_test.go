package model

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Expected strings below were produced by CPython 3 (repr, json.dumps, str).

func TestPyFloatRepr(t *testing.T) {
	for f, want := range map[float64]string{
		1.0: "1.0", 1e16: "1e+16", 1e-05: "1e-05", 1782000001.5: "1782000001.5",
		1e15: "1000000000000000.0", 0.0001: "0.0001", 1.5e-07: "1.5e-07", 1e100: "1e+100",
		0.1: "0.1", 1.0 / 3: "0.3333333333333333", 123456789012345678.0: "1.2345678901234568e+17",
		5e-324: "5e-324", math.MaxFloat64: "1.7976931348623157e+308", 0: "0.0", -2.5: "-2.5",
	} {
		assert.Equal(t, want, pyFloatRepr(f), "%v", f)
	}
	assert.Equal(t, "-0.0", pyFloatRepr(math.Copysign(0, -1)))
}

func TestParseKeepsOrderAndNumberKinds(t *testing.T) {
	v, err := ParseJSON([]byte(`{"z": 2, "a": 2.0, "m": 1e5, "n": -0, "big": 123456789012345678901234567890, "z": 3}`))
	require.NoError(t, err)
	o := v.(*Object)
	assert.Equal(t, []Field{{"z", Int("3")}, {"a", Float(2)}, {"m", Float(100000)}, {"n", Int("0")},
		{"big", Int("123456789012345678901234567890")}}, o.Fields, "repeated key: first place, last value")
	assert.Equal(t, `{"z": 3, "a": 2.0, "m": 100000.0, "n": 0, "big": 123456789012345678901234567890}`, pyDumps(v))

	v, err = ParseJSON([]byte(`[NaN, Infinity, -Infinity, "\ud83d\ude00"]`))
	require.NoError(t, err)
	assert.Equal(t, `[NaN, Infinity, -Infinity, "😀"]`, pyDumps(v))

	for _, bad := range []string{``, `{`, `[1,]`, `{"a" 1}`, "\"a\x01\"", `01`, `1 2`, "\xff", "\ufeff{}", `{"a":1}x`} {
		_, err := ParseJSON([]byte(bad))
		assert.Error(t, err, "%q", bad)
	}
}

func TestPyDumps(t *testing.T) {
	v := newObject("a", []any{Int("1"), Float(2), "é\n\"\\\x01\x7f"}, "b", nil, "c", true, "d", &Object{}, "e", []any{})
	assert.Equal(t, "{\"a\": [1, 2.0, \"é\\n\\\"\\\\\\u0001\x7f\"], \"b\": null, \"c\": true, \"d\": {}, \"e\": []}", pyDumps(v))
}

func TestPyStr(t *testing.T) {
	v := newObject("error", "boom", "n", []any{Int("1"), Float(2), nil, true}, "q", "it's",
		"b", `a'b"`, "c", "\x01\u200bé\n\\")
	assert.Equal(t, `{'error': 'boom', 'n': [1, 2.0, None, True], 'q': "it's", 'b': 'a\'b"', 'c': '\x01\u200bé\n\\'}`, PyStr(v))
	assert.Equal(t, "plain 'text'", PyStr("plain 'text'"), "str of a str is itself")
	assert.Equal(t, "2", PyStr(Int("2")))
}

func TestMarshalKeepsOrderAndFloats(t *testing.T) {
	b, err := json.Marshal([]any{newObject("b", Float(1782000001), "a", Int("2"), "c", Float(1e16), "d", Float(math.NaN()))})
	require.NoError(t, err)
	assert.Equal(t, `[{"b":1782000001.0,"a":2,"c":1e+16,"d":null}]`, string(b))
}

func TestTruthyAndEqual(t *testing.T) {
	for _, v := range []any{nil, false, "", Int("0"), Float(0), []any{}, &Object{}} {
		assert.False(t, Truthy(v), "%#v", v)
	}
	for _, v := range []any{true, "x", Int("-1"), Float(0.5), []any{nil}, newObject("k", nil)} {
		assert.True(t, Truthy(v), "%#v", v)
	}
	assert.True(t, pyEqual(nil, nil))
	assert.True(t, pyEqual("ROOT", "ROOT"))
	assert.True(t, pyEqual(Int("1"), Float(1)))
	assert.False(t, pyEqual(nil, ""))
	assert.True(t, pyEqual(newObject("a", Int("1"), "b", "x"), newObject("b", "x", "a", Float(1))))
}
