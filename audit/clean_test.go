package audit_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"sessiondag/audit"
	"sessiondag/checker/driver"
	"sessiondag/checker/gen"
	"sessiondag/impl/flags"
	"sessiondag/impl/store"
	"sessiondag/ops"
)

// cleanSession writes what `sessiondag gen --seed seed --legacy=false`
// writes (100 nodes, no legacy-shaped rows) and returns its directory and
// script.
func cleanSession(t *testing.T, seed uint64) (string, string) {
	t.Helper()
	g := gen.New(gen.Options{Legacy: false})
	script := append([]ops.Op{ops.Session{ID: fmt.Sprintf("local_%010x", seed)}}, g.ScriptNodes(gen.NewSeeded(seed), 100)...)
	dir := filepath.Join(t.TempDir(), strconv.FormatUint(seed, 10))
	_, err := driver.BuildWith(script, dir, flags.Off, store.WriteOptions{NoSync: true})
	require.NoError(t, err)
	return dir, ops.String(script)
}

// cleanSeeds are the seeds of TestCleanData*: 175 and 223 are the README's
// sessions where a step takes the user's message off the chain onto a
// branch the arrows reach (153, 215, 252 and 268 were such sessions with
// earlier generators); SESSIONDAG_AUDIT_SEEDS=N checks seeds 1…N.
func cleanSeeds(t *testing.T) []uint64 {
	seeds := []uint64{1, 2, 3, 153, 175, 215, 223, 252, 268}
	if v := os.Getenv("SESSIONDAG_AUDIT_SEEDS"); v != "" {
		n, err := strconv.Atoi(v)
		require.NoError(t, err)
		seeds = nil
		for s := 1; s <= n; s++ {
			seeds = append(seeds, uint64(s))
		}
	}
	return seeds
}

// TestCleanDataWithoutScripts: sessions the original's writers write
// without legacy damage have no regression as real session directories
// have them, without an op script. A broken step that loses a message
// fails it (docs/audit.md: the audit's mutants).
func TestCleanDataWithoutScripts(t *testing.T) { checkClean(t, false) }

// TestCleanDataWithScripts: the same sessions with the op script that made
// them.
func TestCleanDataWithScripts(t *testing.T) { checkClean(t, true) }

func checkClean(t *testing.T, withScript bool) {
	for _, seed := range cleanSeeds(t) {
		dir, script := cleanSession(t, seed)
		if withScript {
			require.NoError(t, os.WriteFile(filepath.Join(dir, audit.ScriptName), []byte(script), 0o644))
		}
		s := audit.One(dir)
		for _, st := range s.Steps {
			if st.Verdict == audit.Regression {
				t.Errorf("seed %d (script %v): %s → %s is a regression: %s", seed, withScript, st.From, st.To, st.Detail)
			}
		}
		if s.Failed() {
			t.Errorf("seed %d (script %v): the session fails: %v %v", seed, withScript, s.Unreadable, s.Violations)
		}
	}
}
