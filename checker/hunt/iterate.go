package hunt

import (
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"time"

	"sessiondag/checker/harness"
)

// An outcome is what one iteration did.
type outcome struct {
	k       uint64
	plan    *Plan // nil when it could not be drawn
	applied int   // ops played before the check failed or the script ended
	reduced *Reduced
	took    time.Duration // drawing, playing and reducing
	err     error         // the plan could not be drawn or played (or it panicked)
	// notWritten: the script has an op the implementation does not write,
	// so it was not judged.
	notWritten bool
}

// iterate draws and plays iteration k, and reduces what it finds.
func iterate(cfg *Config, k uint64) (o outcome) {
	o.k = k
	start := time.Now()
	defer func() { o.took = time.Since(start) }()
	defer func() {
		if r := recover(); r != nil {
			o.err = fmt.Errorf("panic: %v\n%s", r, firstFrames(debug.Stack()))
		}
	}()
	p, err := PlanFor(cfg.Seed, k, cfg.Targets, cfg.MaxOps)
	if err != nil {
		o.err = err
		return o
	}
	o.plan = p
	p.Impl = cfg.Impl
	f, err := p.Play(cfg.Tmp)
	if errors.Is(err, harness.ErrNotApplicable) {
		o.notWritten = true
		o.applied = len(p.Script)
		return o
	}
	if err != nil {
		o.err = err
		o.applied = len(p.Script)
		return o
	}
	if f == nil {
		o.applied = len(p.Script)
		return o
	}
	o.applied = f.Step
	r := Reduce(p, f, cfg.Tmp)
	o.reduced = &r
	return o
}

// firstFrames keeps the top of a panic's stack: enough to see where.
func firstFrames(stack []byte) string {
	lines := strings.Split(string(stack), "\n")
	if len(lines) > 24 {
		lines = lines[:24]
	}
	return strings.Join(lines, "\n")
}

// replayable is the finding as a file can name it: a disagreement on
// whether an op applies is reported by the session itself, not by the
// check that was running, so the file names that check, which meets the
// same disagreement when replayed.
func replayable(f *harness.Finding, p *Plan) *harness.Finding {
	if f.Check == harness.ColdCheck.Name {
		return f
	}
	if _, err := harness.CheckNamed(f.Check); err == nil {
		return f
	}
	g := *f
	g.What = f.Check + ": " + f.What
	g.Check = p.Target.Check.Name
	return &g
}
