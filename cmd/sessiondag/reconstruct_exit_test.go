package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReconstructExitIsTheVerdict: on every session of corpus/sessions (the
// project's own, whose rows both writers write alike), `sessiondag
// reconstruct --json` exits as the verdict it prints says — 0 reconstructed,
// 3 ambiguous or undecided, 1 unexplained — and the implementation's
// writers (impl/writer) write each reconstructed script as model.Legacy
// does. Where they do not, the command names the row on stderr and exits
// 1: a finding about the writers, whatever the data.
func TestReconstructExitIsTheVerdict(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join("..", "..", "corpus", "sessions", "*"))
	if err != nil {
		t.Fatal(err)
	}
	codes := map[string]int{"reconstructed": 0, "ambiguous": 3, "undecided": 3, "unexplained": 1}
	seen := map[string]int{}
	for _, dir := range dirs {
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			continue
		}
		r := cli("reconstruct", "--json", dir)
		var doc struct {
			Verdict  string `json:"verdict"`
			Disagree string `json:"disagree"`
		}
		if err := json.Unmarshal([]byte(r.out), &doc); err != nil {
			t.Fatalf("%v\n%s", err, r)
		}
		want, ok := codes[doc.Verdict]
		if !ok {
			t.Fatalf("verdict %q\n%s", doc.Verdict, r)
		}
		seen[doc.Verdict]++
		if doc.Disagree != "" {
			want = 1
			t.Errorf("%s: the writers disagree (exit %d): %s", dir, r.code, doc.Disagree)
		}
		if r.code != want {
			t.Errorf("%s: %s, disagree %q: exit %d, want %d\n%s", dir, doc.Verdict, doc.Disagree, r.code, want, r)
		}
		if said := strings.Contains(r.errs, "the writers disagree"); said != (doc.Disagree != "") {
			t.Errorf("%s: the JSON's disagreement %q, stderr %q", dir, doc.Disagree, r.errs)
		}
	}
	if seen["reconstructed"] == 0 || seen["ambiguous"] == 0 {
		t.Fatalf("the corpus gave %v: no reconstructed or no ambiguous session", seen)
	}
	t.Logf("%v", seen)
}
