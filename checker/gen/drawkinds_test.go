package gen

import (
	"slices"
	"testing"

	"sessiondag/ops"
)

// TestDrawKindsOf: every draw kind is an op kind or a variant of one, so
// restricting the draw to an implementation's op kinds keeps exactly the
// draw kinds whose ops it writes, and a script drawn that way holds no
// other kind.
func TestDrawKindsOf(t *testing.T) {
	if got := DrawKindsOf(ops.Kinds()); !slices.Equal(got, DrawKinds) {
		t.Fatalf("every op kind should keep every draw kind; lost %v", missing(DrawKinds, got))
	}
	only := []string{"user", "reply", "done", "tool", "reload"}
	kinds := DrawKindsOf(only)
	if want := []string{"user", "reply", "done", "tool", "tool-legacy", "reload"}; !slices.Equal(kinds, want) {
		t.Fatalf("DrawKindsOf(%v) = %v, want %v", only, kinds, want)
	}
	g := New(Options{Legacy: true, Only: kinds})
	for _, op := range g.Script(NewSeeded(7), 200) {
		if !slices.Contains(only, op.Kind()) {
			t.Fatalf("drew %s, not one of %v", ops.Format(op), only)
		}
	}
}

func missing(all, got []string) []string {
	var out []string
	for _, k := range all {
		if !slices.Contains(got, k) {
			out = append(out, k)
		}
	}
	return out
}
