package audit_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"sessiondag/audit"
	"sessiondag/audit/reconstruct"
)

// TestReconstructedIsJudgedAsScripted: a session without its op script,
// audited with reconstruction, is judged as the same session with the
// script when the reconstruction is the only reading (the same intended
// view, the same verdicts and gaps), and as one without a script
// otherwise; the summary counts each verdict of the reconstruction and
// places every known script against the proof.
func TestReconstructedIsJudgedAsScripted(t *testing.T) {
	sum := audit.NewSummary()
	unique := 0
	for _, seed := range cleanSeeds(t) {
		dir, script := cleanSession(t, seed)
		rebuilt := audit.OneWith(dir, audit.Options{Reconstruct: true})
		blind := audit.One(dir)
		require.NoError(t, os.WriteFile(filepath.Join(dir, audit.ScriptName), []byte(script), 0o644))
		scripted := audit.One(dir)
		sum.Add(rebuilt)
		require.NotNil(t, rebuilt.Reconstruction, "seed %d", seed)
		require.NotNil(t, rebuilt.Proof, "seed %d", seed)
		want := blind
		if rebuilt.Reconstruction.Verdict == reconstruct.Reconstructed {
			want = scripted
			unique++
			require.True(t, rebuilt.Intended)
			require.Equal(t, "reconstructed", rebuilt.IntentFrom)
		} else {
			require.False(t, rebuilt.Intended, "seed %d: %s", seed, rebuilt.Reconstruction.Verdict)
		}
		require.Equal(t, want.Configs, rebuilt.Configs, "seed %d", seed)
		require.Equal(t, len(want.Steps), len(rebuilt.Steps))
		for i := range want.Steps {
			require.Equal(t, want.Steps[i].Verdict, rebuilt.Steps[i].Verdict, "seed %d step %d", seed, i)
		}
	}
	require.Positive(t, unique, "a seed reconstructed uniquely")
	require.Less(t, unique, len(cleanSeeds(t)), "a seed read ambiguously")
	r := sum.Reconstruct
	require.Equal(t, unique, r.Reconstructed)
	require.Equal(t, len(cleanSeeds(t)), r.Sessions())
	require.Equal(t, len(cleanSeeds(t)), sum.Proof.Placed, "every reading is placed")
	require.Equal(t, sum.Proof.Placed-sum.Proof.Walked, len(sum.Proof.Outside))
	require.NotEmpty(t, sum.Shares())
}
