package exhaust

import (
	"crypto/sha256"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestPartClockIsTheWorkers: two workers burn the same work side by side,
// each timing it by its part clock. Each measures its own half of what the
// process spent over those seconds; a clock of the process's time would
// give each about all of it (the other worker's too), which is how a
// claimant of two workers once reported twice its processor time.
func TestPartClockIsTheWorkers(t *testing.T) {
	if _, ok := threadCPUSeconds(); !ok {
		t.Skip("no thread's processor time here")
	}
	burn := func() {
		b := make([]byte, 4096)
		for range 20000 {
			s := sha256.Sum256(b)
			b[0] = s[0]
		}
	}
	own := make([]float64, 2)
	before := cpuSeconds()
	var wg sync.WaitGroup
	for w := range own {
		wg.Go(func() {
			clock, done := partClock(2)
			defer done()
			start := clock()
			burn()
			own[w] = clock() - start
		})
	}
	wg.Wait()
	all := cpuSeconds() - before
	for w, s := range own {
		require.Positive(t, s)
		require.Less(t, s, 0.75*all, "worker %d measured %.3f s of the process's %.3f s", w, s, all)
	}
}
