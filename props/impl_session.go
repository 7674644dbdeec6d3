package props

import (
	"pgregory.net/rapid"

	"sessiondag/driver"
	"sessiondag/gen"
	"sessiondag/impl/flags"
	"sessiondag/ops"
)

// implSession is a generated session run through the implementation only,
// for the properties that are invariants of the implementation itself.
type implSession struct {
	name   string
	gen    *gen.Gen
	run    *driver.Run
	script []ops.Op
}

func newImplSession(t *rapid.T, name string, dir string, opt gen.Options, fl flags.Set) *implSession {
	r, err := driver.Start(nil, dir, fl)
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	return &implSession{name: name, gen: gen.New(opt), run: r}
}

func (s *implSession) step(t *rapid.T) {
	op := s.gen.Next(gen.Rapid{T: t})
	s.script = append(s.script, op)
	if err := s.run.Apply(op); err != nil {
		t.Fatalf("generator drew an op the writers refuse: %v\n%s", err, ops.String(s.script))
	}
}
