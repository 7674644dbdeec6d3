package termtext

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestText(t *testing.T) {
	for in, want := range map[string]string{
		"hello":                       "hello",
		"café ☕\nline two\tx":         "café ☕\nline two\tx",
		"\x1b[2J\x1b]52;c;SGVsbG8=\a": `\x1b[2J\x1b]52;c;SGVsbG8=\x07`,
		"a\rb\x00c\x7f":               `a\x0db\x00c\x7f`,
		"\u0085\u009b":                `\u0085\u009b`,
		"abc\u202edef":                `abc\u202edef`,
		"bad\xffbyte":                 `bad\xffbyte`,
	} {
		require.Equal(t, want, Text(in), "%q", in)
	}
}

func TestLine(t *testing.T) {
	require.Equal(t, `a\x0ab\x09c`, Line("a\nb\tc"))
	require.Equal(t, "plain id", Line("plain id"))
}

// TestOutputHasNoControls: whatever the input, the output holds no byte
// a terminal acts on and is valid UTF-8.
func TestOutputHasNoControls(t *testing.T) {
	var all []byte
	for b := 0; b < 256; b++ {
		all = append(all, byte(b))
	}
	for _, s := range []string{string(all), "\u202a\u2066\u200f" + string(all[128:])} {
		out := Line(s)
		for _, r := range out {
			require.False(t, r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f, "%q", out)
		}
		require.True(t, isUTF8(out))
	}
}

func isUTF8(s string) bool {
	for _, r := range s {
		if r == '\uFFFD' {
			return false
		}
	}
	return true
}
