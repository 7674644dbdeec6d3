package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestBlindingHelloRefused: an implementation that declares the message
// text unmodelled — a proxy of `sessiondag serve --mint` that replaces
// every message's text — is refused at its handshake, saying why (exit
// 2): a key the checks are about is never left out of the comparison.
func TestBlindingHelloRefused(t *testing.T) {
	shape := filepath.Join("..", "..", "corpus", "ops", "shapes", "01-plain-web-chat.ops")
	blinding := served("--mint") + ` | sed -u 's/"type":"hello",/"type":"hello","unmodelled":["content"],/; s/"content":"[^"]*"/"content":"blinded"/g'`
	code, out := runCmd(t, "replay", shape, "--impl", blinding)
	if code != 2 || !strings.Contains(out, `unmodelled: "content" is a key the checks are about`) || strings.Contains(out, "verdict: PASS") {
		t.Fatalf("replay against a blinding implementation: exit %d, want 2 and the reason\n%s", code, out)
	}
}

// TestVerdictSaysWhatWasLeftOut: against an implementation that declares
// a key unmodelled and returns only the load, the verdict line of replay,
// hunt and exhaust says both were left out of the comparison.
func TestVerdictSaysWhatWasLeftOut(t *testing.T) {
	shape := filepath.Join("..", "..", "corpus", "ops", "shapes", "01-plain-web-chat.ops")
	narrow := served("--flags off") + ` | sed -u 's/"type":"hello",/"type":"hello","unmodelled":["timestamp"],/; s/"views":\[[^]]*\]/"views":["load"]/'`
	want := "left out of the comparison: message keys timestamp (declared unmodelled); views stored_head, messages, all, branch, render, before_cards (not returned)"
	for _, args := range [][]string{
		{"replay", shape, "--check", "legacy", "--impl", narrow},
		{"hunt", "--seed", "1", "--iterations", "4", "--max-ops", "8", "--check", "legacy", "--out", "", "--impl", narrow},
		{"exhaust", "--max-ops", "1", "--check", "legacy", "--quiet", "--impl", narrow},
	} {
		code, out := runCmd(t, args...)
		last := ""
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, "verdict: ") {
				last = l
			}
		}
		if code != 0 || !strings.HasPrefix(last, "verdict: PASS") || !strings.HasSuffix(last, want) {
			t.Errorf("%s: exit %d, verdict line %q, want a pass ending %q\n%s", args[0], code, last, want, out)
		}
	}
}
