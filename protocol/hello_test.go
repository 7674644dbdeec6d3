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
