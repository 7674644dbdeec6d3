package ops_test

import (
	"reflect"
	"strings"
	"testing"

	"sessiondag/ops"
)

// FuzzParseScript: the op-script parser never panics on any text, and an op
// it reads prints (Format) as a line that reads back as the same op; a
// whole script printed and parsed back is the same script.
func FuzzParseScript(f *testing.F) {
	f.Add("user id=u1 text=hello\nreply\ntool call=c1 name=bash args=\"{\\\"cmd\\\": \\\"ls\\\"}\" result=ok error\ndone # comment")
	f.Fuzz(func(t *testing.T, text string) {
		script, err := ops.ParseString(text)
		for _, line := range strings.Split(text, "\n") {
			op, lerr := ops.ParseLine(line)
			if lerr != nil || op == nil {
				continue
			}
			formatted := ops.Format(op)
			back, err := ops.ParseLine(formatted)
			if err != nil {
				t.Fatalf("%q parses to %#v, printed as %q, which does not parse: %v", line, op, formatted, err)
			}
			if !reflect.DeepEqual(op, back) {
				t.Fatalf("%q parses to %#v, printed as %q, which parses to %#v", line, op, formatted, back)
			}
			if again := ops.Format(back); again != formatted {
				t.Fatalf("printing is not stable: %q then %q", formatted, again)
			}
		}
		if err != nil {
			return
		}
		back, err := ops.ParseString(ops.String(script))
		if err != nil {
			t.Fatalf("a parsed script printed does not parse: %v\n%s", err, ops.String(script))
		}
		if len(script) != len(back) || (len(script) > 0 && !reflect.DeepEqual(script, back)) {
			t.Fatalf("a parsed script printed and parsed back differs:\n%#v\n%#v", script, back)
		}
	})
}
