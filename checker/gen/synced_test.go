package gen

import (
	"testing"

	"sessiondag/checker/driver"
	"sessiondag/checker/ops"
	"sessiondag/impl/flags"
)

// TestSyncedBrowserChecksOutAnchoredRows: with SyncedBrowser the generator
// never checks out an orphan whose caller is not written yet. From there a
// /spawn records the orphan as its fork, and once the caller is written
// the data reads as a fork of that reply, where the /spawn meant a root:
// TestP3 failed on it on migration data (`orphan id=n1 caller=n5_reply;
// checkout id=n1; spawn …; user id=n5; reply`: A,B hid the attach row A
// showed through its get_branch fallback). Without the option the draw
// reaches that checkout, so the test can fail.
func TestSyncedBrowserChecksOutAnchoredRows(t *testing.T) {
	unanchored := func(synced bool) int {
		n := 0
		for seed := uint64(1); seed <= 300; seed++ {
			opt := Options{Legacy: true, SyncedBrowser: synced}
			opt.Swarm = DrawSwarm(NewSeeded(seed^0x5eed), opt)
			run, err := driver.Start(nil, "", flags.Off)
			if err != nil {
				t.Fatal(err)
			}
			callers := map[string]string{}
			for _, op := range New(opt).Script(NewSeeded(seed), 60) {
				switch o := op.(type) {
				case ops.Orphan:
					callers[o.ID] = o.Caller
				case ops.Checkout:
					if c := callers[o.ID]; c != "" {
						if _, written := run.W.S.Get(c); !written {
							n++
						}
					}
				}
				if err := run.Apply(op); err != nil {
					t.Fatalf("seed %d: %v", seed, err)
				}
			}
		}
		return n
	}
	if n := unanchored(false); n == 0 {
		t.Fatal("without SyncedBrowser no script checked out an orphan awaiting its caller: the test cannot fail")
	}
	if n := unanchored(true); n > 0 {
		t.Fatalf("with SyncedBrowser %d checkouts onto an orphan whose caller is not written yet", n)
	}
}
