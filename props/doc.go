// Package props holds the property tests of docs/rollout.md §5: generated op
// scripts drive the implementation's writers and the reference models side
// by side, and every view is compared after every op.
//
// Run `go test ./props` (the default budget), `make props-long` (ten times
// the checks) or one property with `-run`. A failure prints the shrunk op
// script, rapid's seed, a go-cmp diff of the first differing view and a
// command that replays it; the script is saved under corpus/ops/failures/.
// Promote it by moving it to corpus/ops/ with a comment saying what it
// caught: TestCorpusReplay replays every script there on every run.
package props
