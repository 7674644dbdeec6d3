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
func machine(t *rapid.T, title string, data harness.Data, o harness.Options, checks ...harness.Check) *gen.Gen {
	opt := data.Gen
	opt.Swarm = gen.DrawSwarm(rapidsrc.Source{T: t}, opt)
	g := gen.New(opt)
	o.Data = data
	s, err := harness.NewSession(o)
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	t.Repeat(map[string]func(*rapid.T){"op": func(t *rapid.T) {
		op := g.Next(rapidsrc.Source{T: t})
		f, err := s.Step(op, checks...)
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
