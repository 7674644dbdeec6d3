package gen

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"sessiondag/ops"
)

// TestHoldsNamesEachOp: the names of hand-written scripts, one op or a
// few, as DrawKinds and Variants document them; the state decides an
// orphan's and a rewind's.
func TestHoldsNamesEachOp(t *testing.T) {
	cases := []struct{ script, want string }{
		{"user id=u1 text=hi", "user"},
		{"user id=u1 text=hi form=image", "user user-form user-image"},
		{"user id=u1 text=hi form=function", "user user-form user-function"},
		{"dispatch id=d1 text=hi rooted", "dispatch rooted"},
		{"dispatch id=d1 text=hi parent=c1 source=task_followup", "followup"},
		{"fork-root id=d1 text=hi", "fork-root"},
		{"user id=u1 text=hi\nreply\ntool call=c1 name=bash args=\"{}\" result=ok legacy object\ndone", "user reply done tool-legacy object"},
		{"manual id=f1 name=f args=\"{}\"\nexec id=x1 prompt=p reply=r\nfn id=f2 name=g args=\"{}\" via-exec\nend\nend duration=2",
			"end exec fn-via-exec manual end-duration"},
		{"legacy-reply id=a1 text=t parent=u1 blocks", "legacy-reply reply-blocks"},
		{"orphan id=o1 name=bash caller=gone", "orphan"},
		{"orphan id=o1 name=bash caller=u1_reply\nuser id=u1 text=hi\nreply", "user reply orphan-later"},
		{"user id=u1 text=hi\nrewind id=u1", "user rewind"},
		{"user id=u1 text=hi\nreply\ntool call=c1 name=bash args=\"{}\" result=ok\ndone\nrewind id=u1_reply", "user reply done tool rewind-cached"},
		{"session id=s\nflag set=A\nwriter name=w2 set=A\nclock at=5", "flag writer clock"},
	}
	for _, c := range cases {
		script, err := ops.ParseString(c.script)
		if err != nil {
			t.Fatal(err)
		}
		f := Follow(script, 0)
		if f.Err != nil {
			t.Errorf("%q: %v", c.script, f.Err)
		}
		want := strings.Fields(c.want)
		slices.SortFunc(want, byName)
		if got := f.Holds; !slices.Equal(got, want) {
			t.Errorf("%q holds %v, want %v", c.script, got, want)
		}
	}
}

// byName orders names as Holds lists them: DrawKinds, then Variants.
func byName(a, b string) int {
	order := append(slices.Clone(DrawKinds), Variants...)
	return slices.Index(order, a) - slices.Index(order, b)
}

// TestHoldsWhatTheGeneratorDrew: a generator told to leave a draw kind or
// a variant out draws scripts that do not hold it, and without that every
// name is held by some script of the same seeds (so the test can fail). An
// orphan-later whose caller the script never writes is an orphan, a
// rewind is a rewind-cached when its row is one a load caches, whichever
// draw made them, and a retry or edit with no row to rerun draws a reload:
// those names are checked by TestHoldsNamesEachOp alone.
func TestHoldsWhatTheGeneratorDrew(t *testing.T) {
	opts := []Options{{Legacy: true}, {Legacy: true, FlagFlips: true, Rollback: true, Writers: 3}}
	seen := map[string]bool{}
	for _, name := range append(slices.Clone(DrawKinds), Variants...) {
		only, without := DrawKinds, []string(nil)
		if slices.Contains(Variants, name) {
			without = []string{name}
		} else {
			only = slices.DeleteFunc(slices.Clone(DrawKinds), func(k string) bool { return k == name })
		}
		for seed := range uint64(40) {
			for _, o := range opts {
				full := New(o).Script(NewSeeded(seed), 60)
				for _, n := range Holds(full) {
					seen[n] = true
				}
				o.Only, o.Without = only, without
				f := Follow(New(o).Script(NewSeeded(seed), 60), 0)
				if f.Err != nil {
					t.Fatalf("seed %d: %v", seed, f.Err)
				}
				if !slices.Contains([]string{"orphan", "rewind", "rewind-cached", "reload"}, name) && slices.Contains(f.Holds, name) {
					t.Fatalf("seed %d, drawn without %s: the script holds %v", seed, name, f.Holds)
				}
			}
		}
	}
	for _, n := range append(slices.Clone(DrawKinds), Variants...) {
		if !seen[n] {
			t.Errorf("no script of these seeds holds %s: the test shows nothing of it", n)
		}
	}
}

// TestFollowCountsTheGeneratorsShapes: walking a generated script through
// a fresh shadow counts the ops and shapes the generator counted drawing
// it.
func TestFollowCountsTheGeneratorsShapes(t *testing.T) {
	for seed := range uint64(100) {
		g := New(Options{Legacy: true, FlagFlips: true, Writers: 3})
		script := g.Script(NewSeeded(seed), 60)
		f := Follow(script, 0)
		if f.Tally.String() != g.Tally.String() {
			t.Fatalf("seed %d: the walk counts\n%s\nthe generator\n%s", seed, f.Tally, g.Tally)
		}
	}
}

// TestFollowEveryCorpusScript: the shadow follows every op script of the
// corpus, so what Holds says of one is read from its state, not guessed.
func TestFollowEveryCorpusScript(t *testing.T) {
	paths, err := filepath.Glob("../../corpus/ops/*/*.ops")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no corpus scripts: %v", err)
	}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		script, err := ops.ParseString(string(b))
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if f := Follow(script, 0); f.Err != nil {
			t.Errorf("%s: %v", p, f.Err)
		}
	}
}

// TestWritable: what an implementation of some op kinds can write, by the
// names of its hello.
func TestWritable(t *testing.T) {
	can := Writable([]string{"user", "reply", "done", "tool", "end"}, []string{"object", "tool-legacy"})
	for name, want := range map[string]bool{"user": true, "tool": true, "tool-legacy": false, "object": false,
		"user-form": true, "user-image": true, "end-duration": true, "rooted": false, "dispatch": false, "followup": false, "no-such": false} {
		if can(name) != want {
			t.Errorf("Writable(%s) = %v, want %v", name, !want, want)
		}
	}
	// user-form is both forms; each may be declared alone
	for _, c := range []struct {
		without, name string
		want          bool
	}{
		{"user-form", "user-image", false}, {"user-form", "user-function", false},
		{"user-function", "user-image", true}, {"user-function", "user-function", false},
	} {
		if got := Writable([]string{"user"}, []string{c.without})(c.name); got != c.want {
			t.Errorf("without %s: Writable(%s) = %v, want %v", c.without, c.name, got, c.want)
		}
	}
	if all := Writable(nil, nil); !all("rooted") || !all("orphan-later") {
		t.Error("every kind: rooted and orphan-later not writable")
	}
}
