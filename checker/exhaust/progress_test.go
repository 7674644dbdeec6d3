package exhaust

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	tick "sessiondag/internal/progress"
	"sessiondag/internal/shard"
)

// syncBuffer is a buffer the progress goroutine writes while the test reads.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// leftIn is the time left a progress line gives.
func leftIn(t *testing.T, line string) time.Duration {
	t.Helper()
	m := regexp.MustCompile(`about (\S+) left`).FindStringSubmatch(line)
	require.NotNil(t, m, line)
	d, err := time.ParseDuration(m[1])
	require.NoError(t, err)
	return d
}

// TestProgressCountsTheParts: the parts a progress line counts are the
// walk's parts (Parts, what shards and claims deal out), all of them or a
// shard's. Once sized it gives the estimated scripts of the run's parts
// and the time left at the rate so far; one op below the parts, where a
// part is its head and its children, it sizes nothing and the time left is
// at the rate parts were begun.
func TestProgressCountsTheParts(t *testing.T) {
	for _, max := range []int{ShardDepth + 1, ShardDepth + 2} {
		parts, err := Parts(max, sizeKinds)
		require.NoError(t, err)
		for _, sh := range []shard.Shard{shard.Whole, {I: 2, N: 5}} {
			o := Options{MaxOps: max, Shard: sh, Progress: &syncBuffer{}, shape: shape{kinds: sizeKinds}}
			p, err := newProgress(o)
			require.NoError(t, err)
			owns := func(k int) bool { return sh.Owns(uint64(k)) }
			var owned int64
			for k := range parts {
				if owns(k) {
					owned++
				}
			}
			require.Equal(t, owned, p.parts, "shard %v", sh)
			if max == ShardDepth+1 {
				require.Nil(t, p.size)
				require.Contains(t, p.left(10, time.Second), fmt.Sprintf("0 of %d parts begun, time left unknown", owned))
				p.begun.Store(owned / 4)
				line := p.left(10, 10*time.Second)
				want := time.Duration(float64(10*time.Second) * float64(owned-owned/4) / float64(owned/4)).Round(time.Second)
				require.Equal(t, want, leftIn(t, line), line)
				continue
			}
			require.Contains(t, p.left(10, time.Second), fmt.Sprintf("0 of %d parts begun, sizing the walk", owned))
			var out bytes.Buffer
			p.estimate(&out, nil)
			require.Empty(t, out.String())
			total, se := p.sizes.Load().Total(owns)
			sized, err := estimateSizes(max, o.shape, func(k int) (bool, error) { return owns(k), nil }, sizeProbes, nil)
			require.NoError(t, err)
			want, _ := sized.Total(nil)
			require.Equal(t, want, total, "a shard's sizes are of its parts only")
			done := int64(total / 4)
			line := p.left(done, 10*time.Second)
			require.Contains(t, line, fmt.Sprintf("of about %s scripts (±%s)", tick.Count(int64(total)), tick.Count(int64(2*se))), "shard %v", sh)
			require.Equal(t, time.Duration(float64(10*time.Second)*(total-float64(done))/float64(done)).Round(time.Second), leftIn(t, line), line)
		}
	}
}

// TestProgressClaimed: a claimant counts the parts every claimant
// finished, from the shared directory, and the time left at the rate
// parts were finished since its first count.
func TestProgressClaimed(t *testing.T) {
	max := ShardDepth + 2
	parts, err := Parts(max, sizeKinds)
	require.NoError(t, err)
	c := &Claims{Dir: t.TempDir(), Name: "a"}
	o := Options{MaxOps: max, Shard: shard.Whole, Claim: c, Progress: &syncBuffer{}, Kinds: sizeKinds, shape: shape{kinds: sizeKinds}}
	require.NoError(t, c.prepare(walkOf(t, o)))
	p, err := newProgress(o)
	require.NoError(t, err)
	require.Contains(t, p.left(0, time.Second), fmt.Sprintf("0 of %d parts finished by every claimant, sizing the walk", parts))
	p.estimate(&bytes.Buffer{}, nil)
	total, _ := p.sizes.Load().Total(nil)

	finish := func(k int) { require.NoError(t, os.WriteFile(c.partFile(k), []byte("{}\n"), 0o644)) }
	finish(0)
	line := p.left(0, time.Second)
	require.Contains(t, line, fmt.Sprintf("1 of %d parts finished by every claimant", parts))
	require.Contains(t, line, tick.Count(int64(total-p.sizes.Load().Scripts[0]))+" scripts (±")
	require.Contains(t, line, "time left unknown", "nothing finished since the first count")

	// Half of what was left finished in the next 10 s: 10 s more to go.
	rest := total - p.sizes.Load().Scripts[0]
	var did float64
	k := 1
	for ; did < rest/2; k++ {
		finish(k)
		did += p.sizes.Load().Scripts[k]
	}
	require.NoError(t, os.WriteFile(filepath.Join(c.Dir, "parts", "0000001.jsonl.tmp-b"), nil, 0o644))
	line = p.left(0, 11*time.Second)
	require.Contains(t, line, fmt.Sprintf("%d of %d parts finished", k, parts), "a file being written is not a part finished")
	want := time.Duration(float64(10*time.Second) * (rest - did) / did).Round(time.Second)
	require.Equal(t, want, leftIn(t, line), line)

	// Twenty minutes on, the rate is that of the last ten minutes, from the
	// last count before them (at 12 s), not from the first (at 1 s) nor
	// from the first within them (at 15 min).
	p.left(0, 12*time.Second)
	var more float64
	finishUpTo := func(stop float64) {
		for ; did+more < stop; k++ {
			finish(k)
			more += p.sizes.Load().Scripts[k]
		}
	}
	finishUpTo(did + (rest-did)/4)
	p.left(0, 15*time.Minute)
	finishUpTo(did + (rest-did)/2)
	at := time.Second + 20*time.Minute
	line = p.left(0, at)
	want = time.Duration(float64(at-12*time.Second) * (rest - did - more) / more).Round(time.Second)
	require.Equal(t, want, leftIn(t, line), line)
}

// TestProgressLines: a run prints its progress lines in the form above, and
// a sizing still under way when the run ends is given up, not reported.
func TestProgressLines(t *testing.T) {
	var out syncBuffer
	_, _, err := Run(Options{MaxOps: ShardDepth + 1, Kinds: sizeKinds, Checks: nil, Progress: &out, ProgressEvery: 5 * time.Millisecond})
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	require.NotEmpty(t, lines)
	require.Regexp(t, `^exhaust: [\d,]+ scripts \(\d+/s\), \d+ states \(\d+/s\), depth \d, \d+ of \d+ parts begun`, lines[0])
	require.NotContains(t, out.String(), "not estimated")
}
