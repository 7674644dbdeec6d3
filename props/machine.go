package props

import (
	"pgregory.net/rapid"

	"sessiondag/checker/gen"
	"sessiondag/checker/harness"
	"sessiondag/checker/ops"
	"sessiondag/internal/rapidsrc"
)

// machine runs one rapid state machine over a generated session: each
// action draws an op valid in the current state (under a swarm
// configuration drawn first, gen.DrawSwarm) and steps the harness session,
// which runs the checks after the op. It returns the generator, whose tally
// says what was drawn.
//
// The session is the implementation under test's (underTest): the test
// has already skipped when a check cannot judge it (judges). The draw
// keeps to the op kinds it writes; a case that still draws another kind
// ends there, without a verdict.
func machine(t *rapid.T, title string, data harness.Data, o harness.Options, checks ...harness.Check) *gen.Gen {
	opt := drawnFor(data.Gen)
	opt.Swarm = gen.DrawSwarm(rapidsrc.Source{T: t}, opt)
	g := gen.New(opt)
	o.Data, o.Impl = data, underTest
	s, err := harness.NewSession(o)
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	defer s.Close()
	stopped := false
	t.Repeat(map[string]func(*rapid.T){"op": func(t *rapid.T) {
		op := g.Next(rapidsrc.Source{T: t})
		if stopped {
			return
		}
		f, err := s.Step(op, checks...)
		if notWritten(err) {
			stopped = true
			return
		}
		if err != nil {
			t.Fatalf("the generator drew an op the writers refuse: %v\n%s", err, ops.String(s.Script))
		}
		if f != nil {
			fail(t, title, f, s.Script)
		}
	}})
	return g
}

// check finds a harness check by name; the names are fixed in harness.
func check(name string) harness.Check {
	c, err := harness.CheckNamed(name)
	if err != nil {
		panic(err)
	}
	return c
}
