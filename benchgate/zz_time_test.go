package benchgate

import (
	"math/rand"
	"testing"
	"time"

	"golang.org/x/perf/benchmath"
)

func TestZZTime(t *testing.T) {
	th := &benchmath.Thresholds{CompareAlpha: 0.05}
	r := rand.New(rand.NewSource(1))
	var worst time.Duration
	for it := 0; it < 3000; it++ {
		n1, n2 := 1+r.Intn(25), 1+r.Intn(25)
		k := 1 + r.Intn(n1+n2)
		a := make([]float64, n1)
		b := make([]float64, n2)
		for i := range a {
			a[i] = float64(r.Intn(k))
		}
		for i := range b {
			b[i] = float64(r.Intn(k))
		}
		st := time.Now()
		benchmath.AssumeNothing.Compare(benchmath.NewSample(a, th), benchmath.NewSample(b, th))
		if d := time.Since(st); d > worst {
			worst = d
			t.Logf("n=%d+%d k=%d %v", n1, n2, k, d)
		}
		if time.Since(st) > 5*time.Second {
			t.Fatal("slow")
		}
	}
}
