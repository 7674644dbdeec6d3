// Package props holds the property tests of docs/rollout.md §5: generated op
// scripts drive the implementation's writers and the reference models side
// by side (harness.Session), and the harness's checks run after every op.
// Every property is its own test and runs in parallel with the others.
//
// Run `go test ./props` (the default budget), `make props-long` (ten times
// the checks) or one property with `-run`. A failure prints the shrunk op
// script, rapid's seed, the evidence (a go-cmp diff of the first differing
// view) and a command that reproduces it: the script is saved under
// corpus/ops/failures/ with a `#! check` line naming the check and the kind
// of data, so `sessiondag replay FILE` runs exactly that check and exits 1.
// `sessiondag promote FILE NAME` moves it to corpus/ops/regressions/, which
// TestCorpusReplay replays on every run.
package props
