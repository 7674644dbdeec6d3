package exhaust

import (
	"testing"
	"time"
)

func TestCountScratch(t *testing.T) {
	for n := 5; n <= 5; n++ {
		start := time.Now()
		byLen := make([]int, n+1)
		err := Walk(n, nil, Shard{}, func(nd Node) bool { byLen[len(nd.Script)]++; return true })
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("N=%d %v %v", n, byLen, time.Since(start))
	}
}
