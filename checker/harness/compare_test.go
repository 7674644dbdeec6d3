package harness

import (
	"encoding/json"
	"strings"
	"testing"
)

// A view whose message keys come out in another order differs from the
// original's: ViewDiff names the section and the first key out of place.
func TestViewDiffKeyOrder(t *testing.T) {
	want := json.RawMessage(`{"head_id": "a1", "chain": [{"id": "a1", "role": "assistant", "content": "hi"}]}`)
	same := json.RawMessage(`{"head_id":"a1","chain":[{"id":"a1","role":"assistant","content":"hi"}]}`)
	swapped := json.RawMessage(`{"head_id": "a1", "chain": [{"id": "a1", "content": "hi", "role": "assistant"}]}`)
	if s, d := ViewDiff(want, same); s != "" {
		t.Errorf("equal views differ in %s: %s", s, d)
	}
	s, d := ViewDiff(want, swapped)
	if s != "chain" || !strings.HasPrefix(d, "[0]: ") || !strings.Contains(d, `"content"`) {
		t.Errorf("ViewDiff = %q, %q; want chain with the first key out of place (its path below the section)", s, d)
	}
	top := json.RawMessage(`{"chain": [{"id": "a1", "role": "assistant", "content": "hi"}], "head_id": "a1"}`)
	if s, _ := ViewDiff(want, top); s != "view" {
		t.Errorf("a view with its own keys in another order: section %q, want view", s)
	}
}
