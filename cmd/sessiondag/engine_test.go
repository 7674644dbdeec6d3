package main

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"sessiondag/internal/mutants"
)

// An engine runs commands as the Kubernetes Indexed Job of deploy/k8s runs
// its pods: completions indices, at most parallelism pods at once, each
// index handed to the next free slot; a pod that ends (exit 0, or 1: it
// found failures) completes its index, a pod that is killed has its index
// run again (its newest pod's output is the index's). A schedule plants
// SIGKILLs at random times on random running pods. Any other exit is the
// test's failure.
type engine struct {
	t           *testing.T
	bin         string
	completions int
	parallelism int
	pod         func(index int) []string // the pod's command line, without the binary
	rng         *rand.Rand
	kills       int           // SIGKILLs the schedule plants
	within      time.Duration // … at times uniform in [0, within)
	// What the run did: the SIGKILLs that hit a running pod, and the
	// pods started.
	hit, pods int
}

// podEnd is how one pod ended.
type podEnd struct {
	index  int
	err    error
	stdout []byte
	stderr string
	killed bool
}

// run runs every index to its end and returns each index's output.
func (e *engine) run() [][]byte {
	out := make([][]byte, e.completions)
	done := make([]bool, e.completions)
	pending := make([]int, e.completions)
	for i := range pending {
		pending[i] = i
	}
	ends := make(chan podEnd)
	var mu sync.Mutex
	running := map[int]*exec.Cmd{}
	killedByUs := map[*exec.Cmd]bool{}
	start := func(i int) {
		cmd := exec.Command(e.bin, e.pod(i)...)
		var so, se bytes.Buffer
		cmd.Stdout, cmd.Stderr = &so, &se
		if err := cmd.Start(); err != nil {
			e.t.Fatalf("pod %d: %v", i, err)
		}
		e.pods++
		running[i] = cmd
		go func() {
			err := cmd.Wait()
			mu.Lock()
			killed := killedByUs[cmd]
			mu.Unlock()
			ends <- podEnd{index: i, err: err, stdout: so.Bytes(), stderr: se.String(), killed: killed}
		}()
	}
	timer := time.NewTimer(time.Hour)
	kills := e.killTimes()
	began := time.Now()
	arm := func() {
		if len(kills) > 0 {
			timer.Reset(max(0, kills[0]-time.Since(began)))
		}
	}
	arm()
	for left := e.completions; left > 0; {
		for len(running) < e.parallelism && len(pending) > 0 {
			start(pending[0])
			pending = pending[1:]
		}
		select {
		case end := <-ends:
			delete(running, end.index)
			if end.killed {
				pending = append(pending, end.index) // a crashed pod's index runs again
				continue
			}
			code := exitCode(end.err)
			if code != 0 && code != 1 {
				e.t.Fatalf("pod %d (%v): exit %d\n%s", end.index, e.pod(end.index), code, end.stderr)
			}
			out[end.index], done[end.index] = end.stdout, true
			left--
		case <-timer.C:
			kills = kills[1:]
			arm()
			if victim := e.victim(running); victim != nil {
				mu.Lock()
				killedByUs[victim] = true
				mu.Unlock()
				if victim.Process.Signal(syscall.SIGKILL) == nil {
					e.hit++
				}
			}
		}
	}
	timer.Stop()
	return out
}

// killTimes are the schedule's SIGKILLs, in order.
func (e *engine) killTimes() []time.Duration {
	out := make([]time.Duration, e.kills)
	for i := range out {
		out[i] = time.Duration(e.rng.Int64N(int64(max(e.within, time.Millisecond))))
	}
	slices.Sort(out)
	return out
}

// victim is a running pod drawn at random, or nil.
func (e *engine) victim(running map[int]*exec.Cmd) *exec.Cmd {
	if len(running) == 0 {
		return nil
	}
	idx := make([]int, 0, len(running))
	for i := range running {
		idx = append(idx, i)
	}
	slices.Sort(idx)
	return running[idx[e.rng.IntN(len(idx))]]
}

// exitCode is a finished command's exit code (0 without an error).
func exitCode(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}

// engineSchedules is how many schedules each engine test plants per
// parallelism: SESSIONDAG_ENGINE_SCHEDULES, else def (make test's few,
// each number of pods and a kill hitting one every time; make engine-long
// plants more).
func engineSchedules(t *testing.T, def int) int {
	if s := os.Getenv("SESSIONDAG_ENGINE_SCHEDULES"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			t.Fatalf("SESSIONDAG_ENGINE_SCHEDULES=%q: want a number ≥ 1", s)
		}
		return n
	}
	return def
}

// engineParallelism are the numbers of pods at once the engine tests run.
var engineParallelism = []int{1, 2, 4, 16}

// mutantBinary builds the command with the mutant name compiled in (go
// build -overlay) into a directory of the test's, and the mutant
// SESSIONDAG_MUTANT names if any.
func mutantBinary(t *testing.T, name string) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	m, err := mutants.Named(name)
	if err != nil {
		t.Fatal(err)
	}
	// Under a judge's mutant (scripts/mutants names it) the pods run it
	// too: the split is the judge's.
	if also := os.Getenv("SESSIONDAG_MUTANT"); also != "" && also != name {
		judge, err := mutants.Named(also)
		if err != nil {
			t.Fatal(err)
		}
		m.Name, m.Edits = m.Name+"+"+also, append(slices.Clone(m.Edits), judge.Edits...)
	}
	dir := t.TempDir()
	overlay, err := mutants.Overlay(root, m, dir)
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "sessiondag")
	cmd := exec.Command(goCommand(), "build", "-overlay", overlay, "-o", bin, ".")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build -overlay (mutant %s): %v\n%s", name, err, out)
	}
	return bin
}

// goCommand is the go command that runs this test (GOROOT names it).
func goCommand() string {
	if root := os.Getenv("GOROOT"); root != "" {
		if _, err := os.Stat(filepath.Join(root, "bin", "go")); err == nil {
			return filepath.Join(root, "bin", "go")
		}
	}
	return "go"
}

// scheduleName says what a schedule was, for a failure's message.
func (e *engine) String() string {
	return fmt.Sprintf("%d pods at once, %d completions, %d SIGKILLs planted in %s (%d hit a pod, %d pods started)",
		e.parallelism, e.completions, e.kills, e.within.Round(time.Millisecond), e.hit, e.pods)
}
