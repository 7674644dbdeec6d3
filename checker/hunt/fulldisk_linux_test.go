package hunt

import (
	"context"
	"os"
	"strings"
	"syscall"
	"testing"

	"sessiondag/checker/harness"
)

// TestFullDiskLeavesNoFile: a hunt whose failure files cannot be written
// (the disk full; here the process's file-size limit, which fails a write
// the same way) leaves nothing in --out, empty or cut short, names no file
// in its report, and says how many it could not write and why (before, it
// left files cut at the limit and named one as the failure's file).
func TestFullDiskLeavesNoFile(t *testing.T) {
	withPlanted(t)
	out := t.TempDir()
	var was syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &was); err != nil {
		t.Skip(err)
	}
	// Every failure file is longer than this; the limit holds for this
	// test alone: tests run in parallel only after it.
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: 64, Max: was.Max}); err != nil {
		t.Skip(err)
	}
	r, err := Run(context.Background(), Config{Seed: 1, Iterations: 300, MaxOps: 60, Out: out, Targets: []harness.Check{planted}})
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &was); err != nil {
		t.Fatal(err)
	}
	if err == nil || !strings.Contains(err.Error(), "failure files not written to "+out) || !strings.Contains(err.Error(), "none left there") {
		t.Fatalf("the error does not say what was not written: %v", err)
	}
	if len(r.Failures) == 0 {
		t.Fatal("no failure found: nothing was written")
	}
	for _, f := range r.Failures {
		if f.File != "" {
			t.Errorf("the report names %s, which was not written", f.File)
		}
	}
	left, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range left {
		t.Errorf("left in --out: %s", e.Name())
	}
}
