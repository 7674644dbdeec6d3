package webui

import (
	"testing"

	"sessiondag/impl/node"
)

// TestDurationMS: duration_ms is Python's int(duration_seconds * 1000).
// The expected values are CPython's (3.12) for the same literals.
func TestDurationMS(t *testing.T) {
	for _, c := range []struct{ lit, want string }{
		{"0.5", "500"},
		{"2.034", "2033"}, // 2033.9999999999998
		{"1.005", "1004"}, // 1004.9999999999999
		{"0.30000000000000004", "300"},
		{"1e-05", "0"},
		{"-0.0005", "0"}, // truncated towards zero, not floored
		{"1782000123.456789", "1782000123456"},
		{"1e+16", "10000000000000000000"},                   // past int64: still exact
		{"12345678901234567890", "12345678901234567890000"}, // an int stays exact
		{"NaN", ""},
		{"Infinity", ""},
		{"1e306", ""}, // ×1000 overflows to inf
	} {
		got, ok := durationMS(node.Num(c.lit))
		if c.want == "" {
			if ok {
				t.Errorf("%s: got %s, want no duration_ms", c.lit, got.S)
			}
			continue
		}
		if !ok || got.S != c.want {
			t.Errorf("%s: got %q (%v), want %s", c.lit, got.S, ok, c.want)
		}
	}
	// Python's bool is an int: int(True * 1000) is 1000.
	for b, want := range map[bool]string{true: "1000", false: "0"} {
		if got, ok := durationMS(node.BoolV(b)); !ok || got.S != want {
			t.Errorf("%v: got %q (%v), want %s", b, got.S, ok, want)
		}
	}
	if _, ok := durationMS(node.Str("2.5")); ok {
		t.Error("a string duration must give no duration_ms")
	}
}
