package jsoncmp

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

func mustDecode(t *testing.T, s string) any {
	t.Helper()
	v, err := Decode([]byte(s))
	if err != nil {
		t.Fatalf("decode %s: %v", s, err)
	}
	return v
}

func TestDecodeKeepsKeyOrder(t *testing.T) {
	v := mustDecode(t, `{"b": 1, "a": {"z": null, "y": [true, "s"]}, "c": 2.0}`)
	o, ok := v.(Object)
	if !ok {
		t.Fatalf("top level is %T, want Object", v)
	}
	if got := strings.Join(o.Keys(), ","); got != "b,a,c" {
		t.Errorf("keys %s, want b,a,c", got)
	}
	inner, _ := o.Get("a")
	if got := strings.Join(inner.(Object).Keys(), ","); got != "z,y" {
		t.Errorf("inner keys %s, want z,y", got)
	}
	if c, _ := o.Get("c"); c != any(json.Number("2.0")) {
		t.Errorf("c = %#v, want the number's text 2.0", c)
	}
}

func TestDecodeRejectsBadDocuments(t *testing.T) {
	for _, s := range []string{`{"a": 1} {}`, `{"a": }`, `[1, 2`, ``} {
		if _, err := Decode([]byte(s)); err == nil {
			t.Errorf("Decode(%q) succeeded", s)
		}
	}
}

// Two objects that differ only in key order are different documents, and
// the report names the first key out of place.
func TestDiffKeyOrderOnly(t *testing.T) {
	want := mustDecode(t, `{"chain": [{"id": "u1", "role": "user"}, {"id": "a1", "role": "assistant", "content": "hi"}]}`)
	got := mustDecode(t, `{"chain": [{"id": "u1", "role": "user"}, {"id": "a1", "content": "hi", "role": "assistant"}]}`)
	d := Diff(want, got)
	if d == "" {
		t.Fatal("objects differing only in key order compare equal")
	}
	m, ok := FirstMisplaced(want, got)
	if !ok {
		t.Fatal("FirstMisplaced found nothing")
	}
	if m.Path.String() != "chain[1]" || m.Index != 1 || m.WantKey != "role" || m.GotKey != "content" {
		t.Errorf("misplaced = %+v (%s), want chain[1], key 2 role, got content", m, m.Path)
	}
	if d != m.String() {
		t.Errorf("Diff = %q, want the misplaced key %q", d, m.String())
	}
	if !strings.Contains(d, `chain[1]`) || !strings.Contains(d, `"content"`) || !strings.Contains(d, `"role"`) {
		t.Errorf("report does not name path and keys: %s", d)
	}
}

// The first key out of place is the first in document order, also when a
// nested object comes before the outer object's own misplaced key.
func TestFirstMisplacedDocumentOrder(t *testing.T) {
	want := mustDecode(t, `{"a": {"x": 1, "y": 2}, "b": 1, "c": 2}`)
	got := mustDecode(t, `{"a": {"y": 2, "x": 1}, "c": 2, "b": 1}`)
	m, ok := FirstMisplaced(want, got)
	if !ok || m.Path.String() != "top level" || m.WantKey != "b" {
		// The outer object's order is checked before its members: the
		// reader sees the object's own keys first.
		t.Errorf("misplaced = %+v (%s), want the top level's b", m, m.Path)
	}
	want = mustDecode(t, `{"a": {"x": 1, "y": 2}, "b": 1}`)
	got = mustDecode(t, `{"a": {"y": 2, "x": 1}, "b": 1}`)
	if m, ok := FirstMisplaced(want, got); !ok || m.Path.String() != "a" || m.WantKey != "x" || m.GotKey != "y" {
		t.Errorf("misplaced = %+v, want a: x vs y", m)
	}
}

func TestDiffContent(t *testing.T) {
	cases := []struct {
		want, got string
		equal     bool
	}{
		{`{"n": 2}`, `{"n": 2}`, true},
		{`{"n": 2}`, `{"n": 2.0}`, false},   // an int and a float: the original writes each as it is
		{`{"n": 100}`, `{"n": 1e2}`, false}, // Python's repr is one text per float
		{`{"n": 1e+16}`, `{"n": 1e16}`, false},
		{`{"n": 0.1}`, `{"n": 0.10000000000000001}`, false}, // exact, not float64
		{`{"s": "caf\u00e9"}`, `{"s": "café"}`, true},       // same bytes once decoded
		{`{"s": "café"}`, `{"s": "cafe\u0301"}`, false},     // byte for byte, no normalisation
		{`{"s": "2"}`, `{"s": 2}`, false},
		{`{"a": null}`, `{}`, false},
		{`{"a": []}`, `{"a": null}`, false},
		{`[1, 2]`, `[2, 1]`, false},
	}
	for _, c := range cases {
		d := Diff(mustDecode(t, c.want), mustDecode(t, c.got))
		if (d == "") != c.equal {
			t.Errorf("Diff(%s, %s) = %q, want equal=%v", c.want, c.got, d, c.equal)
		}
	}
	d := Diff(mustDecode(t, `{"id": "a1", "role": "user"}`), mustDecode(t, `{"id": "a1", "role": "assistant"}`))
	if !strings.Contains(d, `-`) || !strings.Contains(d, `"user"`) || !strings.Contains(d, `"assistant"`) {
		t.Errorf("content diff is not a -want +got diff: %s", d)
	}
}

func TestOfKeepsMarshalOrder(t *testing.T) {
	type row struct {
		Z string `json:"z"`
		A int    `json:"a"`
	}
	v, err := Of(row{Z: "x", A: 1})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(v.(Object).Keys(), ","); got != "z,a" {
		t.Errorf("keys %s, want z,a (struct field order)", got)
	}
}

func TestObjectMarshalRoundTrip(t *testing.T) {
	const doc = `{"z":1,"a":[{"y":2.0,"b":null}],"m":"x"}`
	v := mustDecode(t, doc)
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != doc {
		t.Errorf("marshal = %s, want %s", b, doc)
	}
}

// TestDiffOfLargeDocumentsIsBounded: documents of more than 64 KiB differ
// in a diff of the first few differences, each value cut around where it
// differs, and the count of the rest — however large the documents and
// their strings; small ones keep go-cmp's diff.
func TestDiffOfLargeDocumentsIsBounded(t *testing.T) {
	doc := func(changed map[int]bool, long string) any {
		var b strings.Builder
		b.WriteString(`{"chain":[`)
		for i := range 2000 {
			if i > 0 {
				b.WriteString(",")
			}
			content := "hello"
			if changed[i] {
				content = "changed"
			}
			b.WriteString(`{"id":"m` + strconv.Itoa(i) + `","content":"` + content + `"}`)
		}
		b.WriteString(`],"text":"` + long + `"}`)
		v, err := Decode([]byte(b.String()))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	changed := map[int]bool{}
	for i := 3; i < 2000; i += 50 {
		changed[i] = true
	}
	long := strings.Repeat("a", 1<<20)
	d := Diff(doc(nil, long), doc(changed, long[:len(long)-1]+"b"))
	lines := strings.Split(strings.TrimRight(d, "\n"), "\n")
	if !strings.HasPrefix(d, "41 differences (-want +got), the first 5:\n") || len(lines) != 7 || lines[6] != "… and 36 more" || len(d) > 2000 {
		t.Fatalf("a diff of %d bytes, %d lines:\n%.3000s", len(d), len(lines), d)
	}
	if want := `chain[3].content: -"hello" +"changed" (5 and 7 bytes, first different at byte 0)`; lines[1] != want {
		t.Errorf("first difference %q, want %q", lines[1], want)
	}
	if d := Diff(doc(nil, "x"), doc(nil, "x")); d != "" {
		t.Errorf("equal documents differ: %s", d)
	}
	small := Diff(mustDecode(t, `{"a":"x"}`), mustDecode(t, `{"a":"y"}`))
	if !strings.Contains(small, `-`) || !strings.Contains(small, `"a"`) || strings.Contains(small, "differences") {
		t.Errorf("a small diff is not go-cmp's:\n%s", small)
	}
}
