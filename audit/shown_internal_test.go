package audit

import (
	"testing"

	"sessiondag/checker/robust"
	"sessiondag/impl/flags"
	"sessiondag/impl/node"
	"sessiondag/impl/store"
	"sessiondag/impl/webui"
)

// TestShownHoldsEveryCardRow: on nested function runs, whose cards share
// their subtrees, every node of every card's tree is shown, in the first
// card of the chain holding it — the same as walking each tree in full,
// which is what walking a shared subtree once must not change.
func TestShownHoldsEveryCardRow(t *testing.T) {
	for _, name := range []string{"nested-manual", "nested-calls"} {
		tr, ok := robust.TreeNamed(name)
		if !ok {
			t.Fatalf("no tree %s", name)
		}
		dir, err := tr.Build(t.TempDir(), 40)
		if err != nil {
			t.Fatal(err)
		}
		st, err := store.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		l := webui.Load(st, flags.Off)
		want := map[string]string{}
		cards := 0
		for _, m := range l.Chain {
			if _, ok := want[m.ID]; !ok {
				want[m.ID] = m.ID
			}
			for _, c := range m.Get("tool_calls").A {
				if id := c.O.Get("tool_call_id").Str(); id != "" {
					if _, ok := want[id]; !ok {
						want[id] = m.ID
					}
				}
			}
			if !isCard(m) {
				continue
			}
			cards++
			var walk func(v node.Value)
			walk = func(v node.Value) {
				if v.K != node.Object || v.O == nil {
					return
				}
				if id := v.O.Get("path").Str(); id != "" {
					if _, ok := want[id]; !ok {
						want[id] = m.ID
					}
				}
				for _, c := range v.O.Get("children").A {
					walk(c)
				}
			}
			walk(m.Get("context_tree"))
		}
		if cards < 2 {
			t.Fatalf("%s: %d cards on the chain; the test needs nested ones", name, cards)
		}
		got := shownBy(l)
		if len(got) != len(want) {
			t.Errorf("%s: %d rows shown, walking every tree in full shows %d", name, len(got), len(want))
		}
		for id, in := range want {
			if got[id] != in {
				t.Errorf("%s: row %s shown in %q, walking every tree in full shows it in %q", name, id, got[id], in)
			}
		}
	}
}
