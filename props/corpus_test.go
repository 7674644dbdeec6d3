package props

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"sessiondag/driver"
	"sessiondag/harness"
	"sessiondag/impl/flags"
	"sessiondag/impl/store"
	"sessiondag/impl/webui"
	"sessiondag/model"
	"sessiondag/ops"
)

const corpusDir = "../corpus"

// TestCorpusReplay replays every op script of the corpus — the shape
// catalogue, the promoted counterexamples under corpus/ops/regressions, and
// any failure a local run saved under corpus/ops/failures — under every
// config of the rollout path (harness.Replay: against model.Legacy with the
// flags off, model.Target with them all on, the rollout rule between), and
// once more written with the flags off and loaded along the rollout path
// (harness.ReplayMigration: every step that changes the view a fix).
func TestCorpusReplay(t *testing.T) {
	var scripts []string
	err := filepath.WalkDir(filepath.Join(corpusDir, "ops"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".ops") {
			scripts = append(scripts, p)
		}
		return err
	})
	require.NoError(t, err)
	require.NotEmpty(t, scripts)
	for _, p := range scripts {
		script := parseFile(t, p)
		for _, fl := range flags.Rollout {
			t.Run(filepath.Base(p)+"/flags="+fl.String(), func(t *testing.T) {
				mm, err := harness.Replay(script, fl)
				require.NoError(t, err)
				if mm != nil {
					t.Fatalf("%s: %s", p, mm)
				}
			})
		}
		t.Run(filepath.Base(p)+"/migration", func(t *testing.T) {
			mm, err := harness.ReplayMigration(script)
			require.NoError(t, err)
			if mm != nil {
				t.Fatalf("%s: %s", p, mm)
			}
		})
	}
}

// TestCorpusSessions loads every generated corpus session under every
// config: the directory is what its session.ops writes (byte for byte), the
// flags-off view equals model.Legacy's golden, a session written with the
// flags on loads as model.Target's golden under all, and every step of the
// rollout moves towards the intended view.
func TestCorpusSessions(t *testing.T) {
	store.SyncWrites = false
	defer func() { store.SyncWrites = true }()
	dirs, err := filepath.Glob(filepath.Join(corpusDir, "sessions", "*"))
	require.NoError(t, err)
	require.NotEmpty(t, dirs)
	for _, dir := range dirs {
		name := filepath.Base(dir)
		t.Run(name, func(t *testing.T) {
			script := parseFile(t, filepath.Join(dir, "session.ops"))
			writtenOn := strings.HasSuffix(name, "-on")
			fresh := filepath.Join(t.TempDir(), name)
			_, err := driver.Build(script, fresh, flags.Off)
			require.NoError(t, err)
			requireSameTree(t, fresh, dir)

			golden := readGolden(t, strings.TrimSuffix(name, "-on"))
			st, err := store.Open(dir)
			require.NoError(t, err)
			require.Empty(t, st.Problems)
			if g, ok := golden["legacy"]; ok && !writtenOn {
				if s, d := harness.ViewDiff(g, webui.Views(st, flags.Off)); s != "" {
					t.Fatalf("flags off: view %s differs from model.Legacy's golden (-want +got):\n%s", s, d)
				}
			}
			var want model.TargetView
			require.NoError(t, json.Unmarshal(golden["target"], &want))
			if writtenOn {
				if d := harness.TargetDiff(want, webui.Load(st, flags.All)); d != "" {
					t.Fatalf("flags all: not the intended conversation (-want +got):\n%s", d)
				}
			}
			prev := projected(webui.Load(st, flags.Off))
			for _, fl := range flags.Rollout[1:] {
				cur := projected(webui.Load(st, fl))
				if !sameView(prev, cur) {
					require.True(t, harness.IsFix(prev, cur, want, writtenOn), "step to %s: %s → %s\nintended %v\nbefore %v\nafter %v",
						fl, harness.ViewGap(prev, want), harness.ViewGap(cur, want), rowIDs(want.Chain), rowIDs(prev.Chain), rowIDs(cur.Chain))
				}
				prev = cur
			}
		})
	}
}

func parseFile(t *testing.T, path string) []ops.Op {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	script, err := ops.Parse(f, path)
	require.NoError(t, err)
	return script
}

func readGolden(t *testing.T, name string) map[string]json.RawMessage {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(corpusDir, "expected", name+".json"))
	require.NoError(t, err, "missing golden: run go run ./scripts/regen")
	var doc map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(b, &doc))
	return doc
}

// requireSameTree checks that two directories hold the same files with the
// same bytes (session.ops aside).
func requireSameTree(t *testing.T, fresh, corpus string) {
	t.Helper()
	files := func(root string) map[string][]byte {
		out := map[string][]byte{}
		require.NoError(t, filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || d.Name() == "session.ops" {
				return err
			}
			b, err := os.ReadFile(p)
			rel, _ := filepath.Rel(root, p)
			out[rel] = b
			return err
		}))
		return out
	}
	a, b := files(fresh), files(corpus)
	require.Equal(t, len(a), len(b), "%s: the corpus is stale: go run ./scripts/regen", corpus)
	for name, data := range a {
		require.True(t, bytes.Equal(data, b[name]), "%s/%s differs from what its session.ops writes: go run ./scripts/regen", corpus, name)
	}
}
