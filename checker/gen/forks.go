package gen

import (
	"slices"
)

// Root forks and their answers. A dispatcher turn under ROOT without a
// recorded parent is a fork only once it is answered (flag A's derivation:
// model/README.md, "Legacy derivation", rule 6): by its reply, a standalone
// error row, a row that records it as its parent, or a retry or edit of it.
// A fork whose turn died unanswered waits; the generator then names it now
// and then as a parent or a rerun, and the tally counts each kind of late
// answer, so a run reaches every way a fork becomes one.

// forkStarted notes a turn: a root fork when it is a dispatcher turn with
// no parent.
func (s *shadow) forkStarted(id, parent, source string) {
	s.forkPending = ""
	if source == "cli" && parent == "" {
		s.forkPending = id
	}
}

// forkEnded notes how the pending turn ended: a fork without its reply
// waits for a later answer.
func (s *shadow) forkEnded(replied bool) {
	// Another writer may have answered it (a retry of it there, its reply).
	if s.forkPending != "" && !replied && !s.written[s.forkPending+"_reply"] {
		s.unansweredForks = append(s.unansweredForks, s.forkPending)
	}
	s.forkPending = ""
}

// answered notes a row or rerun naming id: a waiting fork is answered,
// with the shape of its answer.
func (s *shadow) answered(id, shape string) {
	if i := slices.Index(s.unansweredForks, id); i >= 0 {
		s.unansweredForks = slices.Delete(s.unansweredForks, i, i+1)
		s.tally.Shape(shape)
	}
}

// waitingFork draws a waiting fork half the times there is one.
func (s *shadow) waitingFork(src Source) (string, bool) {
	if len(s.unansweredForks) == 0 || src.IntN(2, "name a waiting fork") == 1 {
		return "", false
	}
	return s.unansweredForks[src.IntN(len(s.unansweredForks), "waiting fork")], true
}
