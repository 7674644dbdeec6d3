package harness

import (
	"strings"
	"testing"

	"sessiondag/model"
)

// view builds a projected view from a compact spec: "h:a b* c[t1,t2]" is head
// h, chain a, b (a card), c (calls t1 and t2).
func view(spec string) model.TargetView {
	head, rows, _ := strings.Cut(spec, ":")
	v := model.TargetView{HeadID: head, Chain: []model.TargetRow{}}
	for _, f := range strings.Fields(rows) {
		r := model.TargetRow{Kind: "row"}
		if id, calls, ok := strings.Cut(f, "["); ok {
			f = id
			r.Calls = strings.Split(strings.TrimSuffix(calls, "]"), ",")
		}
		if strings.HasSuffix(f, "*") {
			f, r.Kind = strings.TrimSuffix(f, "*"), "card"
		}
		r.ID = f
		v.Chain = append(v.Chain, r)
	}
	return v
}

func TestViewGap(t *testing.T) {
	want := view("c:a b c[t1]")
	for _, tc := range []struct {
		name, got string
		gap       Gap
	}{
		{"exact", "c:a b c[t1]", Gap{}},
		{"a row missing", "c:a c[t1]", Gap{Missing: 1}},
		{"a row of another branch", "c:a x b c[t1]", Gap{Wrong: 1}},
		{"a call not folded", "c:a b c", Gap{Wrong: 1}},
		{"shown as a card", "c:a b* c[t1]", Gap{Wrong: 1}},
		{"out of order", "c:b a c[t1]", Gap{Wrong: 1}},
		{"wrong head", "b:a b c[t1]", Gap{Wrong: 1}},
		{"everything missing", "c:", Gap{Missing: 3}},
		{"missing and wrong", "x:a x", Gap{Missing: 2, Wrong: 2}},
	} {
		if g := ViewGap(view(tc.got), want); g != tc.gap {
			t.Errorf("%s: gap %s, want %s", tc.name, g, tc.gap)
		}
	}
}

// The rollout verdict, including the cases where it is subtle: data written
// with the flags on must come strictly closer (fewer missing first, then
// fewer wrong); data written before the rollout is held to "no intended row
// lost, no intended row shown right before shown wrong after".
func TestIsFix(t *testing.T) {
	want := view("d:u1 r1[t1] u2 r2")
	for _, tc := range []struct {
		name          string
		before, after string
		strict, fix   bool
	}{
		{"strict: the missing rows appear", "d:u2 r2", "d:u1 r1[t1] u2 r2", true, true},
		{"strict: fewer missing outweighs more wrong", "d:r2", "d:x y u2 r2", true, true},
		{"strict: as many missing, fewer wrong", "d:x u2 r2", "d:u2 r2", true, true},
		{"strict: as many missing and wrong, other rows", "d:x u2 r2", "d:y u2 r2", true, false},
		{"strict: a row lost", "d:u1 r1[t1] u2 r2", "d:u2 r2", true, false},
		{"strict: rows reordered", "d:u1 r1[t1] u2 r2", "d:r1[t1] u1 u2 r2", true, false},
		{"strict: a call unfolded", "d:u1 r1[t1] u2 r2", "d:u1 r1 u2 r2", true, false},
		{"legacy: a user message hidden", "d:u1 r1[t1] u2 r2", "d:r1[t1] u2 r2", false, false},
		{"legacy: a hidden row shown, another branch glued on", "d:u2 r2", "d:x u1 r1[t1] u2 r2", false, true},
		{"legacy: as many missing, a wrong row added", "d:u2 r2", "d:x u2 r2", false, true},
		{"legacy: as many missing, a right row shown wrong", "d:u1 r1[t1] r2", "d:u1 r1 r2", false, false},
		{"legacy: one missing less, a right row now wrong", "d:u1 r1[t1]", "d:u1 r1 u2 r2", false, true},
	} {
		if got := IsFix(view(tc.before), view(tc.after), want, tc.strict); got != tc.fix {
			t.Errorf("%s: IsFix = %v, want %v (gaps %s → %s)", tc.name, got, tc.fix,
				ViewGap(view(tc.before), want), ViewGap(view(tc.after), want))
		}
	}
}

// Neutral changes touch only rows outside the intended conversation and do
// not move the view further from it.
func TestNeutral(t *testing.T) {
	want := view("b:a b")
	for _, tc := range []struct {
		name, before, after string
		neutral             bool
	}{
		{"a wrong row exchanged for another", "b:x a b", "b:y a b", true},
		{"a wrong row shown as a card", "b:x a b", "b:x* a b", true},
		{"a wrong row dropped (closer, intended rows untouched)", "b:x a b", "b:a b", true},
		{"a wrong row added is further: not neutral", "b:x a b", "b:x y a b", false},
		{"an intended row lost", "b:x a b", "b:x b", false},
		{"intended rows reordered", "b:x a b", "b:x b a", false},
	} {
		if got := Neutral(view(tc.before), view(tc.after), want); got != tc.neutral {
			t.Errorf("%s: Neutral = %v, want %v", tc.name, got, tc.neutral)
		}
	}
}
