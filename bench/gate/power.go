package gate

// The Mann-Whitney U test on n1 and n2 samples has a floor under its
// p-value: even when every NEW value is above every OLD value, the
// two-sided p is 2/C(n1+n2, n1) (ties only raise it). When that floor is
// not below alpha, no data at all could be called significant, so such a
// comparison is "too few samples", not "no change". benchmath only warns
// when both sides are short; the gate computes the floor itself so it can
// say exactly how far off the run was.

// minAttainableP is the smallest two-sided p-value the U test can return
// for sample sizes n1 and n2.
func minAttainableP(n1, n2 int) float64 {
	if n1 <= 0 || n2 <= 0 {
		return 1
	}
	// C(n1+n2, k) with k = min(n1, n2), in floats: it only needs to be
	// compared to 2/alpha, so overflow to +Inf (p = 0) is harmless.
	k := min(n1, n2)
	n := n1 + n2
	c := 1.0
	for i := 1; i <= k; i++ {
		c = c * float64(n-k+i) / float64(i)
	}
	return min(1, 2/c)
}

// canDecide reports whether the U test on these sample sizes can reach
// p < alpha at all.
func canDecide(n1, n2 int, alpha float64) bool {
	return minAttainableP(n1, n2) < alpha
}

// samplesNeeded is the smallest equal per-side count for which the U test
// can reach p < alpha (4 for alpha = 0.05). It is capped, so an absurd
// alpha cannot loop for long.
func samplesNeeded(alpha float64) int {
	const limit = 1000
	for n := 1; n < limit; n++ {
		if canDecide(n, n, alpha) {
			return n
		}
	}
	return limit
}
