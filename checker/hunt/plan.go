package hunt

import (
	"fmt"

	"sessiondag/checker/gen"
	"sessiondag/checker/harness"
	"sessiondag/checker/ops"
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

// A Plan is what one iteration plays: a property on a kind of data, under a
// swarm configuration, with a script of a drawn length (and, for the cold
// check, the history's first seq and the damage done to the files).
type Plan struct {
	Iteration uint64
	Seed      uint64 // the script seed, ScriptSeed(campaign seed, Iteration)
	Target    Target
	Data      harness.Data
	Swarm     *gen.Swarm
	Script    []ops.Op
	Shapes    map[string]int  // the shapes of legacy §5/§6 the script has (gen.Tally)
	FirstSeq  int64           // cold only
	Damage    []PointerEdit   // cold only
	Impl      harness.Starter // the implementation it plays against; nil = in-process
}

// PlanFor draws iteration k of the campaign with this seed over targets:
// the target, its kind of data, the swarm configuration, the length (1 to
// maxOps) and the script, all from the script seed, in that order.
func PlanFor(seed, k uint64, targets []Target, maxOps int) (*Plan, error) {
	p := &Plan{Iteration: k, Seed: ScriptSeed(seed, k)}
	src := gen.NewSeeded(p.Seed)
	p.Target = targets[src.IntN(len(targets), "target")]
	p.Data = p.Target.Data[src.IntN(len(p.Target.Data), "data")]
	opt := p.Data.Gen
	p.Swarm = gen.DrawSwarm(src, opt)
	opt.Swarm = p.Swarm
	g := gen.New(opt)
	p.Script = g.Script(src, 1+src.IntN(maxOps, "ops"))
	p.Shapes = g.Tally.Shapes
	if p.Target.Cold() {
		p.FirstSeq = []int64{0, 9990}[src.IntN(2, "first seq")]
		damage, err := drawDamage(src, p.Script, p.FirstSeq)
		if err != nil {
			return nil, fmt.Errorf("iteration %d (script seed %d): %w", k, p.Seed, err)
		}
		p.Damage = damage
	}
	return p, nil
}

// Play runs the plan's script with its check and returns the first
// finding. tmp is where directories on disk go ("" = the system's).
func (p *Plan) Play(tmp string) (*harness.Finding, error) {
	return p.play(p.Script, p.Damage, tmp)
}

func (p *Plan) play(script []ops.Op, damage []PointerEdit, tmp string) (*harness.Finding, error) {
	if p.Target.Cold() {
		edits, err := fileEdits(script, p.FirstSeq, damage)
		if err != nil {
			return nil, err
		}
		return harness.Cold(script, p.FirstSeq, edits, tmp)
	}
	return harness.PlayOn(p.Impl, p.Data, script, p.Target.Check)
}
