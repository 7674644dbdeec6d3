package hunt

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"sessiondag/protocol"

	"sessiondag/checker/campaign"
	"sessiondag/checker/gen"
	"sessiondag/checker/harness"
	tick "sessiondag/internal/progress"
	"sessiondag/internal/shard"
)

// Config is one campaign.
type Config struct {
	Seed       uint64
	Budget     time.Duration   // stop taking new iterations after this; 0 = no limit
	Iterations uint64          // play only iterations k < Iterations of the whole campaign; 0 = no limit
	Shard      shard.Shard     // this run takes the iterations the shard owns
	Targets    []harness.Check // nil = Targets()
	MaxOps     int             // scripts have 1 to MaxOps ops; 0 = DefaultMaxOps
	Workers    int             // 0 = one per core
	Out        string          // where failures are written; "" = nowhere
	Tmp        string          // where the cold check makes its directories; "" = the system's (TMPDIR)
	Log        io.Writer       // a line per file written, as it is written; nil = none
	// Only, when set, plays iteration *Only and nothing else (whatever the
	// shard, budget or bound): one script of a campaign, from its seed.
	Only *uint64
	// Impl starts the implementation hunted; nil = the implementation in
	// this repository, in-process. Another is hunted with the checks it
	// can be judged on, each on the kinds of data it writes, their scripts
	// drawn from the op kinds it writes (harness.ApplicableTo).
	Impl protocol.Starter
	// Known are the classes of failure a review accepted: a finding of one
	// is counted as known, not as a failure (campaign.Known).
	Known *campaign.Known
	// Stop ends the campaign at its first distinct failure: no iteration
	// is begun after it (those under way finish), and the report says so
	// (Report.Stopped).
	Stop bool
	// Progress, when set, gets a line every ProgressEvery (0: 10 s) while
	// the campaign lasts: scripts, findings, the rate and the time left.
	Progress      io.Writer
	ProgressEvery time.Duration

	notRun []string // what harness.ApplicableTo left out, and why
	// draw keeps the scripts to what Impl writes: Only the draw kinds of
	// its op kinds (nil = every kind), Without the field variants it
	// cannot write, Together the ops it writes in one step.
	draw gen.Options
}

// DefaultMaxOps is the longest script drawn by default: about three times
// the steps of a property-suite state machine.
const DefaultMaxOps = 100

func (c *Config) defaults() error {
	if c.Shard.I < 0 || c.Shard.I >= c.Shard.Parts() {
		return fmt.Errorf("shard %v: want 0 ≤ i < n", c.Shard)
	}
	if c.Budget <= 0 && c.Iterations == 0 && c.Only == nil {
		return errors.New("neither a time budget nor a number of iterations: the campaign would not end")
	}
	if c.Targets == nil {
		c.Targets = Targets()
	}
	if c.Impl != nil {
		a := c.Impl.About()
		c.Targets, c.notRun = harness.ApplicableTo(c.Targets, a)
		if len(c.Targets) == 0 {
			return fmt.Errorf("no check can judge %s: %s", a.Name, strings.Join(c.notRun, "; "))
		}
		if a.Ops != nil {
			c.draw.Only = gen.DrawKindsOf(a.Ops)
		}
		if len(a.Without) > 0 {
			var err error
			if c.draw.Only, c.draw.Without, err = gen.Without(a.Without, c.draw.Only); err != nil {
				return fmt.Errorf("%s: without: %w", a.Name, err)
			}
		}
		c.draw.Together = a.Together
	}
	if len(c.Targets) == 0 {
		return errors.New("no checks to hunt")
	}
	for _, t := range c.Targets {
		if len(t.Data) == 0 {
			return fmt.Errorf("check %q declares no data to hunt it on", t.Name)
		}
	}
	if c.MaxOps <= 0 {
		c.MaxOps = DefaultMaxOps
	}
	if c.Workers <= 0 {
		c.Workers = runtime.GOMAXPROCS(0)
	}
	return nil
}

// Run runs the campaign until the budget is spent, the iterations are done
// or ctx is cancelled (an iteration under way finishes, its reduction
// included), and returns the report. The error is the first failure to
// write a file; the report is complete either way.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	if err := cfg.defaults(); err != nil {
		return nil, err
	}
	if cfg.Budget > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, cfg.Budget)
		defer cancel()
	}
	start := time.Now()
	c := newCollector(&cfg)
	if cfg.Only != nil {
		c.add(iterate(&cfg, *cfg.Only))
		return c.report(time.Since(start)), c.err()
	}
	if cfg.Stop {
		var cancel context.CancelFunc
		ctx, cancel = context.WithCancel(ctx)
		defer cancel()
		c.onFailure = cancel
	}
	if cfg.Progress != nil {
		stop := tick.Tick(cfg.Progress, cfg.ProgressEvery, func(now time.Time) string { return c.progress(now.Sub(start)) })
		defer stop()
	}
	var next atomic.Uint64
	var wg sync.WaitGroup
	for w := 0; w < cfg.Workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// The budget is checked before an iteration number is taken,
			// so every number taken is played: the iterations played are
			// always the first ones of the shard.
			for ctx.Err() == nil {
				n := uint64(cfg.Shard.Parts())
				k := uint64(cfg.Shard.I) + next.Add(1)*n - n
				if cfg.Iterations > 0 && k >= cfg.Iterations {
					return
				}
				c.add(iterate(&cfg, k))
			}
		}()
	}
	wg.Wait()
	return c.report(time.Since(start)), c.err()
}

// implCommand is the command of the implementation hunted, "" in-process.
func (c *Config) implCommand() string {
	if c.Impl == nil {
		return ""
	}
	return c.Impl.About().Command
}

// leftOut is what the comparisons leave out for the implementation
// hunted (protocol.About.LeftOut): nothing in-process.
func (c *Config) leftOut() []string {
	if c.Impl == nil {
		return nil
	}
	return c.Impl.About().LeftOut()
}

// implName is the implementation hunted, for the report.
func (c *Config) implName() string {
	if c.Impl == nil {
		return harness.InProcessAbout.Name
	}
	a := c.Impl.About()
	return fmt.Sprintf("%s (%s; claims %s)", a.Name, a.Command, a.Claim)
}

// allChecks are the checks of the whole campaign against its
// implementation, before --check picks some.
func (c *Config) allChecks() []harness.Check {
	if c.Impl == nil {
		return Targets()
	}
	t, _ := harness.ApplicableTo(Targets(), c.Impl.About())
	return t
}
