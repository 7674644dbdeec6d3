package audit

import (
	"fmt"
	"testing"

	"sessiondag/impl/lane"
	"sessiondag/impl/node"
	"sessiondag/impl/store"
)

// TestAnchorsAgreeWithLane: the memory changes no answer, in any order of
// asking, on chains of calls, a cycle, a cycle's tail and a dangling caller.
func TestAnchorsAgreeWithLane(t *testing.T) {
	st := store.New("s")
	add := func(id, role, calledBy string) {
		if _, err := st.Append(&node.Node{ID: id, Role: role, CalledBy: calledBy, Seq: -1}); err != nil {
			t.Fatal(err)
		}
	}
	add("u1", node.RoleUser, "")
	add("r1", node.RoleLLM, "u1")
	for i := 0; i < 100; i++ { // a nest of calls under the reply
		parent := "r1"
		if i > 0 {
			parent = fmt.Sprintf("c%d", i-1)
		}
		add(fmt.Sprintf("c%d", i), node.RoleCode, parent)
	}
	add("x0", node.RoleCode, "x2") // a cycle x0 → x2 → x1 → x0
	add("x1", node.RoleCode, "x0")
	add("x2", node.RoleCode, "x1")
	add("t0", node.RoleCode, "x1") // into the cycle
	add("d0", node.RoleCode, "gone")
	ids := []string{"c99", "c50", "c0", "r1", "u1", "x1", "t0", "x0", "x2", "d0", "gone", "", node.RootID}
	for _, order := range [][]string{ids, reverse(ids)} {
		a := newAnchors(st)
		for _, id := range order {
			if got, want := a.at(id), lane.Anchor(id, st.Get); got != want {
				t.Errorf("anchor of %q: %q, lane.Anchor says %q", id, got, want)
			}
		}
	}
}

func reverse(s []string) []string {
	r := make([]string, len(s))
	for i, v := range s {
		r[len(s)-1-i] = v
	}
	return r
}
