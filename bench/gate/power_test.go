package gate

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"golang.org/x/perf/benchmath"
)

func TestMinAttainablePClosedForm(t *testing.T) {
	// 2/C(2n, n): C(2,1)=2, C(4,2)=6, C(6,3)=20, C(8,4)=70, C(10,5)=252,
	// C(12,6)=924. These match benchmath's own uTestMinP table.
	assert.Equal(t, 1.0, minAttainableP(1, 1))
	assert.InDelta(t, 1.0/3, minAttainableP(2, 2), 1e-12)
	assert.InDelta(t, 0.1, minAttainableP(3, 3), 1e-12)
	assert.InDelta(t, 2.0/70, minAttainableP(4, 4), 1e-12)
	assert.InDelta(t, 2.0/252, minAttainableP(5, 5), 1e-12)
	assert.InDelta(t, 2.0/924, minAttainableP(6, 6), 1e-12)
	assert.InDelta(t, 2.0/11, minAttainableP(10, 1), 1e-12)
	assert.InDelta(t, 2.0/11, minAttainableP(1, 10), 1e-12)
	assert.Equal(t, 1.0, minAttainableP(0, 5))
	// Huge counts overflow the binomial to +Inf: p floor 0, no NaN.
	assert.Equal(t, 0.0, minAttainableP(5000, 5000))
}

func TestSamplesNeeded(t *testing.T) {
	assert.Equal(t, 4, samplesNeeded(0.05)) // 2/70 = 0.029
	assert.Equal(t, 5, samplesNeeded(0.01)) // 2/252 = 0.0079
	assert.Equal(t, 7, samplesNeeded(0.001))
	assert.Equal(t, 2, samplesNeeded(1)) // 2/C(2,1) = 1 is not < 1
}

// The floor must be what the U test really returns for fully separated
// samples, or the too-few warning would be wrong.
func TestMinAttainablePMatchesUTest(t *testing.T) {
	th := &benchmath.Thresholds{CompareAlpha: 0.05}
	for n1 := 1; n1 <= 8; n1++ {
		for n2 := 1; n2 <= 8; n2++ {
			lo := benchmath.NewSample(seq(1, 1, n1), th)
			hi := benchmath.NewSample(seq(100, 1, n2), th)
			got := benchmath.AssumeNothing.Compare(lo, hi).P
			assert.InDelta(t, minAttainableP(n1, n2), got, 1e-9, "n1=%d n2=%d", n1, n2)
		}
	}
}
