package harness

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"sessiondag/impl/adapter"
	"sessiondag/impl/node"
	"sessiondag/impl/webui"
	"sessiondag/model"
)

// Message texts for sameBytes: pairs that marshal alike and pairs that do
// not, through both sides' parsers and encoders (numbers in several
// spellings, non-finite numbers, escapes, non-ASCII and invalid UTF-8, key
// order, nesting).
var sameBytesTexts = []string{
	`{"id": "a", "n": 2}`,
	`{"id": "a", "n": 2.0}`,
	`{"id": "a", "n": 2.5e3}`,
	`{"id": "a", "n": 2500.0}`,
	`{"id": "a", "n": -0}`,
	`{"id": "a", "n": 0}`,
	`{"id": "a", "n": NaN}`,
	`{"id": "a", "n": Infinity}`,
	`{"id": "a", "n": -Infinity}`,
	`{"id": "a", "n": 1e400}`,
	`{"id": "a", "n": null}`,
	`{"id": "a", "n": "2"}`,
	`{"id": "a", "n": true}`,
	`{"n": 2, "id": "a"}`,
	`{"id": "a", "s": "line\nbreak \"q\" \\ tab\t \u0001 <&>"}`,
	`{"id": "a", "s": "héllo ✓ \u2028"}`,
	`{"id": "a", "s": "bad \\xff byte"}`, // made invalid UTF-8 below: no parser takes it
	`{"id": "a", "s": "bad \\xfe byte"}`,
	`{"id": "a", "x": {"k": [1, {"z": []}, "v"]}}`,
	`{"id": "a", "x": {"k": [1, {"z": {}}, "v"]}}`,
	`{"id": "a", "x": {"k": [1, {"z": []}, "v"]}, "y": 1}`,
}

// sameBytes is sound: whenever it finds two views equal, encoding/json
// writes the same document for both — over every pair of texts above, as a
// model view against an impl view and as two impl views. And it finds the
// common case equal: the same text on both sides, when the encoders agree.
func TestSameBytesIsSound(t *testing.T) {
	modelView := func(text string) model.View {
		v, err := model.ParseJSON([]byte(text))
		if err != nil {
			t.Fatalf("model.ParseJSON(%q): %v", text, err)
		}
		o := v.(*model.Object)
		if s, ok := o.Val("s").(string); ok {
			o.Set("s", invalidUTF8(s))
		}
		head := "a"
		return model.View{SessionID: "s", HeadID: &head, Messages: []*model.Object{o}, All: []*model.Object{o},
			Chain: []*model.Object{}, Branch: []*model.Object{o}, Render: []string{"a"}}
	}
	implView := func(text string) webui.View {
		v, err := node.ParseString(text)
		if err != nil {
			t.Fatalf("node.ParseString(%q): %v", text, err)
		}
		if s := v.O.Get("s"); s.K == node.String {
			v.O.Set("s", node.Str(invalidUTF8(s.S)))
		}
		m := adapter.New(v.O)
		return webui.View{SessionID: "s", HeadID: webui.HeadAt("a"), Messages: []*adapter.Message{m},
			All: []*adapter.Message{m}, Chain: []*adapter.Message{}, Branch: []*adapter.Message{m}, Render: []string{"a"}}
	}
	marshal := func(v any) []byte {
		b, err := json.Marshal(v)
		if err != nil {
			return []byte("error: " + err.Error())
		}
		return b
	}
	var shownEqual, shownDiffer int
	for _, a := range sameBytesTexts {
		for _, b := range sameBytesTexts {
			pairs := []struct {
				name       string
				want, got  any
				commonCase bool
			}{
				{"model/impl", modelView(a), implView(b), a == b},
				{"impl/impl", implView(a), implView(b), a == b},
			}
			for _, p := range pairs {
				same := sameBytes(p.want, p.got)
				equal := bytes.Equal(marshal(p.want), marshal(p.got))
				if same && !equal {
					t.Errorf("%s: sameBytes(%q, %q) but encoding/json writes\n%s\n%s", p.name, a, b, marshal(p.want), marshal(p.got))
				}
				if same {
					shownEqual++
				} else {
					shownDiffer++
				}
			}
		}
	}
	if shownEqual < len(sameBytesTexts) || shownDiffer == 0 {
		t.Errorf("sameBytes found %d pairs equal and %d not: it decides nothing", shownEqual, shownDiffer)
	}
	// The envelope counts too: another head, fallback or render list.
	base := implView(sameBytesTexts[0])
	for _, change := range []func(*webui.View){
		func(v *webui.View) { v.HeadID = webui.HeadAt("b") },
		func(v *webui.View) { v.FallbackUsed = true },
		func(v *webui.View) { v.Render = []string{"a", "b"} },
		func(v *webui.View) { v.Chain = v.Messages },
	} {
		other := implView(sameBytesTexts[0])
		change(&other)
		if sameBytes(modelView(sameBytesTexts[0]), other) || sameBytes(base, other) {
			t.Errorf("a changed view is shown equal: %+v", other)
		}
	}
}

// invalidUTF8 turns the text `\xff` or `\xfe` in s into that byte.
func invalidUTF8(s string) string {
	return strings.NewReplacer(`\xff`, "\xff", `\xfe`, "\xfe").Replace(s)
}
