package hunt

import (
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"time"

	"sessiondag/checker/campaign"
	"sessiondag/checker/harness"
)

// An outcome is what one iteration did.
type outcome struct {
	k       uint64
	plan    *Plan // nil when it could not be drawn
	applied int   // ops played before the check failed or the script ended
	reduced *campaign.Reduced
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
	p, err := planFor(cfg.Seed, k, cfg.Targets, cfg.MaxOps, cfg.draw)
	if err != nil {
		o.err = err
		return o
	}
	o.plan = p
	p.Case.Impl = cfg.Impl
	f, err := p.Case.Play(cfg.Tmp)
	o.applied = len(p.Case.Script)
	if errors.Is(err, harness.ErrNotApplicable) {
		o.notWritten = true
		return o
	}
	if err != nil || f == nil {
		o.err = err
		return o
	}
	o.applied = f.Step
	r := campaign.Reduce(p.Case, f, cfg.Tmp)
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
