package bench

// Checks of the benchmark harness itself, on small sessions: they run with
// every `go test ./...` and must stay fast. Speed targets live in the
// benchmarks and the report only.

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"sessiondag/checker/driver"
	"sessiondag/impl/adapter"
	"sessiondag/impl/flags"
	"sessiondag/impl/store"
	"sessiondag/impl/webui"
)

func TestConfigs(t *testing.T) {
	t.Setenv(FlagsEnv, "")
	c, err := Configs()
	if err != nil || len(c) != 2 || c[0] != (Config{"off", flags.Off}) || c[1] != (Config{"all", flags.All}) {
		t.Fatalf("default configs = %v, %v; want off and all", c, err)
	}
	t.Setenv(FlagsEnv, "A,B")
	c, err = Configs()
	if err != nil || len(c) != 1 || c[0] != (Config{"cur", flags.A | flags.B}) {
		t.Fatalf("configs with %s=A,B = %v, %v; want one named cur", FlagsEnv, c, err)
	}
	t.Setenv(FlagsEnv, "B")
	if _, err := Configs(); err == nil {
		t.Fatalf("configs with %s=B (missing A): no error", FlagsEnv)
	}
}

// TestFixtureCache builds a small fixture into an empty cache, then finds
// it there, and checks it loads cleanly with its script beside it.
func TestFixtureCache(t *testing.T) {
	t.Setenv(CacheEnv, t.TempDir())
	dir, built, err := fixture(300, Seed)
	if err != nil {
		t.Fatal(err)
	}
	if built == 0 {
		t.Error("first fixture() reported no build")
	}
	again, built2, err := fixture(300, Seed)
	if err != nil || again != dir || built2 != 0 {
		t.Fatalf("second fixture() = %q, %v, %v; want %q from the cache", again, built2, err, dir)
	}
	st, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Problems) > 0 || st.Len() < 300 {
		t.Fatalf("fixture loads %d nodes with problems %v", st.Len(), st.Problems)
	}
	if _, err := os.Stat(filepath.Join(dir, ScriptFile)); err != nil {
		t.Fatal(err)
	}
	n, err := ReadFiles(dir)
	if err != nil || n == 0 {
		t.Fatalf("ReadFiles = %d, %v", n, err)
	}
	k1, err1 := fixtureKey(300, Seed)
	k2, err2 := fixtureKey(301, Seed)
	if err1 != nil || err2 != nil || k1 == k2 {
		t.Fatalf("fixture keys of two sizes: %q, %q (%v, %v); want two", k1, k2, err1, err2)
	}

	w := &Workload{Size: 300, Seed: Seed, Dir: dir, Store: st, Nodes: st.Len()}
	m, err := w.Mix()
	if err != nil {
		t.Fatal(err)
	}
	if m.Nodes != st.Len() || m.Ops == 0 || m.ToolRows == 0 || m.FnRuns == 0 || m.Internals == 0 || m.Conv == 0 || m.Root != 1 {
		t.Fatalf("implausible mix %+v", m)
	}
	if m.ToolRows+m.FnRuns > m.Nodes || m.Conv > m.Nodes {
		t.Fatalf("shares exceed the nodes: %+v", m)
	}
}

// TestColdStoreLoadsLikeWriters backs the benchmarks' use of the cold-loaded
// store as the in-memory session: its load shows what the writers' own
// store shows at the persisted head.
func TestColdStoreLoadsLikeWriters(t *testing.T) {
	for _, seed := range []uint64{1, 2} {
		dir := filepath.Join(t.TempDir(), "s")
		if err := Write(dir, 300, seed); err != nil {
			t.Fatal(err)
		}
		cold, err := store.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		run, err := driver.Build(Script(300, seed), "", WriterFlags)
		if err != nil {
			t.Fatal(err)
		}
		warm := run.W.S.AtPersistedHead()
		for _, fl := range []flags.Set{flags.Off, flags.All} {
			a, b := webui.Load(cold, fl), webui.Load(warm, fl)
			if a.HeadID != b.HeadID || !slices.Equal(adapter.IDs(a.Chain), adapter.IDs(b.Chain)) || len(a.All) != len(b.All) {
				t.Errorf("seed %d flags %s: cold load head %s, %d chain rows, %d rows; writers' store head %s, %d, %d",
					seed, fl, a.HeadID, len(a.Chain), len(a.All), b.HeadID, len(b.Chain), len(b.All))
			}
		}
	}
}
