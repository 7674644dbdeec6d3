// Package shard splits a run into n disjoint parts and checks that a merge
// of their results holds every part exactly once. hunt, exhaust and the
// audit take `--shard i/n` through Parse; `sessiondag summary` refuses a
// merge that Coverage finds incomplete.
package shard

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Shard is part I of N (I counts from 0). The zero value is the whole run.
type Shard struct{ I, N int }

// Whole is the run in one part.
var Whole = Shard{0, 1}

// Parse reads "i/n" with 0 ≤ i < n.
func Parse(s string) (Shard, error) {
	a, b, ok := strings.Cut(strings.TrimSpace(s), "/")
	i, erri := strconv.Atoi(a)
	n, errn := strconv.Atoi(b)
	if !ok || erri != nil || errn != nil || n < 1 || i < 0 || i >= n {
		return Shard{}, fmt.Errorf("shard %q: want i/n with 0 ≤ i < n, such as 0/4", s)
	}
	return Shard{i, n}, nil
}

// Parts is how many parts the run is split into (at least 1).
func (s Shard) Parts() int { return max(s.N, 1) }

// IsWhole reports whether the shard is the whole run.
func (s Shard) IsWhole() bool { return s.Parts() == 1 }

// Owns reports whether item k of the run (counted from 0) is this shard's:
// the items k ≡ I (mod N).
func (s Shard) Owns(k uint64) bool { return k%uint64(s.Parts()) == uint64(s.I) }

// String is "i/n"; the whole run is "0/1".
func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.I, s.Parts()) }

// Split is the shard's own part divided further into k parts: part j of
// the result owns the items of s that k parts dealt in turn give to j.
func (s Shard) Split(k, j int) Shard { return Shard{I: s.I + s.Parts()*j, N: s.Parts() * k} }

// Coverage says what is wrong with a set of shards given to a merge: a name
// that is not i/n, shards of different splits, a shard missing or given
// more than once. No problem means the set is every part exactly once.
func Coverage(names []string) []string {
	if len(names) == 0 {
		return []string{"no shard was given"}
	}
	var out []string
	n := -1
	seen := map[int]int{}
	for _, name := range names {
		s, err := Parse(name)
		if err != nil {
			out = append(out, err.Error())
			continue
		}
		if n >= 0 && s.N != n {
			out = append(out, fmt.Sprintf("shards of different splits (/%d and /%d)", n, s.N))
			continue
		}
		n = s.N
		seen[s.I]++
	}
	for i, c := range seen {
		if c > 1 {
			out = append(out, fmt.Sprintf("shard %d/%d given %d times", i, n, c))
		}
	}
	// The missing parts are named up to maxNamed, found by a scan that
	// stops there: a name such as "0/2000000000" costs no more than a
	// short list (the reading stays linear in the names given).
	if missing := n - len(seen); missing > 0 {
		var named []string
		for i := 0; i < n && len(named) < maxNamed; i++ {
			if seen[i] == 0 {
				named = append(named, Shard{i, n}.String())
			}
		}
		if missing > len(named) {
			named = append(named, fmt.Sprintf("… (%d more)", missing-len(named)))
		}
		out = append(out, fmt.Sprintf("%d of %d shards missing: %s", missing, n, strings.Join(named, ", ")))
	}
	slices.Sort(out)
	return out
}

// maxNamed is how many missing shards Coverage names.
const maxNamed = 20
