package audit

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"sessiondag/checker/driver"
	"sessiondag/checker/gen"
	"sessiondag/impl/flags"
	"sessiondag/impl/store"
	"sessiondag/impl/webui"
)

// clicked is what a user brings on screen by clicking, as the web UI
// offers it: from the chain at the stored head, every sibling arrow of
// every chain row (prev_sibling_id, next_sibling_id: a load at that head),
// and every tip of the branch list, again and again until nothing new
// shows. It loads the session once per head, so it is the reference the
// navigation model (linear) is checked against.
func clicked(st *store.Store, fl flags.Set, tips []string) map[string]bool {
	rows := map[string]bool{}
	loaded := map[string]bool{}
	queue := []string{st.Head()}
	queue = append(queue, tips...)
	for len(queue) > 0 {
		head := queue[0]
		queue = queue[1:]
		if loaded[head] {
			continue
		}
		loaded[head] = true
		at := st.AtPersistedHead()
		at.MoveHead(head)
		l := webui.Load(at, fl)
		for id := range shownBy(l) {
			rows[id] = true
		}
		for _, m := range l.Chain {
			for _, k := range []string{"prev_sibling_id", "next_sibling_id"} {
				if v := m.Get(k).Str(); v != "" && !loaded[v] {
					queue = append(queue, v)
				}
			}
		}
	}
	return rows
}

// TestNavigationMatchesClicks: the rows the navigation model says a user
// reaches are exactly the rows the loads at every head the arrows and the
// branch list lead to show (a row outside the conversation counted as the
// conversation row it belongs to), under every config whose chain walks the
// predecessors — on generated sessions with and without legacy rows, the
// sessions the original itself wrote (corpus/conformance). The reference
// loads once per head, so the default is a few sessions;
// SESSIONDAG_NAV_SEEDS=N checks N generated seeds and the whole corpus.
func TestNavigationMatchesClicks(t *testing.T) {
	seeds, roots := 4, []string{filepath.Join("..", "corpus", "conformance")}
	if v := os.Getenv("SESSIONDAG_NAV_SEEDS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			t.Fatalf("SESSIONDAG_NAV_SEEDS=%q: %v", v, err)
		}
		seeds, roots = n, []string{filepath.Join("..", "corpus")}
	}
	var dirs []string
	for seed := 1; seed <= seeds; seed++ {
		for _, legacy := range []bool{false, true} {
			dir := filepath.Join(t.TempDir(), fmt.Sprintf("seed%d-legacy-%v", seed, legacy))
			script := gen.New(gen.Options{Legacy: legacy}).ScriptNodes(gen.NewSeeded(uint64(seed)), 60)
			if _, err := driver.BuildWith(script, dir, flags.Off, store.WriteOptions{NoSync: true}); err != nil {
				t.Fatal(err)
			}
			dirs = append(dirs, dir)
		}
	}
	corpus, err := Find(roots)
	if err != nil {
		t.Fatal(err)
	}
	dirs = append(dirs, corpus.Sessions...)
	for _, dir := range dirs {
		st, err := store.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, fl := range flags.Rollout {
			if !fl.Has(flags.B) {
				continue // the chain walks parent_id, and R's get_branch fallback decides it
			}
			checkNavigation(t, fmt.Sprintf("%s %s", dir, fl), st, fl)
		}
	}
}

func checkNavigation(t *testing.T, name string, st *store.Store, fl flags.Set) {
	t.Helper()
	nav := navigate(st, newAnchors(st), fl, webui.Load(st, fl))
	want := map[string]bool{}
	for id := range clicked(st, fl, nav.branchList()) {
		if h := nav.holder(id); nav.byID[h] != nil {
			want[h] = true
		}
	}
	var extra, short []string
	for id := range nav.reached {
		if !want[id] {
			extra = append(extra, id)
		}
	}
	for id := range want {
		if _, ok := nav.reached[id]; !ok {
			short = append(short, id)
		}
	}
	slices.Sort(extra)
	slices.Sort(short)
	if len(extra)+len(short) > 0 {
		t.Errorf("%s: the model reaches %v that no click shows, and misses %v", name, extra, short)
	}
}
