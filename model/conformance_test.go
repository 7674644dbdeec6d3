package model

import (
	"bytes"
	"encoding/json"
	"math/big"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const conformanceDir = "../corpus/conformance"

// decodeJSON decodes with UseNumber so that numbers keep their text.
func decodeJSON(t *testing.T, data []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("decode: %v", err)
	}
	return v
}

// numbersEqual compares JSON numbers numerically (2 == 2.0, 1e+16 == 10000000000000000).
var numbersEqual = cmp.Comparer(func(a, b json.Number) bool {
	x, ok1 := new(big.Rat).SetString(string(a))
	y, ok2 := new(big.Rat).SetString(string(b))
	if !ok1 || !ok2 {
		return a == b
	}
	return x.Cmp(y) == 0
})

// TestConformance: for every session of the original's conformance corpus,
// head_id and chain equal what the original itself sent (decoded JSON: key
// order ignored, numbers numerically, strings byte for byte).
func TestConformance(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join(conformanceDir, "sessions", "*"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no conformance sessions: %v", err)
	}
	if len(dirs) != 60 {
		t.Errorf("want 60 sessions, found %d", len(dirs))
	}
	for _, dir := range dirs {
		id := filepath.Base(dir)
		t.Run(id, func(t *testing.T) {
			s, err := ReadSessionDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			view := LegacyView(s)
			got, err := json.Marshal(map[string]any{"head_id": view.HeadID, "chain": view.Chain})
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(filepath.Join(conformanceDir, "expected", id+".json"))
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(decodeJSON(t, want), decodeJSON(t, got), numbersEqual); d != "" {
				t.Errorf("%s (-original +model):\n%s", id, d)
			}
			// The whole view must marshal (views.md).
			if _, err := json.Marshal(view); err != nil {
				t.Errorf("marshal view: %v", err)
			}
		})
	}
}
