// Package progress is what the long runs (exhaust, hunt) share of the
// lines that say how far they are, on standard error while they last:
// counts written for a reader, the time left at the rate so far, and a
// ticker that prints a line every interval until stopped.
package progress

import (
	"fmt"
	"io"
	"sync"
	"time"
)

// Count writes n with thousands separators.
func Count(n int64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// Left is the time left to do rest at the rate of did in elapsed: "about
// 3m20s left".
func Left(elapsed time.Duration, did, rest float64) string {
	left := time.Duration(float64(elapsed) * rest / did)
	return "about " + left.Round(time.Second).String() + " left"
}

// DefaultEvery is how often Tick prints by default.
const DefaultEvery = 10 * time.Second

// Tick writes line(now) to w every every (0: DefaultEvery) until the
// returned stop is called; stop waits for a line being written.
func Tick(w io.Writer, every time.Duration, line func(now time.Time) string) (stop func()) {
	if every <= 0 {
		every = DefaultEvery
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case now := <-t.C:
				fmt.Fprintln(w, line(now))
			}
		}
	})
	return func() { close(done); wg.Wait() }
}
