package audit

import (
	"context"
	"runtime"
	"sync"
)

// inOrder audits dirs on workers side by side and hands each session to
// next in the order of dirs, as soon as it and every one before it are
// done. At most 2 × workers sessions are audited ahead of the one next
// waits for, so memory stays bounded whatever the run's size. It stops
// handing sessions over once ctx is done (the sessions under way finish
// and are dropped) and reports whether every session was handed over.
func inOrder(ctx context.Context, dirs []string, workers int, o Options, next func(*Session)) bool {
	if workers < 1 {
		workers = runtime.GOMAXPROCS(0)
	}
	type done struct {
		i int
		s *Session
	}
	jobs := make(chan int)
	results := make(chan done, workers)
	window := make(chan struct{}, 2*workers) // a token per session audited ahead
	stop := make(chan struct{})
	go func() {
		defer close(jobs)
		for i := range dirs {
			select {
			case window <- struct{}{}:
			case <-stop:
				return
			}
			select {
			case jobs <- i:
			case <-stop:
				return
			}
		}
	}()
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				results <- done{i, one(dirs[i], o)}
			}
		}()
	}
	go func() {
		wg.Wait()
		close(results)
	}()
	pending := map[int]*Session{}
	handed, stopped := 0, false
	for r := range results {
		pending[r.i] = r.s
		for s, ok := pending[handed]; ok && !stopped; s, ok = pending[handed] {
			if ctx.Err() != nil {
				stopped = true
				close(stop)
				break
			}
			delete(pending, handed)
			handed++
			next(s)
			<-window
		}
	}
	return handed == len(dirs)
}
