package props

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"testing"

	"sessiondag/checker/campaign"
	"sessiondag/checker/gen"
	"sessiondag/checker/harness"
	"sessiondag/ops"
)

// largeNodes is the size of a large session: past the first chunk of 1,024
// positions of the store's memos and of the folded copies, past 1,024
// positions filled by one load (the fill is then split between the cores)
// and past 512 history files (the cold read is split too).
const largeNodes = 1100

// largeEvery is the number of ops between two checks once a session is
// large: each check runs every load under every config and a cold load.
const largeEvery = 60

// largeSessions are the sessions TestLargeSessions writes: a seed (the
// swarm configuration is drawn from it as well) and a kind of data.
var largeSessions = []struct {
	seed uint64
	data harness.Data
}{{1, harness.FlippedAny}, {2, harness.WrittenOn}}

// TestLargeSessions: what the load does only on large sessions — memos and
// folded copies beyond their first chunk, the column fill and the cold
// read split between the cores — shows what the load through maps shows at
// every rollout step, and a cold load of the directory gives the live
// session's nodes, head and views (the columns and persistence checks).
// The state machines of the other properties stay far below these sizes.
// The checks run when the session first passes largeNodes (its first load
// fills every column at once) and then every largeEvery ops, each load
// extending or refilling what the earlier ones kept.
func TestLargeSessions(t *testing.T) {
	t.Parallel()
	inProcessOnly(t, "the load's large-session paths (its columns, the split fill and read)")
	if testing.Short() {
		t.Skip("large sessions: not in -short")
	}
	if runtime.GOMAXPROCS(0) < 2 {
		t.Logf("GOMAXPROCS is %d: the split fill and read do not run", runtime.GOMAXPROCS(0))
	}
	for _, c := range largeSessions {
		data := c.data
		opt := campaign.GenOptions(data)
		opt.Swarm = gen.DrawSwarm(gen.NewSeeded(c.seed), opt)
		script := gen.New(opt).ScriptNodes(gen.NewSeeded(c.seed), largeNodes+100)
		f, err := playLarge(data, script)
		if err != nil {
			t.Fatalf("seed %d, %s: %v", c.seed, data.Name, err)
		}
		if f != nil {
			t.Fatalf("seed %d, %s: %s", c.seed, data.Name, record(t.Name(), campaign.Case{Check: check(f.Check), Data: data, Script: script}, f))
		}
	}
}

// playLarge applies script to a session written to a directory, running
// the checks at the checkpoints, and returns the first finding. A panic
// (of the writers or a load) is returned as an error, so that it fails
// this test alone.
func playLarge(data harness.Data, script []ops.Op) (f *harness.Finding, err error) {
	parent, err := os.MkdirTemp(scratch(), "sessiondag-large-")
	if err != nil {
		return nil, fmt.Errorf("temp dir: %w", err)
	}
	defer os.RemoveAll(parent)
	s, err := harness.NewSession(harness.Options{Data: data, Dir: filepath.Join(parent, ops.DefaultSession), NoSync: true})
	if err != nil {
		return nil, fmt.Errorf("start: %w", err)
	}
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic after op %d of %d: %v\n%s", len(s.Script), len(script), p, debug.Stack())
		}
	}()
	checks := []harness.Check{check("columns"), check("persistence")}
	runChecks := func() *harness.Finding {
		for _, c := range checks {
			if f := c.Run(s); f != nil {
				f.Check = c.Name
				return f
			}
		}
		return nil
	}
	next := -1 // the op after which the checks run next
	for i, op := range script {
		if f, err := s.Apply(op); f != nil || err != nil {
			return f, err
		}
		if next < 0 && s.Run().W.S.Len() >= largeNodes {
			next = i
		}
		if i != next && i != len(script)-1 {
			continue
		}
		next = i + largeEvery
		if f := runChecks(); f != nil {
			return f, nil
		}
	}
	// The head taken back to the session's first row: a load must read
	// every file however early the head's lies (the split read's second
	// part is not looked for by the head).
	for _, op := range script {
		if ids := ops.Defines(op); len(ids) > 0 {
			if f, err := s.Apply(ops.Checkout{ID: ids[0]}); f != nil || err != nil {
				return f, err
			}
			if f := runChecks(); f != nil {
				return f, nil
			}
			break
		}
	}
	return nil, nil
}
