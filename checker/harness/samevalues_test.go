package harness

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"sessiondag/checker/driver"
	"sessiondag/impl/adapter"
	"sessiondag/impl/flags"
	"sessiondag/impl/node"
	"sessiondag/impl/webui"
	"sessiondag/model"
	"sessiondag/ops"
)

// Message texts for sameValues: pairs that marshal alike and pairs that do
// not, through both sides' parsers and encoders (numbers in several
// spellings, non-finite numbers, escapes, non-ASCII and invalid UTF-8, key
// order, nesting).
var sameValuesTexts = []string{
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
	`{"id": "a", "n": 1.2345678901234567e19}`,
	`{"id": "a", "n": 12345678901234567891}`,
	`{"id": "a", "n": 12345678901234567892}`,
	`{"id": "a", "n": 1e16}`,
	`{"id": "a", "n": 1e+16}`,
	`{"id": "a", "n": 10000000000000000.0}`,
}

// sameValues is sound: whenever it finds two views equal, the comparison of
// the whole documents finds them equal too — over every pair of texts
// above, as a model view against an impl view and as two impl views. And it
// decides: it finds the common case (the same text on both sides) equal,
// and two implementation views equal whenever their documents are.
func TestSameValuesIsSound(t *testing.T) {
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
	for _, a := range sameValuesTexts {
		for _, b := range sameValuesTexts {
			pairs := []struct {
				name       string
				want, got  any
				commonCase bool
			}{
				{"model/impl", modelView(a), implView(b), a == b},
				{"impl/impl", implView(a), implView(b), a == b},
			}
			for _, p := range pairs {
				same := sameValues(p.want, p.got)
				sec, diff := documentDiff(p.want, p.got)
				if same && sec != "" {
					t.Errorf("%s: sameValues(%q, %q), but the documents differ in %s: %s\n%s\n%s",
						p.name, a, b, sec, diff, marshal(p.want), marshal(p.got))
				}
				if p.commonCase && !same && !leftToDocuments(a) {
					t.Errorf("%s: %q is not shown equal to itself", p.name, a)
				}
				// Two implementation views are written by one encoder: what
				// it writes alike (1e16 and 1e+16 among them, the literal a
				// writer kept and the one read back from its file) is shown
				// equal without the documents.
				if p.name == "impl/impl" && sec == "" && !same && !leftToDocuments(a) && !leftToDocuments(b) {
					t.Errorf("%s: %q and %q marshal alike but are not shown equal", p.name, a, b)
				}
				if same {
					shownEqual++
				} else {
					shownDiffer++
				}
			}
		}
	}
	if shownEqual < len(sameValuesTexts) || shownDiffer == 0 {
		t.Errorf("sameValues found %d pairs equal and %d not: it decides nothing", shownEqual, shownDiffer)
	}
	// The envelope counts too: another head, fallback or render list.
	base := implView(sameValuesTexts[0])
	for _, change := range []func(*webui.View){
		func(v *webui.View) { v.HeadID = webui.HeadAt("b") },
		func(v *webui.View) { v.FallbackUsed = true },
		func(v *webui.View) { v.Render = []string{"a", "b"} },
		func(v *webui.View) { v.Chain = v.Messages },
	} {
		other := implView(sameValuesTexts[0])
		change(&other)
		if sameValues(modelView(sameValuesTexts[0]), other) || sameValues(base, other) {
			t.Errorf("a changed view is shown equal: %+v", other)
		}
	}
}

// leftToDocuments: texts sameValues leaves to the comparison of documents
// even against themselves (invalid UTF-8, numbers that are not finite, and
// -0, which the model reads as 0 and the implementation keeps).
func leftToDocuments(text string) bool {
	for _, s := range []string{`\\x`, "NaN", "Infinity", "1e400", "-0}"} {
		if strings.Contains(text, s) {
			return true
		}
	}
	return false
}

// invalidUTF8 turns the text `\xff` or `\xfe` in s into that byte.
func invalidUTF8(s string) string {
	return strings.NewReplacer(`\xff`, "\xff", `\xfe`, "\xfe").Replace(s)
}

// TestEncodersReadBack: what sameValues takes for granted of the two
// encoders — a valid UTF-8 string and a finite number (a float spelled as
// one, an int as it stands) read back unchanged from what each writes.
func TestEncodersReadBack(t *testing.T) {
	modelJSON := func(v any) []byte {
		b, err := model.AppendJSON(nil, v)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	implJSON := func(v node.Value) []byte { return node.AppendJSON(nil, v, node.Compact) }
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.String().Draw(t, "s")
		for _, b := range [][]byte{modelJSON(s), implJSON(node.Str(s))} {
			var back string
			if err := json.Unmarshal(b, &back); err != nil || back != s {
				t.Fatalf("%q wrote %s, which reads back as %q (%v)", s, b, back, err)
			}
		}
		f := math.Float64frombits(rapid.Uint64().Draw(t, "bits"))
		if rapid.Bool().Draw(t, "small") {
			f = rapid.Float64Range(-1e6, 1e10).Draw(t, "f")
		}
		if !math.IsNaN(f) && !math.IsInf(f, 0) {
			lit := strconv.FormatFloat(f, 'e', -1, 64)
			for _, b := range [][]byte{modelJSON(model.Float(f)), implJSON(node.Num(lit))} {
				back, err := strconv.ParseFloat(string(b), 64)
				if err != nil || back != f {
					t.Fatalf("%v wrote %s, which reads back as %v (%v)", f, b, back, err)
				}
			}
		}
		i := strconv.FormatInt(rapid.Int64().Draw(t, "i"), 10) + rapid.StringMatching(`[0-9]{0,20}`).Draw(t, "more")
		if i == "-0" || strings.HasPrefix(i, "0") && len(i) > 1 || strings.HasPrefix(i, "-0") {
			return
		}
		for _, b := range [][]byte{modelJSON(model.Int(i)), implJSON(node.Num(i))} {
			if string(b) != i {
				t.Fatalf("int %s wrote %s", i, b)
			}
		}
	})
}

// sameLoaded finds a load equal to the load by maps of the same session,
// and not equal once a row, a list or the head differs; whenever it finds
// two loads equal, their rendered rows are equal.
func TestSameLoaded(t *testing.T) {
	script, err := ops.ParseString("user id=u1 text=hi\nreply\nsay text=hello\ntool call=c1 name=ls args={}\ndone\nmanual id=f1 name=fn args={}\nend\n")
	if err != nil {
		t.Fatal(err)
	}
	r, err := driver.Build(script, "", flags.Off)
	if err != nil {
		t.Fatal(err)
	}
	st := r.W.S.AtPersistedHead()
	a, b := webui.Load(st, flags.Off), webui.LoadByMaps(st, flags.Off)
	if !sameLoaded(a, b) || !slices.Equal(loadedRows(a), loadedRows(b)) {
		t.Fatalf("the two loads of one session are not shown equal:\n%v\n%v", loadedRows(a), loadedRows(b))
	}
	changed := func(edit func(*webui.Loaded)) *webui.Loaded {
		c := *b
		c.Chain = slices.Clone(b.Chain)
		c.All = slices.Clone(b.All)
		edit(&c)
		return &c
	}
	for name, c := range map[string]*webui.Loaded{
		"a row's value": changed(func(l *webui.Loaded) {
			m := l.Chain[0].Copy()
			m.Set("content", node.Str("other"))
			l.Chain[0] = m
		}),
		"a list":     changed(func(l *webui.Loaded) { l.All = l.All[1:] }),
		"the head":   changed(func(l *webui.Loaded) { l.HeadID = webui.HeadAt("u1") }),
		"a fallback": changed(func(l *webui.Loaded) { l.FallbackUsed = true }),
	} {
		if sameLoaded(a, c) {
			t.Errorf("%s changed, still shown equal", name)
		}
		if slices.Equal(loadedRows(a), loadedRows(c)) {
			t.Errorf("%s changed, but the rows are the same: the case tests nothing", name)
		}
	}
}

// sameNode finds a node equal to its clone, and not equal once a field or a
// literal differs, in which case Encode writes other bytes too.
func TestSameNode(t *testing.T) {
	meta := node.NewObj(2)
	meta.Set("parent_id", node.Str("u0"))
	meta.Set("n", node.Num("2.0"))
	base := &node.Node{ID: "a", CreatedAt: node.Num("1782000000.0"), Seq: 1, Role: "user", Input: node.NullV(),
		Output: node.Str("hi"), CalledBy: "ROOT", Reads: node.Arr([]node.Value{}), Metadata: meta}
	if c := base.Clone(); !sameNode(base, c) {
		t.Fatal("a node and its clone are not shown equal")
	}
	for name, edit := range map[string]func(*node.Node){
		"id":        func(n *node.Node) { n.ID = "b" },
		"seq":       func(n *node.Node) { n.Seq = 2 },
		"output":    func(n *node.Node) { n.Output = node.Str("ho") },
		"called_by": func(n *node.Node) { n.CalledBy = "" },
		"metadata":  func(n *node.Node) { n.Metadata.Set("n", node.Num("2.5")) },
		"a key":     func(n *node.Node) { n.Metadata.Set("rewound", node.BoolV(true)) },
	} {
		c := base.Clone()
		edit(c)
		if sameNode(base, c) {
			t.Errorf("%s changed, still shown equal", name)
		}
		if bytes.Equal(base.Encode(), c.Encode()) {
			t.Errorf("%s changed, but Encode writes the same bytes: the case tests nothing", name)
		}
	}
}

// TestSameValuesComparesEveryList: views that differ in one message list
// only (messages, all, chain or branch) are never shown equal, whether the
// wanted view is the model's or the implementation's.
func TestSameValuesComparesEveryList(t *testing.T) {
	msg := func(text string) *adapter.Message {
		v, err := node.ParseString(text)
		if err != nil {
			t.Fatal(err)
		}
		return adapter.New(v.O)
	}
	obj := func(text string) *model.Object {
		v, err := model.ParseJSON([]byte(text))
		if err != nil {
			t.Fatal(err)
		}
		return v.(*model.Object)
	}
	a, b := `{"id": "a", "content": "one"}`, `{"id": "a", "content": "two"}`
	for i, name := range []string{"messages", "all", "chain", "branch"} {
		lists := func(base, other *adapter.Message) [4][]*adapter.Message {
			var l [4][]*adapter.Message
			for j := range l {
				l[j] = []*adapter.Message{base}
			}
			l[i] = []*adapter.Message{other}
			return l
		}
		view := func(l [4][]*adapter.Message) webui.View {
			return webui.View{SessionID: "s", HeadID: webui.HeadAt("a"), Messages: l[0], All: l[1], Chain: l[2], Branch: l[3], Render: []string{}}
		}
		want, got := view(lists(msg(a), msg(a))), view(lists(msg(a), msg(b)))
		if sameValues(want, got) {
			t.Errorf("two implementation views that differ in %s only are shown equal", name)
		}
		head := "a"
		var ml [4][]*model.Object
		for j := range ml {
			ml[j] = []*model.Object{obj(a)}
		}
		mv := model.View{SessionID: "s", HeadID: &head, Messages: ml[0], All: ml[1], Chain: ml[2], Branch: ml[3], Render: []string{}}
		if sameValues(mv, got) {
			t.Errorf("a model view and an implementation view that differ in %s only are shown equal", name)
		}
		if !sameValues(mv, want) {
			t.Errorf("equal views are not shown equal (%s)", name)
		}
	}
}
