// Package bench holds the load-pipeline benchmarks (docs/target.md §7) and
// the workloads they run on: sessions of 1k, 10k and 100k nodes drawn by the
// generator from fixed seeds, built through the writers once per process and
// per size, in memory and (for the cold-load benchmarks) on disk.
//
// The benchmarks live in bench_test.go; scripts/bench-report.sh runs them and
// writes report.md and scaling.svg beside this file.
package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"

	"sessiondag/driver"
	"sessiondag/gen"
	"sessiondag/impl/flags"
	"sessiondag/impl/lane"
	"sessiondag/impl/node"
	"sessiondag/impl/store"
	"sessiondag/ops"
)

// Sizes are the session sizes the benchmarks run on (nodes asked of the
// generator; a script writes at least that many).
var Sizes = []int{1000, 10000, 100000}

// Seed is the generator seed of every workload. The same seed at every size
// makes the smaller sessions prefixes (in draws) of the larger ones, so the
// sizes differ in length, not in mix. A workload is reproduced on disk by
// `sessiondag gen --seed 1 --nodes N --flags off --out DIR`.
const Seed uint64 = 1

// Legacy is the generator option of the workloads: legacy-shaped rows
// (adapter writes, orphans, script rows, rewinds) included, as in the data a
// rollout meets and as `sessiondag gen` draws by default.
const Legacy = true

// WriterFlags is the flag set the writers run under while a workload is
// built. Every workload is written with the flags off: the data that exists
// when the rollout starts, and the same bytes under every reader config, so
// flags=off and flags=all compare the readers alone.
const WriterFlags = flags.Off

// FlagsEnv names the environment variable that replaces the flags dimension
// of the benchmarks with one config named "cur" (scripts/benchcmp.sh flags).
const FlagsEnv = "SESSIONDAG_BENCH_FLAGS"

// Config is one reader flag set the benchmarks run under.
type Config struct {
	Name  string // the sub-benchmark name part: flags=<Name>
	Flags flags.Set
}

// Configs returns the reader configs: off and all, or the single config
// "cur" from SESSIONDAG_BENCH_FLAGS when it is set.
func Configs() ([]Config, error) {
	if v, ok := os.LookupEnv(FlagsEnv); ok && v != "" {
		fl, err := flags.Parse(v)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", FlagsEnv, err)
		}
		return []Config{{Name: "cur", Flags: fl}}, nil
	}
	return []Config{{Name: "off", Flags: flags.Off}, {Name: "all", Flags: flags.All}}, nil
}

// Workload is one generated session.
type Workload struct {
	Size   int      // nodes asked of the generator
	Seed   uint64   // generator seed
	Script []ops.Op // the ops, a session op first
	// Store is the session in memory as a cold load would see it: the
	// writers' store at the head meta.json holds. Readers must not change it.
	Store *store.Store
	// Nodes is the number of stored nodes (ROOT and rewound ones included):
	// the n of ns/node and allocs/node.
	Nodes int

	diskOnce sync.Once
	dir      string
	diskErr  error
}

var (
	mu        sync.Mutex
	workloads = map[int]*Workload{}
	tmpRoot   string
)

// SessionID names a generated session after its seed, as `sessiondag gen`
// does (the web's local_<10 hex> form).
func SessionID(seed uint64) string { return fmt.Sprintf("local_%010x", seed&0xffffffffff) }

// Get returns the workload of a size, building it in memory on first use.
// Later calls in the same process return the same workload.
func Get(size int) (*Workload, error) {
	mu.Lock()
	defer mu.Unlock()
	if w, ok := workloads[size]; ok {
		return w, nil
	}
	w, err := build(size, Seed)
	if err != nil {
		return nil, err
	}
	workloads[size] = w
	return w, nil
}

// Script draws the script of a workload: a session op, then the generator's
// ops until at least size nodes are written.
func Script(size int, seed uint64) []ops.Op {
	g := gen.New(gen.Options{Legacy: Legacy})
	return append([]ops.Op{ops.Session{ID: SessionID(seed)}}, g.ScriptNodes(gen.NewSeeded(seed), size)...)
}

func build(size int, seed uint64) (*Workload, error) {
	script := Script(size, seed)
	run, err := driver.Build(script, "", WriterFlags)
	if err != nil {
		return nil, fmt.Errorf("bench workload of %d nodes (seed %d): %w", size, seed, err)
	}
	st := run.W.S.AtPersistedHead()
	return &Workload{Size: size, Seed: seed, Script: script, Store: st, Nodes: st.Len()}, nil
}

// Dir returns the workload's session directory (history/ and meta.json),
// written on first use under a temporary directory that Cleanup removes.
// fsync is turned off while it is written: the files are throwaway fixtures.
func (w *Workload) Dir() (string, error) {
	w.diskOnce.Do(func() {
		mu.Lock()
		if tmpRoot == "" {
			tmpRoot, w.diskErr = os.MkdirTemp("", "sessiondag-bench-")
		}
		root := tmpRoot
		mu.Unlock()
		if w.diskErr != nil {
			return
		}
		dir := filepath.Join(root, fmt.Sprintf("%s-%d", SessionID(w.Seed), w.Size))
		prev := store.SyncWrites
		store.SyncWrites = false
		_, err := driver.Build(w.Script, dir, WriterFlags)
		store.SyncWrites = prev
		if err != nil {
			w.diskErr = fmt.Errorf("bench workload of %d nodes on disk: %w", w.Size, err)
			return
		}
		w.dir = dir
	})
	return w.dir, w.diskErr
}

// Cleanup removes the session directories written by Dir.
func Cleanup() {
	mu.Lock()
	defer mu.Unlock()
	if tmpRoot != "" {
		os.RemoveAll(tmpRoot)
		tmpRoot = ""
	}
	for _, w := range workloads {
		w.dir = ""
		w.diskOnce = sync.Once{}
	}
}

// ReadFiles reads every history file and meta.json of a session directory
// into memory without parsing them: the floor a cold load cannot beat. It
// returns the bytes read.
func ReadFiles(dir string) (int64, error) {
	hist := filepath.Join(dir, "history")
	entries, err := os.ReadDir(hist)
	if err != nil {
		return 0, err
	}
	var total int64
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(hist, e.Name()))
		if err != nil {
			return total, err
		}
		total += int64(len(b))
	}
	b, err := os.ReadFile(filepath.Join(dir, "meta.json"))
	return total + int64(len(b)), err
}

// Mix describes what a workload holds, for the report: the shares §7 asks
// to be realistic.
type Mix struct {
	Nodes        int // stored nodes, ROOT and rewound ones included
	Ops          int // script ops
	Root         int // the synthetic ROOT node(s)
	Conv         int // conversation-lane nodes (lane.IsConv)
	ToolRows     int // code rows with a tool_call_id (tool results, orphans included)
	Orphans      int // tool rows whose caller is missing or not stored
	FnRuns       int // function runs: code rows without a tool_call_id
	TopFnRuns    int // function runs not called by another run (manual, script, from a reply)
	Internals    int // rows whose caller is a function run (exec, ask_user, nested runs)
	Rewound      int // rows hidden by a rewind
	BranchPoints int // conversation rows (ROOT included) with two or more conversation successors
	Forks        int // conversation successors beyond the first at those points
	Roots        int // conversation rows whose predecessor is ROOT (chain roots)
	OpKinds      map[string]int
}

// Share is part/total as a fraction of the stored nodes.
func (m Mix) Share(part int) float64 {
	if m.Nodes == 0 {
		return 0
	}
	return float64(part) / float64(m.Nodes)
}

// Mix classifies the workload's nodes.
func (w *Workload) Mix() Mix {
	st := w.Store
	m := Mix{Nodes: st.Len(), Ops: len(w.Script), OpKinds: map[string]int{}}
	for _, op := range w.Script {
		m.OpKinds[opKind(op)]++
	}
	isRun := func(n *node.Node) bool { return n.Role == node.RoleCode && !n.Metadata.Has("tool_call_id") }
	preds := lane.NewPreds(st)
	succ := map[string]int{}
	for _, n := range st.Nodes() {
		switch {
		case n.IsRoot():
			m.Root++
			continue
		case n.IsRewound():
			m.Rewound++
		}
		if preds.IsConv(n.ID) {
			m.Conv++
			p, _ := preds.Of(n.ID)
			succ[p]++
			if p == node.RootID {
				m.Roots++
			}
		}
		caller := n.CalledBy
		if caller == "" {
			caller = n.Metadata.Get("called_by").Str()
		}
		c, hasCaller := st.Get(caller)
		if n.Role == node.RoleCode && n.Metadata.Has("tool_call_id") {
			m.ToolRows++
			if !hasCaller {
				m.Orphans++
			}
		}
		if isRun(n) {
			m.FnRuns++
			if !hasCaller || !isRun(c) {
				m.TopFnRuns++
			}
		}
		if hasCaller && isRun(c) {
			m.Internals++
		}
	}
	for _, k := range succ {
		if k >= 2 {
			m.BranchPoints++
			m.Forks += k - 1
		}
	}
	return m
}

// SortedOpKinds lists the op kinds by count, most frequent first.
func (m Mix) SortedOpKinds() []string {
	keys := make([]string, 0, len(m.OpKinds))
	for k := range m.OpKinds {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if m.OpKinds[keys[i]] != m.OpKinds[keys[j]] {
			return m.OpKinds[keys[i]] > m.OpKinds[keys[j]]
		}
		return keys[i] < keys[j]
	})
	return keys
}

func opKind(op ops.Op) string {
	s := fmt.Sprintf("%T", op)
	if i := len("ops."); len(s) > i && s[:i] == "ops." {
		return s[i:]
	}
	return s
}
