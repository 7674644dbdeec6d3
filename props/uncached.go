package props

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// A run against another implementation is never a cached result: the
// implementation — its command, its files, the process it is — is outside
// what go test sees, so a cached pass could be of another command, or of
// the same one before its last edit. go test caches a result by the
// package's build and the inputs its tests used while they ran (the
// environment variables they read and the files of the module they
// opened, recorded between the start and the end of the tests: what
// TestMain reads before and after them is not), and caches nothing when
// one of those files is younger than two seconds as the run ends. So the
// first test to run against an implementation reads the variables that
// choose it and opens uncachedMark, and the run ends by writing the mark
// dated ahead of the time go test then compares it with.
const uncachedMark = "../bin/props-impl-run"

// markAhead is how far ahead of the run's end the mark is dated: well past
// the time go test takes to look at the run's inputs once it ends.
const markAhead = time.Minute

var markOpened sync.Once

// openMark records what chose the implementation under test as inputs of
// this run, once, while the tests run (track calls it).
func openMark() {
	markOpened.Do(func() {
		for _, v := range []string{ImplEnv, ImplTimeoutEnv, KnownEnv, BudgetEnv} {
			os.Getenv(v)
		}
		if f, err := os.Open(uncachedMark); err == nil {
			f.Close()
		}
	})
}

// writeMark dates the mark ahead as the run against an implementation
// ends: go test then caches nothing of it.
func writeMark(name string) error {
	if err := os.MkdirAll(filepath.Dir(uncachedMark), 0o755); err != nil {
		return err
	}
	text := fmt.Sprintf("the last run of go test ./props against another implementation (%s): never cached\n", name)
	if err := os.WriteFile(uncachedMark, []byte(text), 0o644); err != nil {
		return err
	}
	ahead := time.Now().Add(markAhead)
	return os.Chtimes(uncachedMark, ahead, ahead)
}
