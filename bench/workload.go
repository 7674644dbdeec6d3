// Package bench holds the load-pipeline benchmarks (docs/rollout.md §7) and
// the workloads they run on: sessions of 1k, 10k and 100k nodes drawn by the
// generator from fixed seeds, built through the writers once per process and
// per size, in memory and (for the cold-load benchmarks) on disk.
//
// The benchmarks live in bench_test.go; scripts/bench-report.sh runs them and
// writes report.md and scaling.svg beside this file.
package bench

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"sessiondag/checker/driver"
	"sessiondag/checker/gen"
	"sessiondag/impl/adapter"
	"sessiondag/impl/flags"
	"sessiondag/impl/history"
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

// Workload is one generated session, stored on disk and loaded in memory.
type Workload struct {
	Size int    // nodes asked of the generator
	Seed uint64 // generator seed
	// Dir is the session directory (history/, meta.json) the writers wrote,
	// plus script.txt, the ops that wrote it. It is a cached fixture:
	// benchmarks read it and never write to it.
	Dir string
	// Store is Dir loaded cold (store.Open): the session as the web UI holds
	// it in memory, at the head meta.json stores. Readers must not change it.
	Store *store.Store
	// Nodes is the number of stored nodes (ROOT and rewound ones included):
	// the n of ns/node and allocs/node.
	Nodes int
	// Built is how long building the fixture took in this process (0 when
	// it came from the cache).
	Built time.Duration
}

var (
	mu        sync.Mutex
	workloads = map[int]*Workload{}
	tmpCache  string // the per-process cache directory when caching is off
)

// SessionID names a generated session after its seed, as `sessiondag gen`
// does (the web's local_<10 hex> form).
func SessionID(seed uint64) string { return fmt.Sprintf("local_%010x", seed&0xffffffffff) }

// Script draws the script of a workload: a session op, then the generator's
// ops until at least size nodes are written.
func Script(size int, seed uint64) []ops.Op {
	g := gen.New(gen.Options{Legacy: Legacy})
	return append([]ops.Op{ops.Session{ID: SessionID(seed)}}, g.ScriptNodes(gen.NewSeeded(seed), size)...)
}

// Get returns the workload of a size: its fixture from the cache, built
// first if the cache has none for the current generator and writers, then
// loaded. Later
// calls in the same process return the same workload.
func Get(size int) (*Workload, error) {
	mu.Lock()
	defer mu.Unlock()
	if w, ok := workloads[size]; ok {
		return w, nil
	}
	dir, built, err := fixture(size, Seed)
	if err != nil {
		return nil, err
	}
	st, err := store.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("bench workload of %d nodes: %w", size, err)
	}
	if len(st.Problems) > 0 {
		return nil, fmt.Errorf("bench workload of %d nodes: %s: %v (remove the directory to rebuild it)", size, dir, st.Problems[0])
	}
	if st.Len() < size {
		return nil, fmt.Errorf("bench workload of %d nodes: %s holds only %d nodes (remove it to rebuild it)", size, dir, st.Len())
	}
	w := &Workload{Size: size, Seed: Seed, Dir: dir, Store: st, Nodes: st.Len(), Built: built}
	workloads[size] = w
	return w, nil
}

// Drop forgets the loaded workloads of every size but keep, so their memory
// can be reclaimed; a later Get loads them again from the cache.
func Drop(keep int) {
	mu.Lock()
	defer mu.Unlock()
	for size := range workloads {
		if size != keep {
			delete(workloads, size)
		}
	}
}

// CacheEnv names the environment variable that sets the fixture cache
// directory; "off" keeps fixtures in a temporary directory that Cleanup
// removes.
const CacheEnv = "SESSIONDAG_BENCH_CACHE"

// CacheDir is where fixtures are kept across processes: $SESSIONDAG_BENCH_CACHE,
// else sessiondag-bench under the user's cache directory.
//
// Fixtures are cached because writing 100k history files through the
// writers takes tens of seconds, which every benchmark process (benchcmp.sh
// runs twenty) would pay again. A fixture's
// directory name carries a fingerprint of what the generator and the
// writers produce (see fixtureKey): a change to either builds a new one.
// Fixtures unused for staleAfter are removed when another one is built.
func CacheDir() (string, error) {
	if v := os.Getenv(CacheEnv); v != "" && v != "off" {
		return v, nil
	} else if v == "off" {
		tmpMu.Lock()
		defer tmpMu.Unlock()
		if tmpCache == "" {
			d, err := os.MkdirTemp("", "sessiondag-bench-")
			if err != nil {
				return "", err
			}
			tmpCache = d
		}
		return tmpCache, nil
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("bench fixture cache: %w (set %s)", err, CacheEnv)
	}
	return filepath.Join(base, "sessiondag-bench"), nil
}

var tmpMu sync.Mutex

// Cleanup removes the temporary fixture directory of a process that runs
// with SESSIONDAG_BENCH_CACHE=off. The shared cache is left alone.
func Cleanup() {
	tmpMu.Lock()
	defer tmpMu.Unlock()
	if tmpCache != "" {
		os.RemoveAll(tmpCache)
		tmpCache = ""
	}
}

// fixture returns the directory of a workload's session, building it when
// the cache has none. It reports how long a build took.
func fixture(size int, seed uint64) (string, time.Duration, error) {
	cache, err := CacheDir()
	if err != nil {
		return "", 0, err
	}
	key, err := fixtureKey(size, seed)
	if err != nil {
		return "", 0, err
	}
	prefix := fmt.Sprintf("seed%d-nodes%d-", seed, size)
	dir := filepath.Join(cache, prefix+key)
	if _, err := os.Stat(filepath.Join(dir, doneFile)); err == nil {
		now := time.Now()
		os.Chtimes(filepath.Join(dir, doneFile), now, now) // in use: not stale
		return dir, 0, nil
	}
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return "", 0, err
	}
	// One builder per fixture: a second process waits for the first and
	// then finds its fixture.
	unlock, err := lockFile(filepath.Join(cache, prefix+key+".lock"))
	if err != nil {
		return "", 0, err
	}
	defer unlock()
	if _, err := os.Stat(filepath.Join(dir, doneFile)); err == nil {
		return dir, 0, nil
	}
	// Builds that died (a killed process) leave their directory behind.
	if stale, _ := filepath.Glob(filepath.Join(cache, "building-*")); len(stale) > 0 {
		for _, d := range stale {
			if fi, err := os.Stat(d); err == nil && time.Since(fi.ModTime()) > 6*time.Hour {
				os.RemoveAll(d)
			}
		}
	}
	start := time.Now()
	tmp, err := os.MkdirTemp(cache, "building-")
	if err != nil {
		return "", 0, err
	}
	defer os.RemoveAll(tmp) // left over only when the rename below did not happen
	if err := Write(filepath.Join(tmp, "session"), size, seed); err != nil {
		return "", 0, err
	}
	if err := os.WriteFile(filepath.Join(tmp, "session", doneFile), []byte(key+"\n"), 0o644); err != nil {
		return "", 0, err
	}
	// Fixtures nobody used for a while (older generators or writers) go.
	// Recent ones stay: two revisions compared in turns (benchcmp.sh rev)
	// each keep theirs.
	if old, _ := filepath.Glob(filepath.Join(cache, "seed*-nodes*-*", doneFile)); len(old) > 0 {
		for _, f := range old {
			if fi, err := os.Stat(f); err == nil && time.Since(fi.ModTime()) > staleAfter {
				os.RemoveAll(filepath.Dir(f))
				os.Remove(filepath.Dir(f) + ".lock")
			}
		}
	}
	if err := os.Rename(filepath.Join(tmp, "session"), dir); err != nil {
		if _, serr := os.Stat(filepath.Join(dir, doneFile)); serr == nil {
			return dir, time.Since(start), nil // another process won the race
		}
		return "", 0, err
	}
	return dir, time.Since(start), nil
}

// staleAfter is how long a cached fixture may go unused before a build of
// another one removes it.
const staleAfter = 3 * 24 * time.Hour

// doneFile marks a complete fixture directory; its modification time is
// the fixture's last use.
const doneFile = "fixture.done"

// ScriptFile is the file of a fixture directory holding its ops, one a line.
const ScriptFile = "script.txt"

// Write builds a workload's session in dir through the writers (fsync off:
// the files are throwaway fixtures) and saves its script beside it.
func Write(dir string, size int, seed uint64) error {
	script := Script(size, seed)
	_, err := driver.BuildWith(script, dir, WriterFlags, store.WriteOptions{NoSync: true})
	if err != nil {
		return fmt.Errorf("bench workload of %d nodes (seed %d): %w", size, seed, err)
	}
	text := fmt.Sprintf("# sessiondag gen --seed %d --nodes %d --flags %s\n%s", seed, size, WriterFlags, ops.String(script))
	return os.WriteFile(filepath.Join(dir, ScriptFile), []byte(text), 0o644)
}

// fingerprintNodes is the size of the session whose bytes stand for the
// generator's and the writers' behaviour in a fixture's key.
const fingerprintNodes = 2000

var (
	fingerprintOnce sync.Once
	fingerprint     string
	fingerprintErr  error
)

// fixtureKey names the fixture of a size: its parameters and a fingerprint
// of what the current generator and writers produce. The fingerprint is the
// hash of a small session (same seed, fingerprintNodes nodes) built in
// memory: a change to gen, the writers or anything they consult that
// changes what they write changes it, while a refactor that changes nothing
// written (say a faster adapter) keeps the cached fixtures. The small
// session shares its first draws with every workload, so a change that
// would alter only the tail of a 100k-node session is the one thing it can
// miss: SESSIONDAG_BENCH_CACHE=off rebuilds everything from scratch.
func fixtureKey(size int, seed uint64) (string, error) {
	fingerprintOnce.Do(func() {
		script := Script(fingerprintNodes, Seed)
		run, err := driver.Build(script, "", WriterFlags)
		if err != nil {
			fingerprintErr = fmt.Errorf("bench fixture fingerprint: %w", err)
			return
		}
		h := sha256.New()
		io.WriteString(h, ops.String(script))
		for _, n := range run.W.S.Nodes() {
			h.Write(n.Encode())
		}
		h.Write(node.AppendIndent(nil, node.ObjV(run.W.S.Meta), ""))
		fingerprint = hex.EncodeToString(h.Sum(nil))
	})
	if fingerprintErr != nil {
		return "", fingerprintErr
	}
	h := sha256.New()
	fmt.Fprintf(h, "v1 size=%d seed=%d legacy=%v writer=%s fingerprint=%s\n", size, seed, Legacy, WriterFlags, fingerprint)
	return hex.EncodeToString(h.Sum(nil))[:16], nil
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

// Mix classifies the workload's nodes, and counts the ops of its script.
func (w *Workload) Mix() (Mix, error) {
	st := w.Store
	m := Mix{Nodes: st.Len(), OpKinds: map[string]int{}}
	text, err := os.ReadFile(filepath.Join(w.Dir, ScriptFile))
	if err != nil {
		return m, err
	}
	for _, line := range strings.Split(string(text), "\n") {
		if f := strings.Fields(line); len(f) > 0 && !strings.HasPrefix(f[0], "#") {
			m.Ops++
			m.OpKinds[f[0]]++
		}
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
	return m, nil
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

// Deepest returns the id of the row of msgs whose linear_history chain (R's
// parent_id walk) is the longest, and that chain's length. The walk
// benchmarks start there: the generator's last head often sits on a short
// branch, where a walk has nothing to do.
func Deepest(msgs []*adapter.Message) (string, int) {
	idx := history.IndexByID(msgs)
	depth := make(map[string]int, len(msgs))
	bestID, best := "", 0
	for _, m := range msgs {
		var path []string
		onPath := map[string]bool{}
		cur := m.ID
		for cur != "" {
			if _, done := depth[cur]; done {
				break
			}
			p, ok := idx[cur]
			if !ok || onPath[cur] {
				break
			}
			onPath[cur] = true
			path = append(path, cur)
			cur = history.ParentEdge(p)
		}
		d := depth[cur] // 0 for the end of a walk
		for i := len(path) - 1; i >= 0; i-- {
			d++
			depth[path[i]] = d
		}
		if depth[m.ID] > best {
			bestID, best = m.ID, depth[m.ID]
		}
	}
	return bestID, best
}
