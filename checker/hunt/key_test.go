package hunt

import (
	"testing"

	"sessiondag/checker/harness"
	"sessiondag/checker/ops"
)

func parse(t *testing.T, text string) []ops.Op {
	t.Helper()
	s, err := ops.ParseString(text)
	if err != nil {
		t.Fatal(err)
	}
	return s
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
