package protocol_test

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"sessiondag/protocol"
)

// TestDocListsTheJudgedKeys: the table of docs/protocol.md, "What the
// checks compare", names exactly the keys a hello may not declare
// unmodelled (protocol.Judged): an implementer reads there what the
// harness refuses.
func TestDocListsTheJudgedKeys(t *testing.T) {
	doc, err := os.ReadFile("../docs/protocol.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(doc)
	start := strings.Index(text, "\n## What the checks compare\n")
	if start < 0 {
		t.Fatal(`docs/protocol.md has no section "What the checks compare"`)
	}
	section := text[start+1:]
	if end := strings.Index(section, "\n## "); end >= 0 {
		section = section[:end]
	}
	// The table's rows: the first cell lists keys, each in backquotes.
	var listed []string
	for _, row := range regexp.MustCompile("(?m)^\\| (`[^|]*) \\|").FindAllStringSubmatch(section, -1) {
		for _, k := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(row[1], -1) {
			if !slices.Contains(listed, k[1]) {
				listed = append(listed, k[1])
			}
		}
	}
	for _, k := range protocol.Judged {
		if !slices.Contains(listed, k) {
			t.Errorf("docs/protocol.md does not list %q, which unmodelled may not name", k)
		}
	}
	for _, k := range listed {
		if !slices.Contains(protocol.Judged, k) {
			t.Errorf("docs/protocol.md lists %q as a key unmodelled may not name, but the harness accepts it", k)
		}
	}
}
