package reconstruct

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"sessiondag/checker/driver"
	"sessiondag/checker/harness"
	"sessiondag/impl/flags"
	"sessiondag/impl/store"
	"sessiondag/model"
	"sessiondag/ops"
)

// writeSession writes what script makes, through the implementation's
// writers, into a fresh directory named name, as a user's directory holds
// it (no script beside it).
func writeSession(t testing.TB, name string, script []ops.Op, fl flags.Set) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	_, err := driver.BuildWith(script, dir, fl, store.WriteOptions{NoSync: true})
	require.NoError(t, err)
	return dir
}

// viewOf is a script's intended view (model.Target).
func viewOf(t testing.TB, script []ops.Op) model.TargetView {
	t.Helper()
	r := model.NewTarget(harness.SessionIDOf(script))
	for _, op := range script {
		require.NoError(t, r.Apply(op), ops.Format(op))
	}
	return r.View()
}

// checkRoundTrip reconstructs the session script writes and holds the
// result to the rules: explained byte for byte (the reconstructed script,
// written again, writes every file as it is), and where the reading is the
// only one, meaning what script means; where it is not, the alternatives
// are other views. It returns the result.
func checkRoundTrip(t *testing.T, name string, script []ops.Op, fl flags.Set) *Result {
	t.Helper()
	dir := writeSession(t, name, script, fl)
	res, err := Path(dir)
	require.NoError(t, err)
	require.NotEqual(t, Unexplained, res.Verdict, "%s: %+v\n%s", name, res.First, ops.String(script))
	require.True(t, res.Exact, "%s: gaps %v", name, res.Gaps)
	require.Empty(t, res.Disagree, name)
	sameTree(t, name, dir, writeFolder(t, t.TempDir(), name, res.Script, res.Folder))
	switch res.Verdict {
	case Reconstructed:
		require.True(t, harness.SameView(viewOf(t, script), res.View),
			"%s: the reconstruction means %v, the script %v\n%s\nreconstructed:\n%s", name, res.View, viewOf(t, script), ops.String(script), ops.String(res.Script))
	case Ambiguous:
		for _, a := range res.Alternatives {
			require.False(t, harness.SameView(a.View, res.View), "%s: an alternative with the same view is no alternative", name)
		}
	}
	return res
}

// TestShapesAndRegressionsRoundTrip: every shape and regression script of
// the corpus, written by the implementation's writers with the flags off
// and on, is reconstructed byte for byte (or ambiguously), and a unique
// reconstruction means what the script means.
func TestShapesAndRegressionsRoundTrip(t *testing.T) {
	files, err := filepath.Glob("../../corpus/ops/shapes/*.ops")
	require.NoError(t, err)
	more, err := filepath.Glob("../../corpus/ops/regressions/*.ops")
	require.NoError(t, err)
	verdicts := map[string]int{}
	for _, path := range append(files, more...) {
		f, err := os.Open(path)
		require.NoError(t, err)
		file, err := ops.ParseFile(f, path)
		f.Close()
		require.NoError(t, err)
		if !cleanFor(file.Ops) {
			continue
		}
		for _, fl := range []flags.Set{flags.Off, flags.All} {
			name := filepath.Base(path) + "-" + fl.String()
			t.Run(name, func(t *testing.T) {
				verdicts[checkRoundTrip(t, "s", file.Ops, fl).Verdict]++
			})
		}
	}
	t.Logf("verdicts: %v", verdicts)
}

// cleanFor reports whether a script writes with one writer whose flags no
// op changes: the data a writer on one step leaves.
func cleanFor(script []ops.Op) bool {
	for _, op := range script {
		switch op.(type) {
		case ops.Flag, ops.Writer:
			return false
		}
	}
	return true
}
