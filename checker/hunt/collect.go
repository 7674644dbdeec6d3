package hunt

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"sessiondag/checker/campaign"
	"sessiondag/checker/harness"
)

// collector gathers the outcomes of the workers: the counts, the distinct
// failures (written out as they are found) and the errors.
type collector struct {
	cfg        *Config
	mu         sync.Mutex
	rows       []*PropStats
	swarms     map[string]bool
	rollouts   map[string]bool // the distinct rollout plans drawn
	planned    int             // scripts played under one
	shapes     map[string]int  // scripts that have each shape
	played     []Played
	failures   map[string]*Failure // by Key
	errors     []*ErrorRecord
	findings   int
	notWritten int
	ops        int
	known      int
	writeErr   error // the first file that could not be written
	unwritten  int   // files that could not be written
	// onFailure is called at the first distinct failure (Config.Stop);
	// stopped says it was.
	onFailure func()
	stopped   bool
}

// err is the run's error: the files it could not write, if any.
func (c *collector) err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.writeErr == nil {
		return nil
	}
	return fmt.Errorf("hunt: %d failure files not written to %s, none left there empty or cut short (the report above names the iteration that finds each: --seed and --iteration play it again); the first: %w",
		c.unwritten, c.cfg.Out, c.writeErr)
}

func newCollector(cfg *Config) *collector {
	c := &collector{cfg: cfg, swarms: map[string]bool{}, rollouts: map[string]bool{}, shapes: map[string]int{}, failures: map[string]*Failure{}}
	for _, t := range cfg.Targets {
		for _, d := range t.Data {
			c.rows = append(c.rows, &PropStats{Check: t.Name, Data: d.Slug, DataName: d.Name, swarms: map[string]bool{}, failures: map[string]bool{}})
		}
	}
	return c
}

func (c *collector) row(p *Plan) *PropStats {
	for _, r := range c.rows {
		if r.Check == p.Case.Check.Name && r.DataName == p.Case.Data.Name {
			return r
		}
	}
	panic("hunt: a plan outside the campaign's targets")
}

func (c *collector) add(o outcome) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if o.plan == nil {
		c.errors = append(c.errors, &ErrorRecord{Iteration: o.k, ScriptSeed: ScriptSeed(c.cfg.Seed, o.k), Err: o.err.Error()})
		return
	}
	p := o.plan
	c.played = append(c.played, Played{Iteration: p.Iteration, Seed: p.Seed})
	r := c.row(p)
	r.Scripts++
	r.Ops += o.applied
	r.Seconds += o.took.Seconds()
	c.ops += o.applied
	sw := setKey(p.Swarm.String())
	r.swarms[sw], c.swarms[sw] = true, true
	if p.Rollout != nil {
		c.planned++
		c.rollouts[setKey(p.Rollout.String())] = true
	}
	for shape, n := range p.Shapes {
		if n > 0 {
			c.shapes[shape]++
		}
	}
	switch {
	case o.notWritten:
		c.notWritten++
	case o.err != nil:
		c.addError(p, o.err)
	case o.reduced != nil && c.cfg.Known.Class(o.reduced.Case) != nil:
		r.Known++
		c.known++
	case o.reduced != nil:
		r.Findings++
		c.findings++
		if c.addFailure(p, o) {
			r.Failures++
			r.failures[campaign.Key(o.reduced.Case)[:16]] = true
			if c.onFailure != nil && !c.stopped {
				c.stopped = true
				c.onFailure()
			}
		}
	}
}

// addFailure keeps a finding once per key (campaign.Key): of the
// iterations that found the same reduced case, the file and record are the
// first iteration's, whichever worker got there first. It reports whether
// the key is new.
func (c *collector) addFailure(p *Plan, o outcome) bool {
	red := o.reduced
	key := campaign.Key(red.Case)
	old := c.failures[key]
	if old != nil {
		old.Times++
		if old.Iteration <= p.Iteration {
			return false
		}
	}
	f := red.Finding
	rec := &Failure{Impl: red.Case.ImplCommand(), Check: red.Case.Check.Name, Data: red.Case.Data.Slug, DataName: red.Case.Data.Name,
		What: campaign.FirstLine(f.What), Step: f.Step, Ops: len(red.Case.Script), FoundOps: o.applied,
		Iteration: p.Iteration, ScriptSeed: p.Seed, Swarm: p.Swarm.String(), Key: key[:16], Times: 1,
		Reproduced: red.Reproduced}
	drawn := rec.Swarm
	if p.Rollout != nil {
		rec.Rollout = p.Rollout.String()
		drawn += ", rollout plan " + rec.Rollout
	}
	if old != nil {
		rec.Times = old.Times
	}
	c.failures[key] = rec
	if c.cfg.Out != "" {
		header := append([]string{
			fmt.Sprintf("iteration %d (script seed %d), %s; reduced from %d ops to %d", p.Iteration, p.Seed, drawn, rec.FoundOps, rec.Ops),
			"the iteration again: " + c.again(p.Iteration)}, red.AsFound()...)
		path, err := campaign.Save(c.cfg.Out, red.Case, f, fmt.Sprintf("sessiondag hunt --seed %d", c.cfg.Seed), header...)
		c.wrote(path, err)
		rec.File = path
	}
	return old == nil
}

func (c *collector) addError(p *Plan, err error) {
	rec := &ErrorRecord{Check: p.Case.Check.Name, Data: p.Case.Data.Slug, Iteration: p.Iteration, ScriptSeed: p.Seed, Err: err.Error()}
	c.errors = append(c.errors, rec)
	if c.cfg.Out == "" {
		return
	}
	f := &harness.Finding{Check: p.Case.Check.Name, Data: p.Case.Data, Step: len(p.Case.Script), What: campaign.FirstLine(err.Error())}
	file := campaign.File(p.Case, f, fmt.Sprintf("sessiondag hunt --seed %d (an error, not a finding)", c.cfg.Seed),
		fmt.Sprintf("iteration %d (script seed %d), %s", p.Iteration, p.Seed, p.Swarm), "the iteration again: "+c.again(p.Iteration))
	path := filepath.Join(c.cfg.Out, fmt.Sprintf("error-%s-%d.ops", p.Case.Check.Name, p.Iteration))
	err = os.MkdirAll(c.cfg.Out, 0o755)
	if err == nil {
		err = campaign.WriteWhole(path, []byte(file.String()))
	}
	c.wrote(path, err)
	if err == nil {
		rec.File = path // a record names only a file that is there
	}
}

// again is the command that plays iteration k of this campaign once more:
// the seed, the checks and the script length decide what it draws.
func (c *collector) again(k uint64) string {
	cmd := fmt.Sprintf("go run ./cmd/sessiondag hunt --seed %d --max-ops %d", c.cfg.Seed, c.cfg.MaxOps)
	if impl := c.cfg.implCommand(); impl != "" {
		cmd += " --impl " + campaign.ShellQuote(impl)
	}
	if names := checkList(c.cfg.Targets); names != checkList(c.cfg.allChecks()) {
		cmd += " --check " + names
	}
	return fmt.Sprintf("%s --iteration %d", cmd, k)
}

// wrote notes a file written, or one that could not be (the first error,
// and how many).
func (c *collector) wrote(path string, err error) {
	if err != nil {
		if c.writeErr == nil {
			c.writeErr = err
		}
		c.unwritten++
		return
	}
	if c.cfg.Log != nil {
		fmt.Fprintf(c.cfg.Log, "hunt: wrote %s\n", path)
	}
}

func (c *collector) report(elapsed time.Duration) *Report {
	c.mu.Lock()
	defer c.mu.Unlock()
	r := &Report{Seed: c.cfg.Seed, Shard: c.cfg.Shard, Budget: c.cfg.Budget,
		Iterations: c.cfg.Iterations, MaxOps: c.cfg.MaxOps, Checks: checkList(c.cfg.Targets), Only: c.cfg.Only, Elapsed: elapsed, Scripts: len(c.played), Ops: c.ops,
		Swarms: len(c.swarms), Planned: c.planned, Rollouts: len(c.rollouts), SwarmKeys: sortedKeys(c.swarms), RolloutKeys: sortedKeys(c.rollouts), Shapes: maps.Clone(c.shapes), Findings: c.findings,
		Impl: c.cfg.implName(), NotRun: c.cfg.notRun, LeftOut: c.cfg.leftOut(), NotWritten: c.notWritten, Played: slices.Clone(c.played), Errors: c.errors,
		Known: c.cfg.Known.Lines(), Stopped: c.stopped}
	for _, row := range c.rows {
		row.Swarms = len(row.swarms)
		row.SwarmKeys, row.FailureKeys = sortedKeys(row.swarms), sortedKeys(row.failures)
		r.Props = append(r.Props, *row)
	}
	for _, f := range c.failures {
		r.Failures = append(r.Failures, f)
	}
	slices.SortFunc(r.Played, func(a, b Played) int { return cmpU(a.Iteration, b.Iteration) })
	slices.SortFunc(r.Failures, func(a, b *Failure) int { return cmpU(a.Iteration, b.Iteration) })
	slices.SortFunc(r.Errors, func(a, b *ErrorRecord) int { return cmpU(a.Iteration, b.Iteration) })
	return r
}

func cmpU(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// setKey names a swarm configuration or a rollout plan in a summary: 16
// hex digits of SHA-256 over its text.
func setKey(text string) string {
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:8])
}

// sortedKeys are a set's keys in order (nil when empty).
func sortedKeys(set map[string]bool) []string {
	if len(set) == 0 {
		return nil
	}
	return slices.Sorted(maps.Keys(set))
}
