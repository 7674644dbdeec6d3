package main

import "math"

// workloadsView is the workloads table and the notes under it.
type workloadsView struct {
	Rows    []workloadRow
	Tools   *toolShares      // nil: no workload was described
	Largest *largestWorkload // nil: the largest failed to load
}

type workloadRow struct {
	Size                                        int
	Err                                         error
	Nodes, Ops                                  int
	Tools, FnRuns, Internals, Conv              float64 // shares of the stored nodes
	BranchPoints, Forks, Roots, Rewound         int
	ChainOff, ChainAll, AllOff, AllAll, Deepest int
	Computed, Used                              bool // the get_branch fallback under flags=off
}

// toolShares is the range of the tool rows' share over the sizes, against
// §7's "about one in three".
type toolShares struct {
	Lo, Hi                float64
	OffTarget             bool    // outside 28–39%
	LastFn, LastInternals float64 // shares at the largest size
}

type largestWorkload struct {
	Nodes, Roots, Forks, ChainOff, AllOff, Deepest int
	OpKinds                                        []opCount // most frequent first
}

type opCount struct {
	Kind string
	N    int
}

func workloadsOf(infos []workloadInfo) *workloadsView {
	if len(infos) == 0 {
		return nil
	}
	v := &workloadsView{}
	for _, wi := range infos {
		if wi.err != nil {
			v.Rows = append(v.Rows, workloadRow{Size: wi.size, Err: wi.err})
			continue
		}
		m := wi.mix
		v.Rows = append(v.Rows, workloadRow{Size: wi.size, Nodes: m.Nodes, Ops: m.Ops,
			Tools: m.Share(m.ToolRows), FnRuns: m.Share(m.FnRuns), Internals: m.Share(m.Internals), Conv: m.Share(m.Conv),
			BranchPoints: m.BranchPoints, Forks: m.Forks, Roots: m.Roots, Rewound: m.Rewound,
			ChainOff: wi.chain["off"], ChainAll: wi.chain["all"], AllOff: wi.all["off"], AllAll: wi.all["all"], Deepest: wi.deepest,
			Computed: wi.trigger["off"], Used: wi.fallback["off"]})
	}
	last := infos[len(infos)-1]
	v.Tools = toolSharesOf(v.Rows, last)
	if last.err == nil {
		l := &largestWorkload{Nodes: last.mix.Nodes, Roots: last.mix.Roots, Forks: last.mix.Forks,
			ChainOff: last.chain["off"], AllOff: last.all["off"], Deepest: last.deepest}
		for _, k := range last.mix.SortedOpKinds() {
			l.OpKinds = append(l.OpKinds, opCount{k, last.mix.OpKinds[k]})
		}
		v.Largest = l
	}
	return v
}

// toolSharesOf takes the largest workload's shares from last even when it
// failed to load (they are then 0).
func toolSharesOf(rows []workloadRow, last workloadInfo) *toolShares {
	var t *toolShares
	for _, r := range rows {
		if r.Err != nil {
			continue
		}
		if t == nil {
			t = &toolShares{Lo: r.Tools, Hi: r.Tools}
		}
		t.Lo, t.Hi = math.Min(t.Lo, r.Tools), math.Max(t.Hi, r.Tools)
	}
	if t != nil {
		t.OffTarget = t.Lo < 0.28 || t.Hi > 0.39
		t.LastFn, t.LastInternals = last.mix.Share(last.mix.FnRuns), last.mix.Share(last.mix.Internals)
	}
	return t
}
