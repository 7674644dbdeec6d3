package props

import (
	"os"
	"path/filepath"

	"pgregory.net/rapid"

	"sessiondag/checker/campaign"
	"sessiondag/checker/gen"
	"sessiondag/checker/gen/rapidsrc"
	"sessiondag/checker/harness"
	"sessiondag/ops"
)

// machine runs one rapid state machine over a generated session for check c
// on data d: each action draws an op valid in the current state (under a
// swarm configuration drawn first, gen.DrawSwarm) and steps the harness
// session, which runs the check after the op. It returns the tally of what
// the session played, or nil when the test's drawing (draw, nil: no
// limit) is spent and no case was drawn.
//
// The session is the implementation under test's (underTest): the test
// has already skipped when the check cannot judge it (judges). The draw
// keeps to the op kinds it writes; a case that still draws another kind
// ends there, without a verdict, and its tally counts only the ops played.
func machine(t *rapid.T, test string, c harness.Check, d harness.Data, draw *drawing) *gen.Tally {
	if draw != nil && !draw.more() {
		return nil
	}
	opt := drawnFor(campaign.GenOptions(d))
	opt.Swarm = gen.DrawSwarm(rapidsrc.Source{T: t}, opt)
	g := gen.New(opt)
	o := harness.Options{Data: d, Impl: underTest}
	if c.OnDisk && underTest == nil {
		parent, err := os.MkdirTemp(scratch(), "sessiondag-props-")
		if err != nil {
			t.Fatalf("temp dir: %v", err)
		}
		defer os.RemoveAll(parent)
		// Durability is the crash tests' subject; here fsync only costs time.
		o.Dir, o.NoSync = filepath.Join(parent, ops.DefaultSession), true // a session directory is named by its id
	}
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
		f, err := s.Step(op, c)
		if notWritten(err) {
			stopped = true
			return
		}
		if err != nil {
			t.Fatalf("the generator drew an op the writers refuse: %v\n%s", err, ops.String(s.Script))
		}
		if f != nil {
			cs := campaign.Case{Check: c, Data: d, Script: s.Script, Impl: underTest}
			if accepted(t, cs, f) {
				stopped = true // a known class: this case is over, the property goes on
				return
			}
			if draw != nil {
				draw.fail()
			}
			fail(t, test, cs, f)
		}
	}})
	if stopped && underTest != nil {
		return gen.Follow(s.Script, opt.StartStep).Tally // the ops the generator drew past the stop were not played
	}
	return g.Tally
}

// coldMachine plays check c, which reads a damaged directory, on one
// generated script: written by the writers, numbered past 9999 or not,
// sometimes with a pointer rewritten (dangling, or forming a cycle in
// either pointer), and left as the original leaves folders
// (campaign.DrawFolder).
func coldMachine(t *rapid.T, test string, c harness.Check, d harness.Data) *gen.Tally {
	src := rapidsrc.Source{T: t}
	cs, g, err := coldCase(src, c, d, rapid.IntRange(1, 40).Draw(t, "ops"),
		int64(rapid.SampledFrom([]int{0, 9990}).Draw(t, "first seq")))
	if err != nil {
		t.Fatalf("cold: %v", err)
	}
	f, err := cs.Play(scratch())
	if err != nil {
		t.Fatalf("cold: %v", err)
	}
	if f != nil && !accepted(t, cs, f) {
		fail(t, test, cs, f)
	}
	return g.Tally
}

// coldCase draws a cold iteration's case from src: its swarm, a script of
// n ops, its damage and its folder, the shapes counted in the generator's
// tally.
func coldCase(src gen.Source, c harness.Check, d harness.Data, n int, firstSeq int64) (campaign.Case, *gen.Gen, error) {
	opt := campaign.GenOptions(d)
	opt.Swarm = gen.DrawSwarm(src, opt)
	g := gen.New(opt)
	cs := campaign.Case{Check: c, Data: d, Script: g.Script(src, n), FirstSeq: firstSeq}
	var err error
	if cs.Damage, err = campaign.DrawDamage(src, cs.Script, cs.FirstSeq); err != nil {
		return cs, g, err
	}
	cs.Folder, err = campaign.DrawFolder(src, cs.Script, cs.FirstSeq, g.Tally)
	return cs, g, err
}

// scratch is where throwaway session directories go: a RAM disk when the
// machine has one (the properties write and re-read thousands of them).
func scratch() string {
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
		if f, err := os.CreateTemp("/dev/shm", "probe-"); err == nil {
			f.Close()
			os.Remove(f.Name())
			return "/dev/shm"
		}
	}
	return ""
}

// check finds a harness check by name; the names are fixed in harness.
func check(name string) harness.Check {
	c, err := harness.CheckNamed(name)
	if err != nil {
		panic(err)
	}
	return c
}
