package process

import (
	"testing"

	"sessiondag/impl/node"
)

// TestRenameInsideViews: an implementation's ids become the script's
// wherever a view holds them as a whole string — an id, a parent, a head,
// a list of ids — and inside the JSON text a tool row's extra carries,
// which is written again as Python's json.dumps writes it, and the call id
// a reply's block gives a function its model called (call_ and the
// function's id); text that merely contains an id, object keys, and a view
// without any of the ids are left as they are.
func TestRenameInsideViews(t *testing.T) {
	r := renamer{"9f2c": "u1", "9f2c_reply": "u1_reply", "7a1b": "f1"}
	in := `{"id":"9f2c_reply","parent_id":"9f2c","content":"see 9f2c","render":["ROOT","9f2c"],` +
		`"extra":"{\"tool_use\": {\"called_by\": \"9f2c_reply\", \"n\": 2.0}}","9f2c":1,"other":"{not json 9f2c",` +
		`"blocks":[{"tool_call_id":"call_7a1b"},{"tool_call_id":"call_9f2c_x"}]}`
	want := `{"id":"u1_reply","parent_id":"u1","content":"see 9f2c","render":["ROOT","u1"],` +
		`"extra":"{\"tool_use\": {\"called_by\": \"u1_reply\", \"n\": 2.0}}","9f2c":1,"other":"{not json 9f2c",` +
		`"blocks":[{"tool_call_id":"call_f1"},{"tool_call_id":"call_9f2c_x"}]}`
	v, err := node.ParseString(in)
	if err != nil {
		t.Fatal(err)
	}
	got, changed := r.value(v)
	if b, _ := got.MarshalJSON(); !changed || string(b) != want {
		t.Fatalf("renamed (changed %v):\n%s\nwant\n%s", changed, b, want)
	}
	if b, _ := v.MarshalJSON(); string(b) != in {
		t.Fatalf("the reply itself was changed:\n%s", b)
	}
	plain, _ := node.ParseString(`{"id":"u2","chain":[{"id":"u2_reply"}]}`)
	if _, changed := r.value(plain); changed {
		t.Fatal("a view without the implementation's ids changed")
	}
}

// TestRenameTaskResultAndEscapes: a task tool's result names the
// sub-agent's reply at its end ("[spawned agent branch=SESSION:ID]"), which
// is renamed there and nowhere else in the text; JSON text written with
// json.dumps's defaults (all ASCII, \u escapes) is written again so, and
// text that keeps non-ASCII as it is again so.
func TestRenameTaskResultAndEscapes(t *testing.T) {
	r := renamer{"80d0_reply": "n7_reply", "9f2c": "u1"}
	for _, tc := range []struct{ in, want string }{
		{"sub done\n\n[spawned agent branch=local_1:80d0_reply]", "sub done\n\n[spawned agent branch=local_1:n7_reply]"},
		{"80d0_reply\n\n[spawned agent branch=local_1:other]", ""},
		{`{"called_by": "9f2c", "t": "caf\u00e9"}`, `{"called_by": "u1", "t": "caf\u00e9"}`},
		{`{"called_by": "9f2c", "t": "café"}`, `{"called_by": "u1", "t": "café"}`},
	} {
		got, changed := r.value(node.Str(tc.in))
		if tc.want == "" {
			if changed {
				t.Errorf("%q: renamed to %q", tc.in, got.S)
			}
			continue
		}
		if !changed || got.S != tc.want {
			t.Errorf("%q: got %q (changed %v), want %q", tc.in, got.S, changed, tc.want)
		}
	}
}

// TestRenameTaskBranch: a task turn's tool result ends naming the branch
// its sub-agent answered on; the reply id there is the implementation's
// and is renamed (in the row's content and in the reply's extra), an id
// named elsewhere in the text is not.
func TestRenameTaskBranch(t *testing.T) {
	r := renamer{"x9_reply": "s1_reply"}
	in := `{"content":"see x9_reply\n\n[spawned agent branch=local_1:x9_reply]",` +
		`"extra":"{\"result\": \"ok\\n\\n[spawned agent branch=local_1:x9_reply]\"}","other":"[spawned agent branch=local_1:x9_reply] later"}`
	want := `{"content":"see x9_reply\n\n[spawned agent branch=local_1:s1_reply]",` +
		`"extra":"{\"result\": \"ok\\n\\n[spawned agent branch=local_1:s1_reply]\"}","other":"[spawned agent branch=local_1:x9_reply] later"}`
	v, err := node.ParseString(in)
	if err != nil {
		t.Fatal(err)
	}
	got, changed := r.value(v)
	if b, _ := got.MarshalJSON(); !changed || string(b) != want {
		t.Fatalf("renamed (changed %v):\n%s\nwant\n%s", changed, b, want)
	}
}
