package exhaust

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"sessiondag/checker/harness"
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
	require.NoError(t, (&Claims{Dir: dir, Name: "b"}).prepare())
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
