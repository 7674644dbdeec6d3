package hunt

import (
	"testing"

	"sessiondag/harness"
	"sessiondag/ops"
)

func parse(t *testing.T, text string) []ops.Op {
	t.Helper()
	s, err := ops.ParseString(text)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Ids are renamed in the order the script first mentions them (an orphan's
// caller may be written later), derived ids with them; what the script does
// not create (ROOT, none) stays.
func TestCanonical(t *testing.T) {
	got := ops.String(Canonical(parse(t, `user id=9e3779b1 text=hi
reply
tool call=toolu_3c6ef3 name=bash args="{}" result=ok
done
dispatch id=79b97f4a7c15 text=x parent=none
reply
done
checkout id=9e3779b1_reply_t_toolu_3c6ef3
retry of=9e3779b1_reply id=daa66d13
orphan id=f372fe94f82a name=grep caller=538453d7
legacy-user id=538453d7 text=late parent=ROOT
orphan id=0a0a0a0a0a0a name=grep caller=gone_538453d7`)))
	want := `user id=n1 text=hi
reply
tool call=c1 name=bash args="{}" result=ok
done
dispatch id=n2 text=x parent=none
reply
done
checkout id=n1_reply_t_c1
retry of=n1_reply id=n3
orphan id=n4 name=grep caller=n5
legacy-user id=n5 text=late parent=ROOT
orphan id=n6 name=grep caller=n7
`
	if got != want {
		t.Errorf("canonical:\n%s\nwant:\n%s", got, want)
	}
}

// Two reductions that differ only by ids have one key; a different script,
// check or kind of data has another.
func TestKeyIgnoresIdsOnly(t *testing.T) {
	a := parse(t, "user id=aaaa1111 text=hi\nreply\ndone\nretry of=aaaa1111_reply id=bbbb2222\ncrash")
	b := parse(t, "user id=cccc3333 text=hi\nreply\ndone\nretry of=cccc3333_reply id=dddd4444\ncrash")
	c := parse(t, "user id=cccc3333 text=hi\nreply\ndone\nretry of=cccc3333 id=dddd4444\ncrash")
	f := &harness.Finding{Check: "legacy", Data: harness.WrittenOff}
	if Key(f, a) != Key(f, b) {
		t.Error("scripts that differ only by ids have different keys")
	}
	if Key(f, b) == Key(f, c) {
		t.Error("a retry of the reply and a retry of the user have the same key")
	}
	if g := (&harness.Finding{Check: "cards", Data: harness.WrittenOff}); Key(g, a) == Key(f, a) {
		t.Error("two checks failing on one script have the same key")
	}
	if g := (&harness.Finding{Check: "legacy", Data: harness.WrittenOn}); Key(g, a) == Key(f, a) {
		t.Error("one check failing on two kinds of data has the same key")
	}
}

// The damage of a cold failure is renamed with its script, in paths and
// file contents, and its first seq counts.
func TestKeyOfColdDamage(t *testing.T) {
	a := parse(t, "user id=aaaa1111 text=hi\nreply\ndone")
	b := parse(t, "user id=cccc3333 text=hi\nreply\ndone")
	cold := func(id string, seq string) *harness.Finding {
		return &harness.Finding{Check: "cold", Data: harness.WrittenOff, Extra: []ops.Directive{
			{Name: "cold", Args: []ops.Arg{{Key: "first-seq", Value: seq}}},
			harness.Edit{Path: "history/0002-a-" + id + "_reply.json", Content: []byte(`{"id": "` + id + `_reply", "called_by": "gone"}`)}.Directive(),
		}}
	}
	fa, fb := cold("aaaa1111", "0"), cold("cccc3333", "0")
	if Key(fa, a) != Key(fb, b) {
		t.Error("cold failures that differ only by ids have different keys")
	}
	if Key(cold("aaaa1111", "9990"), a) == Key(fa, a) {
		t.Error("cold failures numbered from different seqs have the same key")
	}
	if v, _ := fa.Extra[1].Get("path"); v != "history/0002-a-aaaa1111_reply.json" {
		t.Errorf("Key changed the finding's directives: %s", v)
	}
}
