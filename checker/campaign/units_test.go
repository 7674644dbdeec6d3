package campaign

import (
	"slices"
	"strings"
	"testing"
	"time"

	"sessiondag/checker/gen"
	"sessiondag/checker/harness"
	"sessiondag/ops"
)

func script(t *testing.T, text string) []ops.Op {
	t.Helper()
	s, err := ops.ParseString(text)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// A unit is an op with what it opens and what names the ids it creates.
func TestUnit(t *testing.T) {
	s := script(t, `user id=u1 text=a
reply
tool call=c1 name=bash args="{}" result=ok
done
manual id=f1 name=x args="{}"
exec id=e1 prompt=p reply=r
end
checkout id=u1_reply
rewind id=f1
user id=u2 text=b`)
	for _, tc := range []struct {
		at   int
		want []int
	}{
		{0, []int{0, 1, 2, 3, 7}}, // the turn, and the checkout of its reply
		{1, []int{1, 2, 3, 7}},    // the reply up to done; the checkout names u1_reply
		{4, []int{4, 5, 6, 8}},    // the run up to its end, and the rewind naming it
		{9, []int{9}},
	} {
		if got := Unit(s, tc.at); !slices.Equal(got, tc.want) {
			t.Errorf("unit of op %d (%s) = %v, want %v", tc.at+1, ops.Format(s[tc.at]), got, tc.want)
		}
	}
}

// Reduce finds the minimal script of a planted failure: a crash right after
// a retry. Whatever the session around it, the result is those ops and what
// they need, and it is valid.
func TestReduce(t *testing.T) {
	fails := func(s []ops.Op) bool {
		for i := 1; i < len(s); i++ {
			if _, ok := s[i].(ops.Crash); ok {
				if _, ok := s[i-1].(ops.Retry); ok {
					return true
				}
			}
		}
		return false
	}
	found := 0
	for seed := uint64(1); seed < 400 && found < 5; seed++ {
		s := gen.New(gen.Options{Legacy: true}).Script(gen.NewSeeded(seed), 80)
		if !fails(s) {
			continue
		}
		found++
		c := Case{Check: scriptCheck("crash-after-retry", fails), Data: harness.OffAny, Script: s}
		f, err := c.Play("")
		if err != nil || f == nil {
			t.Fatalf("seed %d: the planted check does not fail (%v)", seed, err)
		}
		red := Reduce(c, f, "")
		r := red.Case.Script
		if !red.Reproduced || !fails(r) || !Valid(r) {
			t.Fatalf("seed %d: the reduced script does not fail or is not valid:\n%s", seed, ops.String(r))
		}
		// A retry needs a user turn before it: user, retry, crash, and the
		// reply the retry needs when the rerun writes a row. A retry of an
		// ask row keeps the runs the ask was asked in (deleting a run takes
		// what it holds with it).
		if len(r) > 5 && !strings.Contains(ops.String(r), "\nask ") {
			t.Errorf("seed %d: reduced to %d ops:\n%s", seed, len(r), ops.String(r))
		}
		if !strings.Contains(ops.String(r), "retry") {
			t.Errorf("seed %d: the retry is gone:\n%s", seed, ops.String(r))
		}
	}
	if found == 0 {
		t.Fatal("no generated script has a crash after a retry")
	}
}

// scriptCheck is a check that fails when fails holds of the script so far.
func scriptCheck(name string, fails func([]ops.Op) bool) harness.Check {
	return harness.Check{Name: name, Prop: "test", Doc: "planted", Data: harness.DataKinds,
		Run: func(s *harness.Session) *harness.Finding {
			if fails(s.Script) {
				return &harness.Finding{What: name}
			}
			return nil
		}}
}

// TestReduceByStopsAtItsDeadline: with its deadline past, a reduction
// plays the case found once and keeps it, still failing; without one the
// same case gets smaller (so the test can fail).
func TestReduceByStopsAtItsDeadline(t *testing.T) {
	s := script(t, "user id=u1 text=a\nreply\ndone\nuser id=u2 text=b\nreply\ndone\nretry of=u2 id=u3\ncrash\nreload")
	planted := scriptCheck("crash-after-retry", func(s []ops.Op) bool {
		return strings.Contains(ops.String(s), "retry of=u2 id=u3\ncrash")
	})
	c := Case{Check: planted, Data: harness.OffAny, Script: s}
	f, err := c.Play("")
	if err != nil || f == nil {
		t.Fatalf("the planted check does not fail (%v)", err)
	}
	late := ReduceBy(c, f, "", time.Now().Add(-time.Second))
	if late.Plays != 1 || len(late.Case.Script) != f.Step || !late.Reproduced {
		t.Fatalf("past its deadline: %d plays, %d ops, reproduced %v; want 1 play of the %d ops found", late.Plays, len(late.Case.Script), late.Reproduced, f.Step)
	}
	if full := Reduce(c, f, ""); len(full.Case.Script) >= f.Step {
		t.Fatalf("without a deadline the case stays at %d ops", len(full.Case.Script))
	}
}
