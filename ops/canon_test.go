package ops_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sessiondag/ops"
)

func mustParse(t *testing.T, text string) []ops.Op {
	t.Helper()
	s, err := ops.ParseString(text)
	if err != nil {
		t.Fatalf("parse %q: %v", text, err)
	}
	return s
}

// TestCanonical: what each kind of id field becomes. Expected texts are
// worked out by hand from the rule (ops.Canonical's comment).
func TestCanonical(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{{
		name: "derived ids and calls share one count",
		in: "user id=u7 text=hi\nreply\ntool call=c9 name=bash args=\"{}\" result=ok\ndone\n" +
			"checkout id=u7_reply_t_c9\ndispatch id=d1 text=hi parent=u7_reply\n",
		want: "user id=n1 text=hi\nreply\ntool call=n2 name=bash args=\"{}\" result=ok\ndone\n" +
			"checkout id=n1_reply_t_n2\ndispatch id=n3 text=hi parent=n1_reply\n",
	}, {
		name: "generator ids, a call id with an underscore, every minting field in field order",
		in: "user id=9e3779b1 text=hi\nreply\ntool call=toolu_3c6ef3 name=bash args=\"{}\" result=ok\n" +
			"task call=toolu_aa id=5bf1 attach=77c0 text=go label=l\ndone\n" +
			"spawn mode=clean cmd=c0 id=c1 attach=c2 text=t label=l\n" +
			"checkout id=9e3779b1_reply_t_toolu_3c6ef3\nretry of=9e3779b1_reply id=daa66d13\nrewind id=5bf1_reply\n",
		want: "user id=n1 text=hi\nreply\ntool call=n2 name=bash args=\"{}\" result=ok\n" +
			"task call=n3 id=n4 attach=n5 text=go label=l\ndone\n" +
			"spawn mode=clean cmd=n6 id=n7 attach=n8 text=t label=l\n" +
			"checkout id=n1_reply_t_n2\nretry of=n1_reply id=n9\nrewind id=n4_reply\n",
	}, {
		name: "an orphan's caller written later, as a row or as the reply of a later turn",
		in: "orphan id=o1 name=grep caller=538453d7\norphan id=o2 name=grep caller=u5_reply\n" +
			"legacy-user id=538453d7 text=late parent=ROOT\nuser id=u5 text=hi\nreply\n",
		want: "orphan id=n1 name=grep caller=n3\norphan id=n2 name=grep caller=n4_reply\n" +
			"legacy-user id=n3 text=late parent=ROOT\nuser id=n4 text=hi\nreply\n",
	}, {
		name: "a reference to a row written later",
		in:   "legacy-reply id=a1 text=x parent=b2\nlegacy-user id=b2 text=y\n",
		want: "legacy-reply id=n1 text=x parent=n2\nlegacy-user id=n2 text=y\n",
	}, {
		name: "dangling names and keywords stay",
		in: "dispatch id=d text=x parent=gone\ndispatch id=e text=x parent=none\nlegacy-user id=f text=x parent=null\n" +
			"legacy-reply id=g text=x parent=gone_d\norphan id=h name=bash caller=gone\norphan id=i name=bash caller=gone_7f\n" +
			"checkout id=ROOT\n",
		want: "dispatch id=n1 text=x parent=gone\ndispatch id=n2 text=x parent=none\nlegacy-user id=n3 text=x parent=null\n" +
			"legacy-reply id=n4 text=x parent=gone_n1\norphan id=n5 name=bash caller=gone\norphan id=n6 name=bash caller=gone_7f\n" +
			"checkout id=ROOT\n",
	}, {
		name: "a dangling name that looks canonical keeps its meaning",
		in:   "dispatch id=a text=x parent=n1\nlegacy-reply id=b text=x parent=gone_n3\n",
		want: "dispatch id=n2 text=x parent=n1\nlegacy-reply id=n4 text=x parent=gone_n3\n",
	}, {
		name: "a reserved word minted as an id is kept",
		in:   "legacy-user id=reply text=x\nuser id=u text=hi\nreply\ncheckout id=u_reply\n",
		want: "legacy-user id=reply text=x\nuser id=n1 text=hi\nreply\ncheckout id=n1_reply\n",
	}, {
		name: "values are not ids, an id minted twice keeps its first name, a prefix is not a name",
		in:   "user id=u1 text=u1\nretry of=u1\nlegacy-user id=u1 text=x\ncheckout id=u12\n",
		want: "user id=n1 text=u1\nretry of=n1\nlegacy-user id=n1 text=x\ncheckout id=u12\n",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			if got := ops.String(ops.Canonical(mustParse(t, tc.in))); got != tc.want {
				t.Errorf("Canonical:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

// TestRenamerString: directive args (paths and file contents of damage)
// are renamed with the script's names, whole names only.
func TestRenamerString(t *testing.T) {
	r := ops.NewRenamer(mustParse(t, "user id=aaaa1111 text=hi\nreply\ntool call=toolu_01 name=bash args=\"{}\" result=ok"))
	for in, want := range map[string]string{
		"history/0002-a-aaaa1111_reply.json":                       "history/0002-a-n1_reply.json",
		`{"id": "aaaa1111_reply_t_toolu_01", "called_by": "gone"}`: `{"id": "n1_reply_t_n2", "called_by": "gone"}`,
		"aaaa11112 xaaaa1111 aaaa1111":                             "aaaa11112 xaaaa1111 n1",
		"":                                                         "",
	} {
		if got := r.String(in); got != want {
			t.Errorf("String(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestCanonicalUpToRenaming: scripts that differ only by the names they
// mint have one canonical text; a script that names a different node has
// another.
func TestCanonicalUpToRenaming(t *testing.T) {
	const tmpl = "orphan id={o} name=grep caller={u}_reply\nuser id={u} text=hi\nreply\n" +
		"tool call={c} name=bash args=\"{}\" result=ok\ndone\ncheckout id={u}_reply_t_{c}\n" +
		"legacy-reply id={l} text=x parent=gone\nretry of={u} id={r}\n"
	fill := func(names ...string) []ops.Op {
		return mustParse(t, strings.NewReplacer("{o}", names[0], "{u}", names[1], "{c}", names[2], "{l}", names[3], "{r}", names[4]).Replace(tmpl))
	}
	a := ops.String(ops.Canonical(fill("f372fe94f82a", "9e3779b1", "toolu_3c6ef3", "0a0a0a0a0a0a", "daa66d13")))
	for _, names := range [][]string{
		{"n5", "n4", "n3", "n2", "n1"},
		{"o", "u", "c", "l", "r"},
		{"x_1", "x", "x_2", "x_3", "x_4"},
	} {
		if b := ops.String(ops.Canonical(fill(names...))); b != a {
			t.Errorf("names %v:\n%s\nwant as with generator names:\n%s", names, b, a)
		}
	}
	other := strings.Replace(tmpl, "retry of={u}", "retry of={u}_reply", 1)
	b := ops.String(ops.Canonical(mustParse(t, strings.NewReplacer("{o}", "o", "{u}", "u", "{c}", "c", "{l}", "l", "{r}", "r").Replace(other))))
	if b == a {
		t.Error("a retry of the reply and a retry of the user have one canonical text")
	}
}

// TestCanonicalIdempotent: Canonical(Canonical(s)) is Canonical(s) for
// every script of the corpus and of this test.
func TestCanonicalIdempotent(t *testing.T) {
	files, err := filepath.Glob("../corpus/ops/*/*.ops")
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus scripts (%v)", err)
	}
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		file, err := ops.ParseFile(f, name)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		once := ops.Canonical(file.Ops)
		if twice := ops.String(ops.Canonical(once)); twice != ops.String(once) {
			t.Errorf("%s: canonical twice:\n%s\nonce:\n%s", name, twice, ops.String(once))
		}
	}
}
