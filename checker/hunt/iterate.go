package hunt

import (
	"fmt"
	"runtime/debug"
	"strings"
	"time"

	"sessiondag/checker/campaign"
)

// An outcome is what one iteration did.
type outcome struct {
	k       uint64
	plan    *Plan // nil when it could not be drawn
	applied int   // ops played before the check failed or the script ended
	reduced *campaign.Reduced
	took    time.Duration // drawing, playing and reducing
	err     error         // the plan could not be drawn or played (or it panicked)
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
	f, err := p.Case.Play(cfg.Tmp)
	o.applied = len(p.Case.Script)
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
