package main

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// A long result is cut at a whole character, never inside one.
func TestOneLineCutsAtCharacter(t *testing.T) {
	for _, ch := range []string{"é", "€", "😀", "a"} {
		for lead := 0; lead < 4; lead++ {
			s := strings.Repeat("x", lead) + strings.Repeat(ch, 100)
			got := oneLine(s)
			if !utf8.ValidString(got) {
				t.Errorf("oneLine(%d×x + 100×%s) = %q: not valid UTF-8", lead, ch, got)
			}
			body, ok := strings.CutSuffix(got, "...")
			if !ok || !strings.HasPrefix(s, body) {
				t.Errorf("oneLine(%d×x + 100×%s) = %q: want a prefix of s and ...", lead, ch, got)
			}
			if len(got) > 80 || len(body) < 77-utf8.UTFMax+1 {
				t.Errorf("oneLine(%d×x + 100×%s) is %d bytes: want 74–80", lead, ch, len(got))
			}
		}
	}
}

func TestOneLineShort(t *testing.T) {
	if got := oneLine("a\nb"); got != "a b" {
		t.Errorf("oneLine = %q, want a b", got)
	}
	s := strings.Repeat("é", 40) // 80 bytes: fits
	if got := oneLine(s); got != s {
		t.Errorf("80 bytes cut: %q", got)
	}
}
