package process

import (
	"errors"
	"os"
	"sync"
)

// live is what this package started and has not ended: the processes of
// every pool and the directories the pools made for sessions. EndAll
// ends them when the harness is stopped from outside.
var live = struct {
	mu       sync.Mutex
	ended    bool
	starting sync.WaitGroup // starts under way: EndAll waits for them to be recorded
	procs    map[*process]bool
	dirs     map[string]bool
}{procs: map[*process]bool{}, dirs: map[string]bool{}}

// errEnded is what starting a process or making a directory gives once
// EndAll has run.
var errEnded = errors.New("the harness is ending: no implementation is started")

// EndAll kills every implementation process this package started that has
// not ended — with its process group and what is left in its session — and
// removes every directory its pools made that is still there; from then on
// it starts nothing. It is for a handler of Ctrl-C or SIGTERM that exits
// next: it does not wait for a reply, nor for a process to say bye.
func EndAll() {
	live.mu.Lock()
	live.ended = true
	live.mu.Unlock()
	// A process being started now is recorded, or refused and killed,
	// before the starts are done: none is left out of what is killed.
	live.starting.Wait()
	live.mu.Lock()
	procs := make([]*process, 0, len(live.procs))
	for p := range live.procs {
		procs = append(procs, p)
	}
	dirs := make([]string, 0, len(live.dirs))
	for d := range live.dirs {
		dirs = append(dirs, d)
	}
	live.mu.Unlock()
	var wg sync.WaitGroup
	for _, p := range procs {
		wg.Go(func() { killTree(p.cmd) })
	}
	wg.Wait()
	for _, d := range dirs {
		os.RemoveAll(d)
	}
}

// starting says a process is about to start (refused once EndAll has
// run); the caller calls started when it is recorded (register) or
// given up.
func starting() error {
	live.mu.Lock()
	defer live.mu.Unlock()
	if live.ended {
		return errEnded
	}
	live.starting.Add(1)
	return nil
}

func started() { live.starting.Done() }

// register records a process that started; once EndAll has run it is
// refused (the caller kills it).
func register(p *process) error {
	live.mu.Lock()
	defer live.mu.Unlock()
	if live.ended {
		return errEnded
	}
	live.procs[p] = true
	return nil
}

// forget drops a process that has ended, with what it started.
func forget(p *process) {
	live.mu.Lock()
	delete(live.procs, p)
	live.mu.Unlock()
}

// makeDir makes a directory for a session under tmp ("" = the system's),
// recorded until removeDir; refused once EndAll has run.
func makeDir(tmp string) (string, error) {
	live.mu.Lock()
	defer live.mu.Unlock()
	if live.ended {
		return "", errEnded
	}
	dir, err := os.MkdirTemp(tmp, "sessiondag-impl-")
	if err != nil {
		return "", err
	}
	live.dirs[dir] = true
	return dir, nil
}

// removeDir removes a directory makeDir made.
func removeDir(dir string) {
	os.RemoveAll(dir)
	live.mu.Lock()
	delete(live.dirs, dir)
	live.mu.Unlock()
}
