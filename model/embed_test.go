package model

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// embedCase is a session folder (its files: a user, a reply, an attach row
// and the context commits it may name) and the attach the load must show,
// worked out from the original's _attach_info, _attach_embed_stats and
// ContextCommit readers and checked against the original's own load of each
// folder (adapters/openprogram/record.py --view: every case agrees at R).
// corpus/embed-cases.json holds them for both readers.
type embedCase struct {
	Name  string            `json:"name"`
	Files map[string]string `json:"files"`
	Want  string            `json:"want"`
}

func readEmbedCases(t *testing.T) []embedCase {
	t.Helper()
	b, err := os.ReadFile("../corpus/embed-cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []embedCase
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatalf("corpus/embed-cases.json: %v", err)
	}
	if len(cases) == 0 {
		t.Fatal("corpus/embed-cases.json holds no case")
	}
	return cases
}

// writeEmbedSession writes the case's folder.
func writeEmbedSession(t *testing.T, c embedCase) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "s")
	for name, text := range c.Files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestEmbedStats: the attach row the model's load shows, for each case,
// has exactly the attach the original builds, keys in its order.
func TestEmbedStats(t *testing.T) {
	for _, c := range readEmbedCases(t) {
		t.Run(c.Name, func(t *testing.T) {
			s, err := ReadSessionDir(writeEmbedSession(t, c))
			if err != nil {
				t.Fatal(err)
			}
			chain := LegacyView(s).Chain
			last := chain[len(chain)-1]
			if last.Str("id") != "at1" {
				t.Fatalf("last row %s", last.Str("id"))
			}
			want, err := ParseJSON([]byte(c.Want))
			if err != nil {
				t.Fatal(err)
			}
			got, _ := json.Marshal(last.Val("attach"))
			wantText, _ := json.Marshal(want)
			if string(got) != string(wantText) {
				t.Errorf("attach %s, want %s", got, wantText)
			}
		})
	}
}
