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

	"sessiondag/checker/campaign"
	"sessiondag/checker/driver"
	"sessiondag/checker/harness"
	"sessiondag/impl/flags"
	"sessiondag/impl/store"
	"sessiondag/model"
	"sessiondag/ops"
)

const corpusDir = "../corpus"

// TestCorpusReplay replays every op script of the corpus — the shape
// catalogue, the promoted counterexamples under corpus/ops/regressions, and
// any failure a local run saved under corpus/ops/failures — with
// campaign.Replay: a script saved by a failing check runs exactly that check
// (its `#! check` line), any other runs every check on data written with
// the flags on and with them off, where the check's declared data admit it.
// Against another implementation (SESSIONDAG_IMPL), each script runs the
// checks and kinds of data that can judge it; a script it does not take
// (an op kind it does not write, a variant it declares without:
// campaign.Takes), or one no check or kind of data can judge on it, is not
// run, saying what it needs.
func TestCorpusReplay(t *testing.T) {
	t.Parallel()
	for _, p := range corpusScripts(t) {
		t.Run(filepath.Base(p), func(t *testing.T) {
			t.Parallel()
			track(t)
			file := parseScriptFile(t, p)
			o := campaign.ReplayOptions{Tmp: scratch(), Impl: underTest}
			found, err := campaign.Replay(file, o)
			if notWritten(err) {
				notRun(t, lacking(file, o, err), err)
			}
			require.NoError(t, err)
			for _, why := range campaign.NotRun(file, o) {
				t.Logf("not run: %s", why)
			}
			for _, f := range found {
				c := campaign.Case{Check: check(f.Check), Data: f.Data, Script: file.Ops, Impl: underTest}.Of(f)
				if !accepted(t, c, f) {
					t.Errorf("%s: %s", p, campaign.Report(c, f, p))
				}
			}
		})
	}
}

// corpusScripts are the op scripts of the corpus, in the order of their
// paths.
func corpusScripts(t testing.TB) []string {
	t.Helper()
	var scripts []string
	err := filepath.WalkDir(filepath.Join(corpusDir, "ops"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".ops") {
			scripts = append(scripts, p)
		}
		return err
	})
	require.NoError(t, err)
	require.NotEmpty(t, scripts)
	return scripts
}

// lacking is what a script the implementation cannot be judged on needs,
// for "not run: needs …": what campaign.Lacking finds, else (the ops it
// writes in one step kept apart) why the replay says it is not applicable.
func lacking(f *ops.File, o campaign.ReplayOptions, err error) string {
	if needs := campaign.Lacking(f, o); len(needs) > 0 {
		return strings.Join(needs, ", ")
	}
	return harness.Why(err)
}

// TestCorpusSessions loads every generated corpus session under every
// config: the directory is what its session.ops writes (byte for byte), the
// flags-off view equals model.Legacy's golden, a session written with the
// flags on loads as model.Target's golden under all, and every step of the
// rollout moves towards the intended view.
func TestCorpusSessions(t *testing.T) {
	t.Parallel()
	inProcessOnly(t, "loading the corpus's session directories")
	dirs, err := filepath.Glob(filepath.Join(corpusDir, "sessions", "*"))
	require.NoError(t, err)
	require.NotEmpty(t, dirs)
	for _, dir := range dirs {
		name := filepath.Base(dir)
		t.Run(name, func(t *testing.T) {
			script := parseFile(t, filepath.Join(dir, "session.ops"))
			writtenOn := strings.HasSuffix(name, "-on")
			fresh := filepath.Join(t.TempDir(), name)
			_, err := driver.BuildWith(script, fresh, flags.Off, store.WriteOptions{NoSync: true})
			require.NoError(t, err)
			requireSameTree(t, fresh, dir)

			golden := readGolden(t, strings.TrimSuffix(name, "-on"))
			st, err := store.Open(dir)
			require.NoError(t, err)
			require.Empty(t, st.Problems)
			if g, ok := golden["legacy"]; ok && !writtenOn {
				if s, d := harness.ViewDiff(g, harness.Views(st, flags.Off)); s != "" {
					t.Fatalf("flags off: view %s differs from model.Legacy's golden (-want +got):\n%s", s, d)
				}
			}
			var want model.TargetView
			require.NoError(t, json.Unmarshal(golden["target"], &want))
			if writtenOn {
				if d := harness.TargetDiff(want, harness.Load(st, flags.All)); d != "" {
					t.Fatalf("flags all: not the intended conversation (-want +got):\n%s", d)
				}
			}
			prev := harness.Projected(harness.Load(st, flags.Off))
			for _, fl := range flags.Rollout[1:] {
				cur := harness.Projected(harness.Load(st, fl))
				if !harness.SameView(prev, cur) && !harness.Neutral(prev, cur, want) {
					require.True(t, harness.IsFix(prev, cur, want, writtenOn), "step to %s: %s → %s\nintended %v\nbefore %v\nafter %v",
						fl, harness.ViewGap(prev, want), harness.ViewGap(cur, want), harness.RowIDs(want.Chain), harness.RowIDs(prev.Chain), harness.RowIDs(cur.Chain))
				}
				prev = cur
			}
		})
	}
}

func parseFile(t *testing.T, path string) []ops.Op { return parseScriptFile(t, path).Ops }

func parseScriptFile(t *testing.T, path string) *ops.File {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	file, err := ops.ParseFile(f, path)
	require.NoError(t, err)
	return file
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
