package bench

import (
	"fmt"
	"testing"
	"time"
	"os"
)

func TestProbe(t *testing.T) {
	if os.Getenv("PROBE") == "" { t.Skip() }
	for _, n := range []int{1000, 10000, 100000} {
		t0 := time.Now()
		w, err := Get(n)
		if err != nil { t.Fatal(err) }
		d1 := time.Since(t0)
		m := w.Mix()
		fmt.Printf("n=%d nodes=%d build=%v ops=%d tool=%.3f fnruns=%.3f top=%d internals=%.3f conv=%.3f rewound=%d bp=%d forks=%d roots=%d orphans=%d\n", n, w.Nodes, d1, m.Ops, m.Share(m.ToolRows), m.Share(m.FnRuns), m.TopFnRuns, m.Share(m.Internals), m.Share(m.Conv), m.Rewound, m.BranchPoints, m.Forks, m.Roots, m.Orphans)
		if n <= 10000 {
			t0 = time.Now()
			if _, err := w.Dir(); err != nil { t.Fatal(err) }
			fmt.Println("disk", time.Since(t0))
		}
	}
	Cleanup()
}
