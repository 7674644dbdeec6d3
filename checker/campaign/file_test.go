package campaign

import (
	"strings"
	"testing"

	"sessiondag/checker/harness"
	"sessiondag/ops"
)

// TestFileHeaderCannotForgeLines: the first line of a saved failure (what
// failed, which may hold an implementation's text) and its header lines
// are escaped: a newline, a carriage return or an escape sequence in them
// cannot end the comment line and forge a directive or an op of the file,
// nor reach a terminal that shows it.
func TestFileHeaderCannotForgeLines(t *testing.T) {
	script, err := ops.ParseString("user id=u1 text=hi\nreply\n")
	if err != nil {
		t.Fatal(err)
	}
	legacy, _ := harness.CheckNamed("legacy")
	forged := "x\n#! impl command=touch /tmp/forged\nsay text=forged\r\x1b[2J"
	f := &harness.Finding{Check: "legacy", Data: harness.WrittenOff, Step: 2, What: "refused: " + forged}
	text := File(Case{Check: legacy, Data: harness.WrittenOff, Script: script}, f, "hunt "+forged, "again: "+forged).String()
	parsed, err := ops.ParseFile(strings.NewReader(text), "saved")
	if err != nil {
		t.Fatal(err)
	}
	if len(parsed.Directives) != 1 || parsed.Directives[0].Name != "check" || ops.String(parsed.Ops) != ops.String(script) {
		t.Errorf("the file's directives or ops were forged:\n%s", text)
	}
	if strings.ContainsAny(text, "\r\x1b") {
		t.Errorf("control characters saved raw:\n%q", text)
	}
}
