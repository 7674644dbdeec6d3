package props

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"sessiondag/gen"
	"sessiondag/harness"
	"sessiondag/ops"
)

// largeNodes is the size of a large session: past the first chunk of 1,024
// positions of the store's memos and of the folded copies, past 1,024
// positions filled by one load (the fill is then split between the cores)
// and past 512 history files (the cold read is split too).
const largeNodes = 1100

// largeSessions are the sessions TestLargeSessions writes: a seed (the
// swarm configuration is drawn from it as well) and a kind of data.
var largeSessions = []struct {
	seed uint64
	data harness.Data
}{{1, harness.Flipped}, {2, harness.WrittenOn}}

// TestLargeSessions: what the load does only on large sessions — memos and
// folded copies beyond their first chunk, the column fill and the cold
// read split between the cores — shows what the load through maps shows at
// every rollout step, and a cold load of the directory gives the live
// session's nodes, head and views. The state machines of the other
// properties stay far below these sizes. Checked when the session first
// passes largeNodes (the live session's first load fills every column at
// once) and then every few ops, each check extending or refreshing what
// the earlier loads kept.
func TestLargeSessions(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("large sessions: not in -short")
	}
	if runtime.GOMAXPROCS(0) < 2 {
		t.Logf("GOMAXPROCS is %d: the split fill and read do not run", runtime.GOMAXPROCS(0))
	}
	for _, c := range largeSessions {
		data := c.data
		data.Gen.SyncedBrowser = false // every legacy shape, ambiguous ones included
		data.Gen.Swarm = gen.DrawSwarm(gen.NewSeeded(c.seed), data.Gen)
		script := gen.New(data.Gen).ScriptNodes(gen.NewSeeded(c.seed), largeNodes+100)
		if f := playLarge(t, data, script); f != nil {
			t.Fatalf("seed %d, %s: %s", c.seed, data.Name, save("TestLargeSessions", f, script))
		}
	}
}

// playLarge applies script to a session written to a directory and runs
// the columns and persistence checks at the checkpoints.
func playLarge(t *testing.T, data harness.Data, script []ops.Op) *harness.Finding {
	parent, err := os.MkdirTemp(scratch(), "sessiondag-large-")
	if err != nil {
		t.Fatalf("temp dir: %v", err)
	}
	defer os.RemoveAll(parent)
	s, err := harness.NewSession(harness.Options{Data: data, Dir: filepath.Join(parent, "session"), NoSync: true})
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	checks := []harness.Check{check("columns"), check("persistence")}
	next := -1 // the op after which the next check runs
	for i, op := range script {
		if f, err := s.Apply(op); f != nil || err != nil {
			if err != nil {
				t.Fatalf("op %d: %v", i+1, err)
			}
			return f
		}
		if next < 0 && s.Impl.W.S.Len() >= largeNodes {
			next = i
		}
		if i != next && i != len(script)-1 {
			continue
		}
		next = i + largeEvery
		for _, c := range checks {
			if f := c.Run(s); f != nil {
				f.Check = c.Name
				return f
			}
		}
	}
	return nil
}

// largeEvery is the number of ops between two checks once a session is large.
const largeEvery = 60
