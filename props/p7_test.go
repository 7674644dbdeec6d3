package props

import (
	"bytes"
	"fmt"
	"os"
	"sessiondag/harness"
	"testing"

	"pgregory.net/rapid"

	"sessiondag/gen"
	"sessiondag/impl/flags"
	"sessiondag/impl/store"
	"sessiondag/impl/webui"
)

// TestP7PersistenceRoundTrip: whatever the writers wrote, a cold load of the
// directory gives the same nodes (byte for byte, same order), the same head
// and the same views as the live session, after every op.
func TestP7PersistenceRoundTrip(t *testing.T) {
	// Durability is the crash tests' subject; here fsync only costs time.
	store.SyncWrites = false
	defer func() { store.SyncWrites = true }()
	rapid.Check(t, func(t *rapid.T) {
		dir, err := os.MkdirTemp(scratch(), "sessiondag-p7-")
		if err != nil {
			t.Fatalf("temp dir: %v", err)
		}
		defer os.RemoveAll(dir)
		s := newImplSession(t, "TestP7PersistenceRoundTrip", dir, gen.Options{Legacy: true}, flags.Off)
		t.Repeat(map[string]func(*rapid.T){"op": s.step, "": func(t *rapid.T) {
			live := s.run.W.S.AtPersistedHead()
			cold, err := store.Open(dir)
			if err != nil {
				report(t, s.name, s.script, "cold load failed", err.Error())
			}
			if len(cold.Problems) > 0 {
				report(t, s.name, s.script, "cold load reported problems", fmt.Sprint(cold.Problems))
			}
			if d := nodesDiff(live, cold); d != "" {
				report(t, s.name, s.script, "cold nodes differ from the live ones", d)
			}
			if cold.Head() != live.Head() {
				report(t, s.name, s.script, "cold head differs", fmt.Sprintf("live %q, cold %q", live.Head(), cold.Head()))
			}
			for _, fl := range []flags.Set{flags.Off, flags.All} {
				if sec, d := harness.ViewDiff(webui.Views(live, fl), webui.Views(cold, fl)); sec != "" {
					report(t, s.name, s.script, fmt.Sprintf("flags %s: cold view %s differs from the live one", fl, sec), d)
				}
			}
		}})
	})
}

func nodesDiff(a, b *store.Store) string {
	an, bn := a.Nodes(), b.Nodes()
	if len(an) != len(bn) {
		return fmt.Sprintf("%d nodes live, %d cold", len(an), len(bn))
	}
	for i := range an {
		if x, y := an[i].Encode(), bn[i].Encode(); !bytes.Equal(x, y) {
			return fmt.Sprintf("node %d:\nlive %s\ncold %s", i, x, y)
		}
	}
	return ""
}

// scratch is where throwaway session directories go: a RAM disk when the
// machine has one (the property writes and re-reads thousands of them).
func scratch() string {
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
		if f, err := os.CreateTemp("/dev/shm", "probe-"); err == nil {
			f.Close()
			os.Remove(f.Name())
			return "/dev/shm"
		}
	}
	return ""
}
