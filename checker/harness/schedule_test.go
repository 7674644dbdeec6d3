package harness

import (
	"fmt"
	"testing"

	"sessiondag/impl/flags"
	"sessiondag/ops"
)

// TestScheduleSpreadsChecks: under a schedule of PerOp nodes per op, the
// checks run after every op while the session holds at most PerOp nodes,
// then spread, always after the last op; the nodes' worth they read is at
// most PerOp per op and the last op's nodes (linear in the script, where
// every op would read the sum of the sessions' sizes: quadratic).
func TestScheduleSpreadsChecks(t *testing.T) {
	sc := &Schedule{PerOp: 8}
	const ops = 400
	read, every := 0, 0
	for k := 1; k <= ops; k++ {
		nodes := k // a session that grows by a node an op
		if sc.due(nodes, k == ops) {
			read += nodes
			if k <= 8 {
				every++
			}
		} else if k <= 8 {
			t.Fatalf("op %d of a session of %d nodes not checked", k, nodes)
		} else if k == ops {
			t.Fatal("the last op not checked")
		}
	}
	if every != 8 || sc.Ops != ops {
		t.Fatalf("%d of the first 8 ops checked, %d ops counted", every, sc.Ops)
	}
	if bound := 8*ops + ops; read > bound {
		t.Errorf("the checks read %d nodes' worth, over %d", read, bound)
	}
	if sc.Checked >= ops/2 || sc.EveryOp() {
		t.Errorf("checked after %d of %d ops: not spread", sc.Checked, ops)
	}
	var none *Schedule
	if !none.due(1000, false) || !(&Schedule{}).due(1000, false) {
		t.Error("no schedule, or PerOp 0, skips an op")
	}
}

// rowsAtLeast fails once the session stores n rows or more: a failure that
// stays once it is there.
func rowsAtLeast(n int) Check {
	return Check{Name: fmt.Sprintf("rows-%d", n), Prop: "test", Doc: "fails at n rows", Data: []Data{OffAny},
		Run: func(s *Session) *Finding {
			if len(s.Load(flags.Off).All) >= n {
				return &Finding{What: fmt.Sprintf("%d rows", n)}
			}
			return nil
		}}
}

// TestScheduledPlayFindsTheFirstFailingOp: a play whose checks are spread
// finds a failure that stays once it is there at the op a play after every
// op finds it (the bisection between the op that passed and the one that
// failed), and one that shows only after the last op too.
func TestScheduledPlayFindsTheFirstFailingOp(t *testing.T) {
	var script []ops.Op
	for i := range 60 {
		script = append(script, ops.UserWeb{ID: fmt.Sprint("u", i), Text: "hi"}, ops.Reply{}, ops.Done{})
	}
	for _, n := range []int{5, 23, 61, 120} {
		c := rowsAtLeast(n)
		want, err := PlayOn(nil, OffAny, script, c)
		if err != nil || want == nil {
			t.Fatalf("%d rows: every op: %v %v", n, want, err)
		}
		sc := &Schedule{PerOp: 2}
		got, err := PlayScheduled(nil, OffAny, script, sc, c)
		if err != nil || got == nil {
			t.Fatalf("%d rows: spread: %v %v", n, got, err)
		}
		if got.Step != want.Step || got.What != want.What {
			t.Errorf("%d rows: spread found it after op %d (%s), every op after op %d (%s)", n, got.Step, got.What, want.Step, want.What)
		}
	}
	// A failure after the last op alone: the last op is always checked.
	last := Check{Name: "last-op", Prop: "test", Doc: "fails after the script's last op", Data: []Data{OffAny},
		Run: func(s *Session) *Finding {
			if len(s.Script) == len(script) {
				return &Finding{What: "the last op"}
			}
			return nil
		}}
	sc := &Schedule{PerOp: 1}
	if f, err := PlayScheduled(nil, OffAny, script, sc, last); err != nil || f == nil || f.Step != len(script) {
		t.Errorf("a failure after the last op: %v %v", f, err)
	}
	if sc.EveryOp() {
		t.Error("the schedule checked after every op: nothing was spread")
	}
}
