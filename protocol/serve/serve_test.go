package serve

import (
	"bytes"
	"io"
	"runtime"
	"strings"
	"testing"
)

// TestServeBoundsRequests: a request line longer than the bound ends the
// server with an error saying so, having read no more of it than the
// bound; a line within it is answered.
func TestServeBoundsRequests(t *testing.T) {
	const limit = 1 << 20
	var out bytes.Buffer
	in := io.MultiReader(strings.NewReader(`{"type":"hello","protocol":1}`+"\n"), strings.NewReader(strings.Repeat("x", 64<<20)))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	err := Serve(in, &out, Options{MaxRequest: limit})
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "a request line longer than 1048576 bytes (1 MiB)") {
		t.Fatalf("Serve: %v, want the bound's error", err)
	}
	if !strings.HasPrefix(out.String(), `{"type":"hello"`) {
		t.Errorf("the hello within the bound was not answered: %q", out.String())
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8*limit {
		t.Errorf("reading the long line allocated %d bytes, with a bound of %d", alloc, limit)
	}
}
