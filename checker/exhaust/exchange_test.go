package exhaust

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sessiondag/checker/campaign"
	"sessiondag/checker/harness"
	"sessiondag/impl/flags"
)

// exchangeKinds are op kinds whose 4-op walk passes the default checks in a
// few seconds and meets many states twice.
var exchangeKinds = []string{"user", "reply", "think", "tool", "done", "checkout", "retry", "clock", "flag"}

// claimed runs o as claimant name in dir.
func claimed(t *testing.T, o Options, dir, name string) (Summary, []Failure, error) {
	t.Helper()
	o.Claim = &Claims{Dir: dir, Name: name}
	return Run(o)
}

// memoFiles are the exchange files under a claims directory.
func memoFiles(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "memos", "*", "*"))
	require.NoError(t, err)
	return files
}

// copyMemos copies the exchange files of from into a new claims
// directory, each changed by edit, and returns that directory.
func copyMemos(t *testing.T, from string, edit func([]byte) []byte) string {
	t.Helper()
	to := t.TempDir()
	for _, f := range memoFiles(t, from) {
		rel, err := filepath.Rel(from, f)
		require.NoError(t, err)
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(to, rel)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(to, rel), edit(b), 0o644))
	}
	return to
}

func unchanged(b []byte) []byte { return b }

// TestExchangeTakesOthersStates: a claimant takes in the states another
// claimant of the same walk expanded and walks none of them again, with
// the counts of a walk of its own; a claimant of another walk takes in
// nothing; a file damaged in the middle is an error naming it, and one cut
// short gives what is complete.
func TestExchangeTakesOthersStates(t *testing.T) {
	o := Options{MaxOps: 4, Kinds: exchangeKinds, MaxReduced: 1 << 20, giveBelow: 1}
	first := t.TempDir()
	a, _, err := claimed(t, o, first, "a")
	require.NoError(t, err)
	require.Positive(t, a.States)
	require.NotEmpty(t, memoFiles(t, first), "a gave nothing")

	b, _, err := claimed(t, o, copyMemos(t, first, unchanged), "b")
	require.NoError(t, err)
	require.Equal(t, counts(a), counts(b))
	require.Equal(t, a.ByLength, b.ByLength)
	t.Logf("a: %d scripts, %d states, %d checks; b: %d states, %d checks, %d found again", a.Scripts, a.States, a.ChecksRun, b.States, b.ChecksRun, b.Reused)
	require.Zero(t, b.States, "b expanded a state a had expanded")
	require.Less(t, b.ChecksRun, a.ChecksRun)

	// Another walk (of fewer checks) in the same directory takes in none
	// of them: the tallies below a state are of the walk's checks.
	other := o
	other.Checks = DefaultChecks()[:1]
	alone, _, err := claimed(t, other, t.TempDir(), "c")
	require.NoError(t, err)
	beside, _, err := claimed(t, other, copyMemos(t, first, unchanged), "c")
	require.NoError(t, err)
	require.Positive(t, alone.States)
	require.Equal(t, alone.States, beside.States, "a walk of other checks took in the states of a's")

	// A file cut short: the frames before the cut are taken in.
	cut, _, err := claimed(t, o, copyMemos(t, first, func(b []byte) []byte { return b[:len(b)-3] }), "b")
	require.NoError(t, err)
	require.Equal(t, counts(a), counts(cut))
	require.Positive(t, cut.States)
	require.Less(t, cut.States, a.States)

	// A byte changed in the middle: the frames before it are taken in,
	// and the reader goes on (before, an error: exit 2 for every claimant).
	damaged := copyMemos(t, first, func(b []byte) []byte {
		b = append([]byte(nil), b...)
		b[len(b)/2] ^= 0x40
		return b
	})
	var note syncBuffer
	o.Progress, o.ProgressEvery = &note, time.Hour
	mid, _, err := claimed(t, o, damaged, "b")
	require.NoError(t, err)
	require.Equal(t, counts(a), counts(mid))
	require.Less(t, mid.States, a.States)
	require.Contains(t, note.String(), filepath.Join(damaged, "memos"))
	require.Contains(t, note.String(), "checksum")
}

// fourRows fails on four stored messages: only below the states the memos
// keep (memoFrom), so that a failing state passed on would hide it.
var fourRows = harness.Check{Name: "four-rows", Prop: "test", Doc: "four messages",
	Data: []harness.Data{harness.OffAny}, Run: func(s *harness.Session) *harness.Finding {
		if len(s.Load(flags.Off).Messages) >= 4 {
			return &harness.Finding{What: "four messages"}
		}
		return nil
	}}

// TestExchangeKeepsFailuresOwn: what fails is not passed on. A claimant
// beside the memos of another that found failures finds the same ones by
// its own walk, with the same counts.
func TestExchangeKeepsFailuresOwn(t *testing.T) {
	o := Options{MaxOps: 4, Kinds: exchangeKinds, Checks: []harness.Check{fourRows}, MaxReduced: 1 << 20, giveBelow: 1}
	first := t.TempDir()
	a, fa, err := claimed(t, o, first, "a")
	require.NoError(t, err)
	require.Positive(t, a.Failures)
	b, fb, err := claimed(t, o, copyMemos(t, first, unchanged), "b")
	require.NoError(t, err)
	require.Equal(t, counts(a), counts(b))
	require.Less(t, b.States, a.States, "b took in none of a's states")
	keys := func(fs []Failure) map[string]bool {
		out := map[string]bool{}
		for _, f := range fs {
			out[campaign.Key(f.Reduced.Case)] = true
		}
		return out
	}
	require.NotEmpty(t, fa)
	require.Equal(t, keys(fa), keys(fb))
}

// TestExchangeGivesDeepStates: by default the states given have two ops
// below them or more; a 4-op walk's claimed states have one, and its
// claimants give none of them.
func TestExchangeGivesDeepStates(t *testing.T) {
	o := Options{MaxOps: 4, Kinds: exchangeKinds, MaxReduced: 1 << 20}
	dir := t.TempDir()
	a, _, err := claimed(t, o, dir, "a")
	require.NoError(t, err)
	require.Positive(t, a.States)
	files := memoFiles(t, dir)
	require.Len(t, files, 1)
	b, err := os.ReadFile(files[0])
	require.NoError(t, err)
	require.Zero(t, len(b), "states one op above the leaves were given")
}

// TestExchangeOpensWhatGrew: a take opens another claimant's file only when
// it grew since the last one; a file shorter than what was taken in of it
// (replaced) is read again from its start.
func TestExchangeOpensWhatGrew(t *testing.T) {
	dir := t.TempDir()
	e := &exchange{dir: dir, self: "a", read: map[string]int64{}, stuck: map[string]fileMark{}}
	other := filepath.Join(dir, "b")
	require.NoError(t, os.WriteFile(other, emptyFrame, 0o644))
	require.NoError(t, e.take())
	require.Equal(t, 1, e.opened)
	require.Equal(t, int64(len(emptyFrame)), e.read["b"])

	require.NoError(t, e.take())
	require.Equal(t, 1, e.opened, "a file that did not grow was opened")

	require.NoError(t, os.WriteFile(other, append(emptyFrame, emptyFrame...), 0o644))
	require.NoError(t, e.take())
	require.Equal(t, 2, e.opened)
	require.Equal(t, int64(2*len(emptyFrame)), e.read["b"])

	require.NoError(t, os.WriteFile(other, emptyFrame, 0o644))
	require.NoError(t, e.take())
	require.Equal(t, int64(len(emptyFrame)), e.read["b"], "read again from its start")
}

// emptyFrame is a frame of no records: length 0, then the CRC-32 of
// nothing, 0.
var emptyFrame = []byte{0, 0, 0, 0, 0}

// tornFrame is a frame whose length is all there and whose bytes are not
// what was written: the checksum fails.
var tornFrame = []byte{5, 1, 2, 3, 4, 5, 0, 0, 0, 0}

// TestExchangeSurvivesTornFrames: a claimant killed while appending leaves
// a torn frame at the end of its file. A reader takes in what comes before
// it, says so once, opens the file again only once it changed, and reads
// on from there; the claimant run again under its name cuts its file back
// to its last whole frame before it appends, so every frame after is read.
// Before, the reader stopped with an error (every claimant, exit 2) and the
// restarted claimant appended after the torn bytes.
func TestExchangeSurvivesTornFrames(t *testing.T) {
	dir := t.TempDir()
	var note syncBuffer
	r := &exchange{dir: dir, self: "r", read: map[string]int64{}, stuck: map[string]fileMark{}, note: &note}
	killed := filepath.Join(dir, "k")
	require.NoError(t, os.WriteFile(killed, append(slices.Clone(emptyFrame), tornFrame...), 0o644))
	require.NoError(t, r.take())
	require.Equal(t, int64(len(emptyFrame)), r.read["k"])
	require.Equal(t, 1, strings.Count(note.String(), "frame checksum"), note.String())
	require.NoError(t, r.take())
	require.Equal(t, 1, r.opened, "a torn file that did not change was opened again")
	require.Equal(t, 1, strings.Count(note.String(), "frame checksum"), "said more than once")

	// The killed claimant again: it cuts off the torn frame, then appends.
	e := &exchange{dir: dir, self: "k", shared: newSharedMemos(1 << 10), maxOps: 2, below: 1, read: map[string]int64{}, stuck: map[string]fileMark{}}
	require.NoError(t, e.reopen())
	info, err := os.Stat(killed)
	require.NoError(t, err)
	require.Equal(t, int64(len(emptyFrame)), info.Size(), "the torn frame is still there")
	_, err = e.out.Write(emptyFrame)
	require.NoError(t, err)
	require.NoError(t, e.out.Close())
	require.NoError(t, r.take())
	require.Equal(t, int64(2*len(emptyFrame)), r.read["k"], "the frame after the cut was not read")
	require.NotContains(t, r.stuck, "k")
}
