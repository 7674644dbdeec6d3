package campaign

import (
	"testing"

	"sessiondag/checker/harness"
	"sessiondag/ops"
)

func check(t *testing.T, name string) harness.Check {
	t.Helper()
	c, err := harness.CheckNamed(name)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Two reductions that differ only by ids have one key; a different script,
// check or kind of data has another.
func TestKeyIgnoresIdsOnly(t *testing.T) {
	a := script(t, "user id=aaaa1111 text=hi\nreply\ndone\nretry of=aaaa1111_reply id=bbbb2222\ncrash")
	b := script(t, "user id=cccc3333 text=hi\nreply\ndone\nretry of=cccc3333_reply id=dddd4444\ncrash")
	c := script(t, "user id=cccc3333 text=hi\nreply\ndone\nretry of=cccc3333 id=dddd4444\ncrash")
	legacy := Case{Check: check(t, "legacy"), Data: harness.WrittenOff}
	if Key(legacy.With(a, nil)) != Key(legacy.With(b, nil)) {
		t.Error("scripts that differ only by ids have different keys")
	}
	if Key(legacy.With(b, nil)) == Key(legacy.With(c, nil)) {
		t.Error("a retry of the reply and a retry of the user have the same key")
	}
	if g := (Case{Check: check(t, "cards"), Data: harness.WrittenOff, Script: a}); Key(g) == Key(legacy.With(a, nil)) {
		t.Error("two checks failing on one script have the same key")
	}
	if g := (Case{Check: check(t, "legacy"), Data: harness.WrittenOn, Script: a}); Key(g) == Key(legacy.With(a, nil)) {
		t.Error("one check failing on two kinds of data has the same key")
	}
	if Name(legacy.With(a, nil)) != Name(legacy.With(b, nil)) {
		t.Error("scripts that differ only by ids are saved under different names")
	}
}

// The damage of a cold failure is renamed with its script, and its first
// seq counts.
func TestKeyOfColdDamage(t *testing.T) {
	a := script(t, "user id=aaaa1111 text=hi\nreply\ndone")
	b := script(t, "user id=cccc3333 text=hi\nreply\ndone")
	cold := func(s string, id string, seq int64) Case {
		return Case{Check: check(t, "cold"), Data: harness.OffAny, Script: map[string][]ops.Op{"a": a, "b": b}[s],
			FirstSeq: seq, Damage: []PointerEdit{{ID: id + "_reply", Pointer: "called_by", Target: "gone"}}}
	}
	if Key(cold("a", "aaaa1111", 0)) != Key(cold("b", "cccc3333", 0)) {
		t.Error("cold failures that differ only by ids have different keys")
	}
	if Key(cold("a", "aaaa1111", 9990)) == Key(cold("a", "aaaa1111", 0)) {
		t.Error("cold failures numbered from different seqs have the same key")
	}
	if Key(cold("a", "aaaa1111", 0)) == Key(Case{Check: check(t, "cold"), Data: harness.OffAny, Script: a}) {
		t.Error("a cold failure with damage and one without have the same key")
	}
}
