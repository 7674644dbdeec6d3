package harness_test

import (
	"fmt"
	"testing"

	"sessiondag/checker/gen"
	"sessiondag/checker/harness"
	"sessiondag/impl/flags"
	"sessiondag/ops"
)

// genScript is the script `sessiondag gen --seed seed --nodes n` writes.
func genScript(seed uint64, n int) []ops.Op {
	g := gen.New(gen.Options{Legacy: true})
	return append([]ops.Op{ops.Session{ID: fmt.Sprintf("local_%010x", seed)}},
		g.ScriptNodes(gen.NewSeeded(seed), n)...)
}

// BenchmarkReplayLegacy1k is `sessiondag replay FILE --flags off --check
// legacy` on the 1k-node script of seed 42: the implementation beside
// model.Legacy, every view compared after every op.
func BenchmarkReplayLegacy1k(b *testing.B) {
	script := genScript(42, 1000)
	legacy, err := harness.CheckNamed("legacy")
	if err != nil {
		b.Fatal(err)
	}
	data := harness.DataFor(script, flags.Off)
	for b.Loop() {
		if f, err := harness.Play(data, script, legacy); f != nil || err != nil {
			b.Fatal(f, err)
		}
	}
}
