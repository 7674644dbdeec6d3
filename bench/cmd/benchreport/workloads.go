package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"sessiondag/bench"
	"sessiondag/impl/flags"
	"sessiondag/impl/webui"
)

// workloadInfo describes the fixture of one size: its mix of nodes and
// what a load of it shows under flags off and all.
type workloadInfo struct {
	size     int
	mix      bench.Mix
	fallback map[string]bool // flags name → get_branch fallback used
	trigger  map[string]bool // flags name → fallback computed (chain shorter than all)
	chain    map[string]int
	all      map[string]int
	deepest  int // the longest linear_history chain (flags off)
	err      error
}

// workloadFile is workloadInfo as saved by -prepare -workloads FILE, so
// the report describes the fixtures the run measured even if the tree has
// changed since.
type workloadFile struct {
	Size     int
	Mix      bench.Mix
	Fallback map[string]bool
	Trigger  map[string]bool
	Chain    map[string]int
	All      map[string]int
	Deepest  int
	Err      string `json:",omitempty"`
}

func saveWorkloads(path string, infos []workloadInfo) error {
	var out []workloadFile
	for _, wi := range infos {
		f := workloadFile{Size: wi.size, Mix: wi.mix, Fallback: wi.fallback, Trigger: wi.trigger, Chain: wi.chain, All: wi.all, Deepest: wi.deepest}
		if wi.err != nil {
			f.Err = wi.err.Error()
		}
		out = append(out, f)
	}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return fmt.Errorf("saving the workloads: %w", err)
	}
	return nil
}

func readWorkloads(path string) ([]workloadInfo, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("workloads: %w", err)
	}
	var in []workloadFile
	if err := json.Unmarshal(b, &in); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var out []workloadInfo
	for _, f := range in {
		wi := workloadInfo{size: f.Size, mix: f.Mix, fallback: f.Fallback, trigger: f.Trigger, chain: f.Chain, all: f.All, deepest: f.Deepest}
		if f.Err != "" {
			wi.err = errors.New(f.Err)
		}
		out = append(out, wi)
	}
	return out, nil
}

// describeWorkloads loads the workloads of the given sizes (from the
// fixture cache, building the missing ones) and describes them; a size
// that fails keeps its error for the report.
func describeWorkloads(sizes []int) []workloadInfo {
	var infos []workloadInfo
	for _, size := range sizes {
		infos = append(infos, describeWorkload(size))
	}
	return infos
}

func describeWorkload(size int) workloadInfo {
	wi := workloadInfo{size: size, fallback: map[string]bool{}, trigger: map[string]bool{}, chain: map[string]int{}, all: map[string]int{}}
	w, err := bench.Get(size)
	if err == nil {
		wi.mix, err = w.Mix()
	}
	if err != nil {
		wi.err = err
		return wi
	}
	for _, c := range []bench.Config{{Name: "off", Flags: flags.Off}, {Name: "all", Flags: flags.All}} {
		l := webui.Load(w.Store, c.Flags)
		wi.fallback[c.Name] = l.FallbackUsed
		wi.trigger[c.Name] = len(l.Linear) < len(l.All) && !c.Flags.Has(flags.C)
		wi.chain[c.Name] = len(l.Chain)
		wi.all[c.Name] = len(l.All)
		if c.Flags == flags.Off {
			_, wi.deepest = bench.Deepest(l.All)
		}
	}
	return wi
}
