package progress

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestCount(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", 1234567: "1,234,567", -1234567: "-1,234,567"} {
		if got := Count(n); got != want {
			t.Errorf("Count(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestLeft(t *testing.T) {
	if got := Left(10*time.Second, 1, 3); got != "about 30s left" {
		t.Errorf("Left = %q", got)
	}
}

// lockedBuffer is a buffer the ticker and the test read alike.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) lines() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Count(l.b.String(), "line\n")
}

// TestTick: a line every interval until stopped, none after.
func TestTick(t *testing.T) {
	var out lockedBuffer
	stop := Tick(&out, time.Millisecond, func(time.Time) string { return "line" })
	time.Sleep(50 * time.Millisecond)
	stop()
	n := out.lines()
	time.Sleep(10 * time.Millisecond)
	if n == 0 || out.lines() != n {
		t.Errorf("%d lines, then %d after stop", n, out.lines())
	}
}
