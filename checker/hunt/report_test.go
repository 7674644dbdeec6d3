package hunt

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"sessiondag/checker/harness"
)

// The JSON lines: one record per distinct failure, then the summary, whose
// counts are the report's; each line is one JSON object.
func TestJSONLines(t *testing.T) {
	withPlanted(t)
	r, err := Run(context.Background(), Config{Seed: 3, Iterations: 200, MaxOps: 40, Out: t.TempDir(),
		Targets: []harness.Check{plantedOn(harness.OffAny, harness.WrittenOn)}})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Failures) == 0 {
		t.Fatal("no failure to write")
	}
	var buf bytes.Buffer
	if err := r.JSON(&buf); err != nil {
		t.Fatal(err)
	}
	var kinds []string
	var sum struct {
		Kind    string
		Summary Summary
	}
	sc := bufio.NewScanner(&buf)
	for sc.Scan() {
		var rec map[string]any
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatalf("not a JSON object: %s", sc.Text())
		}
		kinds = append(kinds, rec["kind"].(string))
		if rec["kind"] == "hunt-failure" && (rec["file"] == "" || rec["key"] == "" || rec["check"] != planted.Name) {
			t.Errorf("a failure record without its file, key or check: %s", sc.Text())
		}
		if err := json.Unmarshal(sc.Bytes(), &sum); err != nil {
			t.Fatal(err)
		}
	}
	want := strings.Repeat("hunt-failure ", len(r.Failures)) + "hunt"
	if got := strings.Join(kinds, " "); got != want {
		t.Fatalf("records %q, want %q", got, want)
	}
	s := sum.Summary
	if s.Scripts != 200 || s.Failures != len(r.Failures) || s.Findings != r.Findings || s.Ops != r.Ops || len(s.Properties) != 2 {
		t.Errorf("summary %+v does not match the report", s)
	}
	scripts, failures := 0, 0
	for _, p := range s.Properties {
		scripts += p.Scripts
		failures += p.Failures
	}
	if scripts != s.Scripts || failures != s.Failures {
		t.Errorf("the properties add up to %d scripts and %d failures, the summary says %d and %d", scripts, failures, s.Scripts, s.Failures)
	}
}
