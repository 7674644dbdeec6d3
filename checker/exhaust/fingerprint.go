package exhaust

import (
	"crypto/sha256"
	"math"
)

// Fingerprint is 128 bits of SHA-256 over a canonical encoding of a state
// (the AppendState methods of the interpreters): equal states have equal
// fingerprints, and distinct states collide with probability 2⁻¹²⁸ per pair.
type Fingerprint [16]byte

// fingerprintOf hashes an encoding.
func fingerprintOf(b []byte) Fingerprint {
	sum := sha256.Sum256(b)
	return Fingerprint(sum[:16])
}

// CollisionBound is the birthday bound on the probability that two of n
// distinct states share a fingerprint: n(n-1)/2 pairs, each 2⁻¹²⁸.
func CollisionBound(n int64) float64 {
	pairs := float64(n) * float64(n-1) / 2
	return pairs * math.Pow(2, -128)
}
