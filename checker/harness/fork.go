package harness

import (
	"errors"
	"fmt"
	"slices"
)

// Fork is a copy of the session that later ops on either leave the other
// alone: the implementation's writers and store and both models as the
// script left them, with nothing a load filled (the step's views, the
// memos) — what a new session given the same script would hold, at the
// cost of a copy instead of every op again. Only the in-process
// implementation forks: another process's state is not the harness's to
// copy.
func (s *Session) Fork() (*Session, error) {
	if s.broken != nil {
		return nil, errors.New("harness: fork of a session whose implementation stopped answering")
	}
	c := *s
	c.Script, c.step = slices.Clone(s.Script), stepCache{}
	c.Target = s.Target.Fork()
	c.Legacy = c.Target.Legacy()
	if s.Impl != nil {
		p, ok := s.Impl.(*InProcess)
		if !ok {
			return nil, fmt.Errorf("harness: fork of a session of %s: only the in-process implementation forks", s.about.Name)
		}
		r, err := p.Run.Fork()
		if err != nil {
			return nil, fmt.Errorf("harness: %w", err)
		}
		c.Impl = NewInProcess(r)
	}
	return &c, nil
}
