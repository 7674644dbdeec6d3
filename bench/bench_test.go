package bench

// The load-pipeline benchmarks of docs/rollout.md §7. Each runs on the
// workloads of 1k, 10k and 100k nodes, under the reader flag sets off and
// all (or the one set of $SESSIONDAG_BENCH_FLAGS, named flags=cur):
//
//	BenchmarkAggregate/nodes=N/flags=F      get_messages and aggregate_tool_messages (load steps 1–2)
//	BenchmarkLinearHistory/nodes=N/flags=F  linear_history from the deepest row (flag B: the predecessor walk)
//	BenchmarkGetBranch/nodes=N/flags=F      the get_branch walk from the deepest row (flag B: predecessors)
//	BenchmarkRuntimeCards/nodes=N/flags=F   _rebuild_runtime_cards over every row, execution trees included
//	BenchmarkSiblings/nodes=N/flags=F       sibling info for the chain (load step 10)
//	BenchmarkLoad/nodes=N/flags=F           the whole in-memory load (webui.Load)
//	BenchmarkLoadAfterAppend/nodes=N/flags=F  append one node, then the whole load
//	BenchmarkLoadAfterUpdate/nodes=N/flags=F  update one node (a reply's status), then the whole load
//	BenchmarkColdLoad/nodes=N/flags=F       store.Open + webui.Load
//	BenchmarkColdLoad/nodes=N/open-only     store.Open alone (read + parse + index)
//	BenchmarkColdLoad/nodes=N/read-files-only  the floor: read every file, parse nothing
//	BenchmarkPreds/nodes=N/flags=F          flag A's predecessor derivation (only for sets with A)
//
// Stages run as the load runs them (webui.Stages); their inputs (the chain
// before the card pass…) come from one untimed webui.Load, so every stage
// sees what it sees inside a load.
// The walks start from the row whose linear_history chain is the longest
// (Deepest): the generator leaves the head on whatever branch its last ops
// chose, often a short one. BenchmarkLoad loads the session held in
// memory again and again, as a server does: what the store keeps per node
// and per session (adapter messages, the load's columns, folded
// assistants, flag A's predecessors) is warm after the first load, so a
// first load costs what ColdLoad's flags=F minus its open-only shows, and
// LoadAfterAppend shows a load that must first extend all of it by the
// node just written.
// Every benchmark reports ns/node: time per op divided by the stored nodes.
// Workloads are built once and cached across runs (workload.go), so the
// first run after a change to the writers or the generator is slow.

import (
	"fmt"
	"os"
	"runtime"
	"sync"
	"testing"

	"sessiondag/impl/flags"
	"sessiondag/impl/history"
	"sessiondag/impl/lane"
	"sessiondag/impl/node"
	"sessiondag/impl/store"
	"sessiondag/impl/webui"
)

func TestMain(m *testing.M) {
	code := m.Run()
	Cleanup()
	os.Exit(code)
}

// stage is one workload under one reader config, with the inputs each
// pipeline stage gets inside a load.
type stage struct {
	w      *Workload
	fl     flags.Set
	loaded *webui.Loaded
	deep   string // the row with the longest linear_history chain
}

var (
	stagesMu sync.Mutex
	stages   = map[string]*stage{}
	logged   = map[int]bool{}
	current  int // the size whose workload and stages are held
)

// workload returns the workload of a size, failing the benchmark if it
// cannot be had. Only one size is held at a time: the workloads and stage
// inputs of the others are dropped (and reloaded when needed), so the live
// heap a benchmark runs beside, and with it the GC's work, depends on its
// own size only, not on which benchmarks ran before it.
func workload(b *testing.B, size int) *Workload {
	b.Helper()
	stagesMu.Lock()
	if size != current {
		clear(stages)
		Drop(size)
		current = size
	}
	stagesMu.Unlock()
	w, err := Get(size)
	if err != nil {
		b.Fatal(err)
	}
	stagesMu.Lock()
	defer stagesMu.Unlock()
	if w.Built > 0 && !logged[size] {
		logged[size] = true
		b.Logf("built the %d-node fixture in %v (cached in %s)", size, w.Built.Round(1e6), w.Dir)
	}
	return w
}

func getStage(b *testing.B, size int, c Config) *stage {
	b.Helper()
	w := workload(b, size)
	stagesMu.Lock()
	defer stagesMu.Unlock()
	key := fmt.Sprintf("%d/%d", size, c.Flags)
	if s, ok := stages[key]; ok {
		return s
	}
	s := &stage{w: w, fl: c.Flags}
	s.loaded = webui.Load(w.Store, c.Flags)
	s.deep, _ = Deepest(s.loaded.All)
	stages[key] = s
	return s
}

// walkPreds is the predecessor set get_branch walks: flag B's, else none.
func (s *stage) walkPreds() *lane.Preds {
	if s.fl.Has(flags.A) && s.fl.Has(flags.B) {
		return lane.PredsOf(s.w.Store)
	}
	return nil
}

// stages returns the load's steps with the aggregation done, for the
// steps after it.
func (s *stage) stages() *webui.Stages {
	st := webui.NewStages(s.w.Store, s.fl)
	st.Aggregate()
	return st
}

// each runs body as nodes=N/flags=F sub-benchmarks, reporting allocations
// and ns/node. body must time only its b.Loop; the stage inputs are made
// outside it, so a profile focused on the body's closure (pprof -focus
// 'bench\.BenchmarkLoad\.func1$') sees only the timed part.
func each(b *testing.B, needA bool, body func(b *testing.B, s *stage)) {
	configs, err := Configs()
	if err != nil {
		b.Fatal(err)
	}
	for _, size := range Sizes {
		b.Run(fmt.Sprintf("nodes=%d", size), func(b *testing.B) {
			for _, c := range configs {
				if needA && !c.Flags.Has(flags.A) {
					continue
				}
				b.Run("flags="+c.Name, func(b *testing.B) {
					s := getStage(b, size, c)
					b.ReportAllocs()
					body(b, s)
					perNode(b, s.w.Nodes)
				})
			}
		})
	}
}

// perNode reports time per op per stored node.
func perNode(b *testing.B, nodes int) {
	if b.N > 0 && nodes > 0 {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(nodes), "ns/node")
	}
}

func BenchmarkAggregate(b *testing.B) {
	each(b, false, func(b *testing.B, s *stage) {
		st := webui.NewStages(s.w.Store, s.fl)
		for b.Loop() {
			st.Aggregate()
		}
	})
}

func BenchmarkLinearHistory(b *testing.B) {
	each(b, false, func(b *testing.B, s *stage) {
		st, head := s.stages(), s.deep
		for b.Loop() {
			st.Linear(head)
		}
	})
}

func BenchmarkGetBranch(b *testing.B) {
	each(b, false, func(b *testing.B, s *stage) {
		st, head, preds := s.w.Store, s.deep, s.walkPreds()
		for b.Loop() {
			history.BranchWalk(st, head, preds)
		}
	})
}

// BenchmarkRuntimeCards runs the card pass over every aggregated row, the
// chain a session without a head loads (legacy §3.5 step 5): every
// top-level run becomes a card with its execution tree and every internal
// is dropped. The chains of the workloads' heads hold few runs, which
// would leave the pass nothing to do.
func BenchmarkRuntimeCards(b *testing.B) {
	each(b, false, func(b *testing.B, s *stage) {
		st, chain := s.stages(), s.loaded.All
		for b.Loop() {
			st.Cards(chain)
		}
	})
}

func BenchmarkSiblings(b *testing.B) {
	each(b, false, func(b *testing.B, s *stage) {
		st, chain := s.stages(), s.loaded.BeforeCards
		chain = st.Cards(chain)
		for b.Loop() {
			st.Siblings(chain)
		}
	})
}

func BenchmarkLoad(b *testing.B) {
	each(b, false, func(b *testing.B, s *stage) {
		st := s.w.Store
		for b.Loop() {
			webui.Load(st, s.fl)
		}
	})
}

// BenchmarkLoadAfterAppend appends a node to an in-memory copy of the
// session before each load: the load then extends what the store keeps
// (columns, predecessors) by that node, as a server's first load after a
// turn is written does.
func BenchmarkLoadAfterAppend(b *testing.B) {
	loadAfter(b, func(st *store.Store) (func(i int) error, error) {
		return func(i int) error {
			_, err := st.Append(appended(i))
			return err
		}, nil
	})
}

// BenchmarkLoadAfterUpdate replaces a reply in the middle of an in-memory
// copy of the session before each load, as a writer does when a turn
// completes: the load then fills that node's position again.
func BenchmarkLoadAfterUpdate(b *testing.B) {
	status := [2]node.Value{node.Str("completed"), node.Str("done")}
	loadAfter(b, func(st *store.Store) (func(i int) error, error) {
		id := middleReply(st)
		if id == "" {
			return nil, fmt.Errorf("the workload has no reply to update")
		}
		return func(i int) error {
			return st.Update(id, func(n *node.Node) { n.Metadata.Set("status", status[i%2]) })
		}, nil
	})
}

// loadAfter times a write and a load, again and again, on an in-memory
// copy of each workload loaded once before: prepare returns the i-th write
// of a copy. After writes numbering 1% of the workload's nodes the copy is
// made again, untimed, so that appends grow the session the time per node
// is reported for by at most 1%.
func loadAfter(b *testing.B, prepare func(st *store.Store) (func(i int) error, error)) {
	each(b, false, func(b *testing.B, s *stage) {
		var write func(i int) error
		fresh := func() {
			st, err := inMemory(s.w.Store)
			if err == nil {
				write, err = prepare(st)
			}
			if err != nil {
				b.Fatal(err)
			}
			webui.Load(st, s.fl)
			write = loadingAfter(st, s.fl, write)
		}
		fresh()
		every := max(2, s.w.Nodes/100)
		i := 0
		for b.Loop() {
			i++
			if i%every == 0 {
				b.StopTimer()
				fresh()
				b.StartTimer()
			}
			if err := write(i); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// loadingAfter is write followed by a load.
func loadingAfter(st *store.Store, fl flags.Set, write func(i int) error) func(i int) error {
	return func(i int) error {
		if err := write(i); err != nil {
			return err
		}
		webui.Load(st, fl)
		return nil
	}
}

// middleReply is the id of the first llm node from the middle of the
// session on.
func middleReply(st *store.Store) string {
	nodes := st.Nodes()
	for _, n := range nodes[len(nodes)/2:] {
		if n.Role == node.RoleLLM {
			return n.ID
		}
	}
	return ""
}

// inMemory copies a session into a store that writes nothing.
func inMemory(from *store.Store) (*store.Store, error) {
	st := store.New(from.ID)
	for _, n := range from.Nodes() {
		if _, err := st.Append(n.Clone()); err != nil {
			return nil, err
		}
	}
	st.MoveHead(from.Head())
	return st, nil
}

// appended is the i-th node a benchmark appends: a tool row under ROOT, so
// that the head stays where it is and every load shows the same chain.
func appended(i int) *node.Node {
	return &node.Node{
		ID: fmt.Sprintf("bench-append-%d", i), Seq: -1, Role: node.RoleCode, Name: "noop",
		CreatedAt: node.Num("1782000000.0"), Input: node.NullV(), Output: node.Str("ok"),
		CalledBy: node.RootID, Reads: node.Arr([]node.Value{}), Metadata: &node.Obj{},
	}
}

func BenchmarkPreds(b *testing.B) {
	each(b, true, func(b *testing.B, s *stage) {
		st := s.w.Store
		for b.Loop() {
			lane.NewPreds(st)
		}
	})
}

func BenchmarkColdLoad(b *testing.B) {
	configs, err := Configs()
	if err != nil {
		b.Fatal(err)
	}
	for _, size := range Sizes {
		b.Run(fmt.Sprintf("nodes=%d", size), func(b *testing.B) {
			for _, c := range configs {
				b.Run("flags="+c.Name, func(b *testing.B) {
					dir, nodes := coldFixture(b, size)
					b.ReportAllocs()
					coldLoad(b, dir, c.Flags)
					perNode(b, nodes)
				})
			}
			b.Run("open-only", func(b *testing.B) {
				dir, nodes := coldFixture(b, size)
				b.ReportAllocs()
				openOnly(b, dir)
				perNode(b, nodes)
			})
			b.Run("read-files-only", func(b *testing.B) {
				dir, nodes := coldFixture(b, size)
				b.ReportAllocs()
				readFilesOnly(b, dir)
				perNode(b, nodes)
			})
		})
	}
}

// coldFixture returns the fixture directory of a size and its node count,
// and drops every session the benchmarks hold in memory: a cold load's
// garbage collector should not mark a fixture it never reads, which at
// 100k nodes would cost more than the load itself. A later in-memory
// benchmark loads its fixture again.
func coldFixture(b *testing.B, size int) (string, int) {
	b.Helper()
	w := workload(b, size)
	dir, nodes := w.Dir, w.Nodes
	stagesMu.Lock()
	clear(stages)
	current = 0
	stagesMu.Unlock()
	Drop(0)
	runtime.GC()
	return dir, nodes
}

// The cold-load loops are named functions so that a profile can be
// focused on the timed part (pprof -focus 'bench\.coldLoad'), away from
// the untimed fixture loading around them.

func coldLoad(b *testing.B, dir string, fl flags.Set) {
	for b.Loop() {
		st, err := openStore(dir)
		if err != nil {
			b.Fatal(err)
		}
		webui.Load(st, fl)
	}
}

func openOnly(b *testing.B, dir string) {
	for b.Loop() {
		if _, err := openStore(dir); err != nil {
			b.Fatal(err)
		}
	}
}

func readFilesOnly(b *testing.B, dir string) {
	for b.Loop() {
		if _, err := ReadFiles(dir); err != nil {
			b.Fatal(err)
		}
	}
}

// openStore is the cold load's store.Open; a fixture file it cannot use
// would make the timing meaningless, so it is an error here.
func openStore(dir string) (*store.Store, error) {
	st, err := store.Open(dir)
	if err == nil && len(st.Problems) > 0 {
		err = fmt.Errorf("%s: %v", dir, st.Problems[0])
	}
	return st, err
}
