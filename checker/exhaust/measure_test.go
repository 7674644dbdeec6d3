package exhaust

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"sessiondag/checker/harness"
	"sessiondag/internal/shard"
)

// TestFingerprintCounts counts, over every script of at most
// SESSIONDAG_FINGERPRINTS ops (unset: skipped), the distinct fingerprints
// of each lane before any reduction: of the implementation's store, of the
// data its checks read (dataKey: what deduplication checks once), of the
// data a History check reads (historyKey: the store before the last op
// too), and of the whole state (stateKey: what deduplication expands once).
// SESSIONDAG_KINDS and SESSIONDAG_CHECKS narrow the walk as for
// TestMeasureRun. The README's table of the gain comes from it:
//
//	SESSIONDAG_FINGERPRINTS=5 go test ./checker/exhaust -run TestFingerprintCounts -v -timeout 0
func TestFingerprintCounts(t *testing.T) {
	max, _ := strconv.Atoi(os.Getenv("SESSIONDAG_FINGERPRINTS"))
	if max == 0 {
		t.Skip("SESSIONDAG_FINGERPRINTS unset")
	}
	var kinds []string
	if list := os.Getenv("SESSIONDAG_KINDS"); list != "" {
		kinds = strings.Split(list, ",")
	}
	checks := DefaultChecks()
	if list := os.Getenv("SESSIONDAG_CHECKS"); list != "" {
		var err error
		if checks, err = harness.Select(list); err != nil {
			t.Fatal(err)
		}
	}
	// The stores of the data checked, over both lanes: the implementation's
	// loads read the store alone, so this is how many loads of each config
	// a walk must make, however the data is deduplicated.
	checkedStores := map[Fingerprint]bool{}
	for _, l := range newLanes(checks, nil, max, true, 1<<30, true, nil) {
		if err := l.start(); err != nil {
			t.Fatal(err)
		}
		distinct := map[string]map[Fingerprint]bool{}
		add := func(name string, f Fingerprint) {
			if distinct[name] == nil {
				distinct[name] = map[Fingerprint]bool{}
			}
			distinct[name][f] = true
		}
		stores := []Fingerprint{l.path[0].store}
		scripts, planned := 0, 0
		err := Walk(max, kinds, shard.Whole, func(n Node) bool {
			d := len(n.Script)
			if _, err := l.goTo(n.Script); err != nil {
				t.Fatal(err)
			}
			scripts++
			stores = append(stores[:d], l.storeKey())
			add("store", stores[d])
			checks, kinds := l.planFor(l.flips(n), n.Synced)
			if len(checks) > 0 {
				planned++
				add("data", l.dataKey(plan{checks, kinds}))
				add("checked store", stores[d])
				checkedStores[stores[d]] = true
				add("history", l.historyKey(plan{checks, kinds}, stores[d-1]))
			}
			add("state", l.stateKey(n, false))
			return true
		})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("lane %s, %d ops: %d scripts (%d with checks); distinct stores %d, data %d (of %d stores), data after a load %d, states %d",
			l.writer, max, scripts, planned, len(distinct["store"]), len(distinct["data"]), len(distinct["checked store"]),
			len(distinct["history"]), len(distinct["state"]))
	}
	t.Logf("both lanes: the data checked has %d distinct stores", len(checkedStores))
}

// TestMeasureRun runs exhaust at SESSIONDAG_MEASURE ops (unset: skipped)
// with the checks SESSIONDAG_CHECKS names (default: DefaultChecks), without
// deduplication when SESSIONDAG_NODEDUP is set, of the shard
// SESSIONDAG_SHARD names (default: the whole walk), of the op kinds
// SESSIONDAG_KINDS lists (default: every kind), with SESSIONDAG_WORKERS
// workers: for profiles (-cpuprofile).
func TestMeasureRun(t *testing.T) {
	max, _ := strconv.Atoi(os.Getenv("SESSIONDAG_MEASURE"))
	if max == 0 {
		t.Skip("SESSIONDAG_MEASURE unset")
	}
	o := Options{MaxOps: max, NoDedup: os.Getenv("SESSIONDAG_NODEDUP") != ""}
	if sh := os.Getenv("SESSIONDAG_SHARD"); sh != "" {
		var err error
		if o.Shard, err = shard.Parse(sh); err != nil {
			t.Fatal(err)
		}
	}
	if list := os.Getenv("SESSIONDAG_KINDS"); list != "" {
		o.Kinds = strings.Split(list, ",")
	}
	o.Workers, _ = strconv.Atoi(os.Getenv("SESSIONDAG_WORKERS"))
	if list := os.Getenv("SESSIONDAG_CHECKS"); list != "" {
		var err error
		if o.Checks, err = harness.Select(list); err != nil {
			t.Fatal(err)
		}
	}
	sum, _, err := Run(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", sum)
}
