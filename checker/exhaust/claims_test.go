package exhaust

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"sessiondag/checker/harness"
	"sessiondag/internal/shard"
	"sessiondag/internal/verdict"
)

// readParts reads the summaries of the parts written under dir.
func readParts(t *testing.T, dir string) []Summary {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "parts", "*.jsonl"))
	require.NoError(t, err)
	var out []Summary
	for _, name := range files {
		f, err := os.Open(name)
		require.NoError(t, err)
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			var rec Record
			require.NoError(t, json.Unmarshal(sc.Bytes(), &rec), name)
			if rec.Summary != nil {
				out = append(out, *rec.Summary)
			}
		}
		require.NoError(t, f.Close())
	}
	return out
}

// walkOf is the walk of the options o.
func walkOf(t *testing.T, o Options) WalkID {
	t.Helper()
	o, err := o.prepared()
	require.NoError(t, err)
	w, err := walkIDOf(o)
	require.NoError(t, err)
	return w
}

// TestClaimsCoverTheWalk: three claimants side by side walk every part
// once between them, and the parts they write merge into the counts of one
// whole run, complete; the failures are saved with their parts. A
// claimant run again under its name finishes a part it had claimed and
// left unwritten (a pod retried after a crash); no other claimant takes it.
func TestClaimsCoverTheWalk(t *testing.T) {
	o := Options{MaxOps: 4, Kinds: dedupKinds, Checks: []harness.Check{twoRows}, MaxReduced: 1 << 20}
	whole, _, err := Run(o)
	require.NoError(t, err)
	require.Positive(t, whole.Failures)
	parts, err := Parts(o.MaxOps, o.Kinds)
	require.NoError(t, err)

	dir := t.TempDir()
	// Part 5 was claimed by "b" in a run that crashed before writing it.
	require.NoError(t, (&Claims{Dir: dir, Name: "b"}).prepare(walkOf(t, o)))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "claims", "5"), []byte("b"), 0o644))
	var wg sync.WaitGroup
	errs := make([]error, 3)
	for i, name := range []string{"a", "b", "c"} {
		wg.Go(func() {
			c := o
			c.Claim = &Claims{Dir: dir, Name: name}
			_, _, errs[i] = Run(c)
		})
	}
	wg.Wait()
	for _, err := range errs {
		require.NoError(t, err)
	}
	sums := readParts(t, dir)
	require.Len(t, sums, parts, "every part written once")
	merged, complete, err := Merge(sums)
	require.NoError(t, err)
	require.True(t, complete)
	require.Equal(t, counts(whole), counts(merged))
	require.Equal(t, whole.ByLength, merged.ByLength)
	require.Len(t, merged.Claimants, 3)
	var claimed int64
	for _, c := range merged.Claimants {
		claimed += c.Parts
	}
	require.EqualValues(t, parts, claimed)
	for _, s := range sums {
		if s.Shard == partName(5, parts) {
			require.Equal(t, "b", s.Claimant, "part 5 was b's to finish")
		}
	}
	saved, err := filepath.Glob(filepath.Join(dir, "failures", "*.ops"))
	require.NoError(t, err)
	require.NotEmpty(t, saved)

	// Run again: every part is written, nothing is left to claim.
	again := o
	again.Claim = &Claims{Dir: dir, Name: "d"}
	sum, _, err := Run(again)
	require.NoError(t, err)
	require.Zero(t, sum.Scripts)
}

// TestClaimsStartApart: a claimant started at 1/2 claims from the middle
// part on, then the parts before it; alone it walks the whole walk, and
// beside one started at 0/2 the two write every part once, each from its
// start, merging into the counts of one whole run (which parts each
// takes depends on their speeds: the claims' order above is what the
// start decides).
func TestClaimsStartApart(t *testing.T) {
	o := Options{MaxOps: 3, Kinds: dedupKinds, Checks: []harness.Check{twoRows}, MaxReduced: 1 << 20}
	whole, _, err := Run(o)
	require.NoError(t, err)
	parts, err := Parts(o.MaxOps, o.Kinds)
	require.NoError(t, err)

	c := &Claims{Dir: t.TempDir(), Name: "late", Start: shard.Shard{I: 1, N: 2}}
	require.NoError(t, c.prepare(walkOf(t, o)))
	var order []int
	for _, owner := range c.passes(parts) {
		for k := range parts {
			mine, err := owner(k)
			require.NoError(t, err)
			if mine {
				order = append(order, k)
			}
		}
	}
	require.Equal(t, parts, len(order), "every part claimed once")
	require.Equal(t, parts/2, order[0], "from the middle")
	require.Equal(t, 0, order[parts-parts/2], "then from the first")

	alone := o
	alone.Claim = &Claims{Dir: t.TempDir(), Name: "late", Start: shard.Shard{I: 1, N: 2}}
	_, _, err = Run(alone)
	require.NoError(t, err)
	merged, complete, err := Merge(readParts(t, alone.Claim.Dir))
	require.NoError(t, err)
	require.True(t, complete, "the parts before its start too")
	require.Equal(t, counts(whole), counts(merged))

	dir := t.TempDir()
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i := range 2 {
		wg.Go(func() {
			c := o
			c.Claim = &Claims{Dir: dir, Name: fmt.Sprint(i), Start: shard.Shard{I: i, N: 2}}
			_, _, errs[i] = Run(c)
		})
	}
	wg.Wait()
	require.NoError(t, errors.Join(errs...))
	sums := readParts(t, dir)
	require.Len(t, sums, parts, "every part written once")
	merged, complete, err = Merge(sums)
	require.NoError(t, err)
	require.True(t, complete)
	require.Equal(t, counts(whole), counts(merged))
}

// TestClaimsOfWorkers: the workers of a claimant are named apart and
// start at their shares of its share of the parts.
func TestClaimsOfWorkers(t *testing.T) {
	c := &Claims{Dir: "d", Name: "pod-3", Start: shard.Shard{I: 3, N: 16}}
	require.Equal(t, &Claims{Dir: "d", Name: "pod-3", Start: shard.Shard{I: 3, N: 16}}, c.worker(0, 1))
	require.Equal(t, &Claims{Dir: "d", Name: "pod-3.1", Start: shard.Shard{I: 7, N: 32}}, c.worker(1, 2))
}

// TestClaimsStopLeavesNoClaim: a claimant that stops at its first failure
// (Stop) has written every part it claimed: a claim left without its part
// would be walked by no other claimant.
func TestClaimsStopLeavesNoClaim(t *testing.T) {
	o := Options{MaxOps: 4, Kinds: dedupKinds, Checks: []harness.Check{twoRows}, MaxReduced: 1, Stop: true,
		Claim: &Claims{Dir: t.TempDir(), Name: "a"}}
	sum, _, err := Run(o)
	require.NoError(t, err)
	require.True(t, sum.Stopped)
	claimed, err := filepath.Glob(filepath.Join(o.Claim.Dir, "claims", "*"))
	require.NoError(t, err)
	written, err := filepath.Glob(filepath.Join(o.Claim.Dir, "parts", "*.jsonl"))
	require.NoError(t, err)
	require.Equal(t, len(claimed), len(written), "a part for every claim")
}

// TestClaimsKeyedByWalk: a claims folder is the folder of one walk. A walk
// of more ops, other checks or other kinds started on it is refused with
// an error naming both walks and what differs (before, a 4-op walk in a
// 3-op walk's folder found every part finished and checked no script); a
// claimant of the same walk finds it finished; a folder holding parts but
// naming no walk is refused; parts of two walks do not merge.
func TestClaimsKeyedByWalk(t *testing.T) {
	three := Options{MaxOps: 3, Kinds: dedupKinds, Checks: []harness.Check{twoRows}, MaxReduced: 1 << 20}
	dir := t.TempDir()
	first, _, err := claimed(t, three, dir, "a")
	require.NoError(t, err)
	require.Positive(t, first.Scripts)

	four := three
	four.MaxOps = 4
	_, _, err = claimed(t, four, dir, "b")
	require.ErrorContains(t, err, "the folder of another walk")
	require.ErrorContains(t, err, "max ops 3 and 4")
	other := three
	other.Checks = DefaultChecks()[:1]
	_, _, err = claimed(t, other, dir, "b")
	require.ErrorContains(t, err, "checks")
	fewer := three
	fewer.Kinds = dedupKinds[:5]
	_, _, err = claimed(t, fewer, dir, "b")
	require.ErrorContains(t, err, "kinds")

	again, _, err := claimed(t, three, dir, "b")
	require.NoError(t, err)
	require.Zero(t, again.Scripts, "every part was finished")

	unnamed := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(unnamed, "parts"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(unnamed, "parts", "0000000.jsonl"), []byte("{}\n"), 0o644))
	_, _, err = claimed(t, three, unnamed, "a")
	require.ErrorContains(t, err, "a walk the folder does not name")

	// One part of each of two walks of one size and kinds, other checks.
	otherDir := t.TempDir()
	_, _, err = claimed(t, other, otherDir, "a")
	require.NoError(t, err)
	a, b := readParts(t, dir), readParts(t, otherDir)
	require.NotEqual(t, a[0].Walk, b[0].Walk)
	_, _, err = Merge([]Summary{a[0], b[1]})
	require.ErrorContains(t, err, "different walks")
	_, complete, err := Merge(a)
	require.NoError(t, err)
	require.True(t, complete)
}

// TestClaimsSameFailuresAnySplit: what a claimed walk finds does not depend
// on how it was split. One claimant alone, and three begun apart, write
// parts whose failures (each part's reduced cases) and counts are the same
// part for part: a part's failures are reduced from its own walk, whatever
// the claimant walked before it (before, a failing outcome one part left
// in the claimant's memo was not reduced again in a later part, and which
// parts a claimant had walked decided what the next one reported).
func TestClaimsSameFailuresAnySplit(t *testing.T) {
	t.Run("four-rows", func(t *testing.T) {
		sameFailuresAnySplit(t, Options{MaxOps: 4, Kinds: exchangeKinds, Checks: []harness.Check{fourRows}, MaxReduced: 1 << 20})
	})
	// Scripts that leave equal states in different parts, failing below
	// them: the memo of what failed would take the second from the first.
	t.Run("two-rows", func(t *testing.T) {
		sameFailuresAnySplit(t, Options{MaxOps: 3, Kinds: dedupKinds, Checks: []harness.Check{twoRows}, MaxReduced: 1})
	})
}

func sameFailuresAnySplit(t *testing.T, o Options) {
	byPart := func(dir string) map[string]string {
		out := map[string]string{}
		files, err := filepath.Glob(filepath.Join(dir, "parts", "*.jsonl"))
		require.NoError(t, err)
		for _, name := range files {
			b, err := os.ReadFile(name)
			require.NoError(t, err)
			var keys []string
			var sum Summary
			for _, line := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
				var rec Record
				require.NoError(t, json.Unmarshal(line, &rec))
				if rec.Failure != nil {
					keys = append(keys, rec.Failure.Key+" "+rec.Failure.Reduced)
				} else {
					sum = *rec.Summary
				}
			}
			out[filepath.Base(name)] = fmt.Sprint(keys, counts(sum), sum.Reduced, sum.FailuresByLength)
		}
		return out
	}
	alone := t.TempDir()
	_, _, err := claimed(t, o, alone, "a")
	require.NoError(t, err)
	want := byPart(alone)

	apart := t.TempDir()
	errs := make([]error, 3)
	var wg sync.WaitGroup
	for i := range 3 {
		wg.Go(func() {
			c := o
			c.Claim = &Claims{Dir: apart, Name: fmt.Sprint("c", i), Start: shard.Shard{I: i, N: 3}}
			_, _, errs[i] = Run(c)
		})
	}
	wg.Wait()
	require.NoError(t, errors.Join(errs...))
	got := byPart(apart)
	require.Len(t, got, len(want))
	reduced := 0
	for part, w := range want {
		require.Equal(t, w, got[part], "part %s", part)
		if !strings.HasPrefix(w, "[]") {
			reduced++
		}
	}
	require.Greater(t, reduced, 1, "too few parts with failures to tell")
}

// TestClaimsSayWhatIsUnfinished: a claimant that finished its parts while
// another holds one unfinished (killed, or still walking) passes its parts
// and says the whole walk is undecided, naming who holds what (before, it
// ended on "failures: 0" and said nothing of the part); once the holder
// finishes it, its line says every part is finished.
func TestClaimsSayWhatIsUnfinished(t *testing.T) {
	o := Options{MaxOps: 3, Kinds: dedupKinds[:6], Checks: []harness.Check{fourRows}, MaxReduced: 1}
	dir := t.TempDir()
	require.NoError(t, (&Claims{Dir: dir, Name: "b"}).prepare(walkOf(t, o)))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "claims", "5"), []byte("b"), 0o644))
	a, _, err := claimed(t, o, dir, "a")
	require.NoError(t, err)
	require.Equal(t, []Held{{Claimant: "b", Parts: []int{5}}}, a.Unfinished)
	v := a.Verdict()
	require.Equal(t, verdict.Pass, v.Outcome, "a finished its own parts")
	require.Contains(t, v.Line(), fmt.Sprintf("the whole walk is UNDECIDED: 1 of its %d parts not finished (1 claimed by b: 5)", a.Parts))
	var text bytes.Buffer
	WriteText(&text, a, nil)
	require.Contains(t, text.String(), fmt.Sprintf("parts of the walk not finished: 1 of %d", a.Parts))

	b, _, err := claimed(t, o, dir, "b")
	require.NoError(t, err)
	require.EqualValues(t, 1, b.ByLength[0]+b.ByLength[1]+b.ByLength[2], "b walked its one part")
	require.Empty(t, b.Unfinished)
	require.Contains(t, b.Verdict().Line(), "every part of the walk is finished")
	c, _, err := claimed(t, o, dir, "c")
	require.NoError(t, err)
	require.Equal(t, verdict.Pass, c.Verdict().Outcome)
	require.Contains(t, c.Verdict().Line(), "walked no part")
}
