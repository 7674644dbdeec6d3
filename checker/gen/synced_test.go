package gen_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"sessiondag/checker/gen"
	"sessiondag/checker/harness"
	"sessiondag/checker/ops"
)

// TestSyncedScriptsKeepTheirIntent: with SyncedBrowser the generator draws
// only ops the intent rule keeps (it panics on one it does not), and the
// data kinds' judge, model.LegacyRun under the same rule, agrees on every
// script: the dispatcher turn from a rewound head (gen-rewound-dispatch)
// among them, which the generator gives an explicit parent.
func TestSyncedScriptsKeepTheirIntent(t *testing.T) {
	seeds := uint64(400)
	if testing.Short() {
		seeds = 40
	}
	for seed := uint64(1); seed <= seeds; seed++ {
		var script []ops.Op
		require.NotPanics(t, func() {
			script = gen.New(gen.Options{Legacy: true, SyncedBrowser: true}).Script(gen.NewSeeded(seed), 150)
		}, "seed %d", seed)
		require.True(t, harness.IntentInData(script), "seed %d: the intent is not in the data of\n%s", seed, ops.String(script))
	}
}
