package hunt

import (
	"fmt"
	"slices"

	"sessiondag/checker/campaign"
	"sessiondag/checker/gen"
	"sessiondag/checker/harness"
)

// ScriptSeed is the seed of iteration k of the campaign with this seed: the
// SplitMix64 output at position k+1 of the campaign's stream. It is a
// bijection of k for a fixed campaign seed, so no two iterations of a
// campaign share a script seed.
func ScriptSeed(seed, k uint64) uint64 {
	z := seed + (k+1)*0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// A Plan is what one iteration plays: a case (a check on a kind of data and
// a script of a drawn length, with damage for a check that reads a damaged
// directory) under a swarm configuration and, on data whose flags change, a
// rollout plan or none.
type Plan struct {
	Iteration uint64
	Seed      uint64 // the script seed, ScriptSeed(campaign seed, Iteration)
	Case      campaign.Case
	Swarm     *gen.Swarm
	Rollout   *gen.Rollout   // nil: flag and writer ops drawn one at a time
	Shapes    map[string]int // the shapes the script has (gen.Tally)
}

// PlanFor draws iteration k of the campaign with this seed over checks: the
// check, its kind of data, the swarm configuration, the length (1 to
// maxOps), on data whose flags change a rollout plan half of the time (a
// dimension of its own: which steps in which order, rolled back or not, on
// how many writers, each phase how long), then the script and any damage,
// all from the script seed, in that order.
func PlanFor(seed, k uint64, checks []harness.Check, maxOps int) (*Plan, error) {
	return planFor(seed, k, checks, maxOps, gen.Options{})
}

// planFor is PlanFor drawing only what the implementation under test
// writes: draw's Only, Without and Together (none when zero).
func planFor(seed, k uint64, checks []harness.Check, maxOps int, draw gen.Options) (*Plan, error) {
	p := &Plan{Iteration: k, Seed: ScriptSeed(seed, k)}
	src := gen.NewSeeded(p.Seed)
	c := checks[src.IntN(len(checks), "target")]
	p.Case = campaign.Case{Check: c, Data: c.Data[src.IntN(len(c.Data), "data")]}
	opt := campaign.GenOptions(p.Case.Data)
	only := draw.Only
	if only != nil {
		opt.Only = only
	}
	opt.Without, opt.Together = draw.Without, draw.Together
	p.Swarm = gen.DrawSwarm(src, opt)
	opt.Swarm = p.Swarm
	length := 1 + src.IntN(maxOps, "ops")
	// A plan hands the session between writers: only for an implementation
	// that writes writer ops.
	if d := p.Case.Data; d.Flips > harness.Steady && (only == nil || slices.Contains(only, "writer")) && src.IntN(2, "rollout plan") == 0 {
		p.Rollout = gen.DrawRollout(src, opt.StartStep, d.Flips == harness.Any, opt.Writers, length)
		opt.Rollout = p.Rollout
	}
	g := gen.New(opt)
	p.Case.Script = g.Script(src, length)
	p.Shapes = g.Tally.Shapes
	if c.Damage {
		p.Case.FirstSeq = []int64{0, 9990}[src.IntN(2, "first seq")]
		damage, err := campaign.DrawDamage(src, p.Case.Script, p.Case.FirstSeq)
		if err != nil {
			return nil, fmt.Errorf("iteration %d (script seed %d): %w", k, p.Seed, err)
		}
		p.Case.Damage = damage
		if p.Case.Folder, err = campaign.DrawFolder(src, p.Case.Script, p.Case.FirstSeq, g.Tally); err != nil {
			return nil, fmt.Errorf("iteration %d (script seed %d): %w", k, p.Seed, err)
		}
	}
	return p, nil
}
