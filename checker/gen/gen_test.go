package gen_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"sessiondag/checker/driver"
	"sessiondag/checker/gen"
	"sessiondag/impl/flags"
	"sessiondag/ops"
)

// Every generated script is valid for the implementation's writers, prints
// and parses back unchanged, and a seed always gives the same script.
func TestGeneratedScriptsAreValidAndStable(t *testing.T) {
	for seed := uint64(1); seed <= 40; seed++ {
		g := gen.New(gen.Options{Legacy: true})
		script := g.Script(gen.NewSeeded(seed), 150)
		_, err := driver.Build(script, "", flags.Off)
		require.NoError(t, err, "seed %d:\n%s", seed, ops.String(script))

		text := ops.String(script)
		back, err := ops.ParseString(text)
		require.NoError(t, err)
		require.Equal(t, text, ops.String(back))

		again := gen.New(gen.Options{Legacy: true}).Script(gen.NewSeeded(seed), 150)
		require.Equal(t, text, ops.String(again), "seed %d is not deterministic", seed)
	}
}

// Many seeds, long scripts: the writers accept every op drawn.
func TestGeneratorNeverDrawsInvalidOps(t *testing.T) {
	if testing.Short() {
		t.Skip("long")
	}
	for seed := uint64(100); seed < 1100; seed++ {
		script := gen.New(gen.Options{Legacy: seed%2 == 0}).Script(gen.NewSeeded(seed), 150)
		_, err := driver.Build(script, "", flags.Off)
		require.NoError(t, err, "seed %d", seed)
	}
}
