package protocol_test

import (
	"slices"
	"strings"
	"testing"

	"sessiondag/checker/gen"
	"sessiondag/protocol"
)

// TestHelloTogetherAndWithout: the hello's pairs of op kinds written in one
// step and the variants it cannot write are read as declared, and each
// malformed declaration is refused naming what is wrong.
func TestHelloTogetherAndWithout(t *testing.T) {
	hello := func(extra string) string {
		return `{"type":"hello","protocol":1,"name":"x","claims":"target","ops":["user","reply","done","dispatch"],` +
			`"configs":["target"],"views":["load"]` + extra + `}`
	}
	parse := func(t *testing.T, text string) error {
		t.Helper()
		var h protocol.Hello
		if err := protocol.DecodeReply([]byte(text), &h); err != nil {
			return err
		}
		a, err := protocol.ParseHello(h, "cmd", gen.KnownWithout)
		if err == nil && strings.Contains(text, "together") {
			if want := [][2]string{{"user", "reply"}, {"dispatch", "reply"}}; !slices.Equal(a.Together, want) {
				t.Fatalf("together %v, want %v", a.Together, want)
			}
			if a.Joined("user") != "reply" || a.Joined("reply") != "" {
				t.Fatalf("Joined: user → %q, reply → %q", a.Joined("user"), a.Joined("reply"))
			}
		}
		if err == nil && strings.Contains(text, "without") && !slices.Equal(a.Without, []string{"tool-legacy", "rooted"}) {
			t.Fatalf("without %v", a.Without)
		}
		return err
	}
	if err := parse(t, hello(`,"together":[["user","reply"],["dispatch","reply"]],"without":["tool-legacy","rooted"]`)); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ extra, want string }{
		{`,"together":[["user","cancel"]]`, `"cancel" is not one the harness knows`},
		{`,"together":[["user"]]`, "is not a pair"},
		{`,"together":[["user","reply"],["user","done"]]`, `"user" is the first of two pairs`},
		{`,"together":[["user","reply"],["reply","done"]]`, "the first of one pair and the second of another"},
		{`,"together":"user+reply"`, "together: a JSON string where the protocol has a list of lists of strings"},
		{`,"together":[["user","reply","done"]]`, "is not a pair"},
		{`,"restart":"yes"`, "restart: a JSON string where the protocol has true or false"},
		{`,"ops":"user"`, "ops: a JSON string where the protocol has a list of strings"},
		{`,"without":["no-such"]`, `"no-such" is neither a draw kind nor a variant`},
	} {
		if err := parse(t, hello(c.extra)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", c.extra, err, c.want)
		}
	}
}

// TestUnmodelledBlindsNothingJudged: a hello may declare unmodelled a key
// the op language does not determine for it (its clock's timestamp, a
// process id), which every verdict then names as left out, with the views
// it does not return; never a key the checks are about (protocol.Judged):
// that hello is refused, saying why.
func TestUnmodelledBlindsNothingJudged(t *testing.T) {
	parse := func(unmodelled string) (protocol.About, error) {
		var h protocol.Hello
		text := `{"type":"hello","protocol":1,"name":"x","claims":"legacy","ops":["user","reply"],"configs":["off"],` +
			`"views":["load","messages"],"unmodelled":` + unmodelled + `}`
		if err := protocol.DecodeReply([]byte(text), &h); err != nil {
			t.Fatal(err)
		}
		return protocol.ParseHello(h, "cmd", gen.KnownWithout)
	}
	a, err := parse(`["timestamp","pid"]`)
	if err != nil {
		t.Fatal(err)
	}
	want := "left out of the comparison: message keys timestamp, pid (declared unmodelled); views stored_head, all, branch, render, before_cards (not returned)"
	if got := protocol.LeftOutNote(a.LeftOut()); got != want {
		t.Errorf("LeftOutNote:\n%s\nwant\n%s", got, want)
	}
	for _, k := range protocol.Judged {
		if _, err := parse(`["timestamp","` + k + `"]`); err == nil || !strings.Contains(err.Error(), `"`+k+`" is a key the checks are about`) {
			t.Errorf("unmodelled %q: %v, want it refused as a key the checks are about", k, err)
		}
	}
}
