package harness

import (
	"sessiondag/driver"
	"sessiondag/impl/flags"
	"sessiondag/ops"
)

// Reduce shrinks a failing op script: it deletes chunks of ops, the
// largest first, while the script still builds and fails is still true,
// until no deletion of any chunk keeps it failing (a 1-minimal script). Scripts that stop being valid (a `done` without its `reply`) are
// skipped, so the result is always a replayable script.
func Reduce(script []ops.Op, fails func([]ops.Op) bool) []ops.Op {
	cur := append([]ops.Op(nil), script...)
	for progress := true; progress; {
		progress = false
		// Every chunk size, largest first: a turn is several ops (user,
		// reply, done) and must go as a whole to keep the script valid.
		for size := len(cur) / 2; size >= 1 && !progress; size-- {
			for start := 0; start+size <= len(cur); start++ {
				cand := append(append([]ops.Op(nil), cur[:start]...), cur[start+size:]...)
				if Valid(cand) && fails(cand) {
					cur, progress = cand, true
					break
				}
			}
		}
	}
	return cur
}

// Valid reports whether every op of a script applies in turn.
func Valid(script []ops.Op) bool {
	_, err := driver.Build(script, "", flags.Off)
	return err == nil
}
