package robust

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"sessiondag/checker/gen"
	"sessiondag/checker/gen/rapidsrc"
	"sessiondag/impl/flags"
	"sessiondag/impl/webui"
	"sessiondag/model"
)

// tempParent makes a scratch directory for one rapid check, removed when
// the check ends; with ROBUST_KEEP=1 it is kept (and logged) for a look at
// a failing case.
func tempParent(t *rapid.T, prefix string) string {
	parent, err := os.MkdirTemp("", prefix)
	if err != nil {
		t.Fatalf("temp: %v", err)
	}
	if os.Getenv("ROBUST_KEEP") != "" {
		t.Logf("session directory kept under %s", parent)
	} else {
		t.Cleanup(func() { os.RemoveAll(parent) })
	}
	return parent
}

// TestCorruptedLoad: whatever damage a directory has, a cold load and every
// view under flags off and all terminate without a panic; each
// history/*.json file is either loaded or reported (nothing skipped
// silently); the problems are exactly the files the damage made unusable,
// each naming the file and what is wrong; and reading writes nothing.
func TestCorruptedLoad(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		parent := tempParent(t, "robust-")
		src := rapidsrc.Source{T: t}
		dir := build(t, parent, src, rapid.IntRange(1, 30).Draw(t, "ops"))
		c := New(dir, src)
		for i, n := 0, rapid.IntRange(1, 4).Draw(t, "corruptions"); i < n; i++ {
			if _, err := c.Apply(nil); err != nil {
				t.Fatalf("%v", err)
			}
		}
		t.Logf("corruptions: %v", c.Applied())
		before := snapshot(t, parent)
		s, err := readAll(t, dir)
		if err := sameSnapshot(before, snapshot(t, parent)); err != nil {
			t.Fatalf("reading wrote to the directory: %v", err)
		}
		if err != nil {
			if !documentedOpenError(dir, err) {
				t.Fatalf("open refused the directory: %v", err)
			}
			return
		}
		checkAccounted(t, dir, s)
		checkProblems(t, s, withHead(t, dir, s, c.Unusable()))
	})
}

// TestColdMatchesModel: for damage both readers treat alike (ModelKinds),
// the implementation's cold load shows the same views as the independent
// model reader.
func TestColdMatchesModel(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		parent := tempParent(t, "robust-model-")
		src := rapidsrc.Source{T: t}
		dir := build(t, parent, src, rapid.IntRange(1, 30).Draw(t, "ops"))
		c := New(dir, src)
		c.ForModel = true
		for i, n := 0, rapid.IntRange(0, 3).Draw(t, "corruptions"); i < n; i++ {
			if _, err := c.Apply(ModelKinds); err != nil {
				t.Fatalf("%v", err)
			}
		}
		s, err := readAll(t, dir)
		if err != nil {
			// Both files gone (missing-meta and missing-history): no
			// session for either reader.
			if !documentedOpenError(dir, err) {
				t.Fatalf("open: %v", err)
			}
			if _, merr := model.ReadSessionDir(dir); merr == nil {
				t.Fatalf("the implementation refuses the directory (%v), the model reads it", err)
			}
			return
		}
		ms, err := model.ReadSessionDir(dir)
		if err != nil {
			t.Fatalf("the model cannot read it: %v (corruptions %v)", err, c.Applied())
		}
		if d := viewDiff(model.LegacyView(ms), webui.Views(s, flags.Off)); d != "" {
			t.Fatalf("corruptions %v: the cold load differs from the model's reading at %s", c.Applied(), d)
		}
	})
}

// TestSeededCorruptionIsDeterministic: the same seed damages a copy of the
// same directory the same way.
func TestSeededCorruptionIsDeterministic(t *testing.T) {
	root := t.TempDir()
	base := build(t, filepath.Join(root, "base"), gen.NewSeeded(11), 25)
	var first map[string]fileState
	var firstApplied []Applied
	for i := 0; i < 2; i++ {
		dir := filepath.Join(root, fmt.Sprint(i), "s")
		if err := CopyDir(dir, base); err != nil {
			t.Fatal(err)
		}
		applied, err := Corrupt(dir, gen.NewSeeded(99), nil, 6)
		if err != nil {
			t.Fatal(err)
		}
		snap := map[string]fileState{}
		for k, v := range snapshot(t, dir) {
			rel, _ := filepath.Rel(dir, k)
			v.mtime = time.Time{}
			v.link = strings.ReplaceAll(v.link, filepath.Dir(dir), "<parent>")
			snap[rel] = v
		}
		if i == 0 {
			first, firstApplied = snap, applied
			continue
		}
		if fmt.Sprint(applied) != fmt.Sprint(firstApplied) {
			t.Fatalf("applied %v, then %v", firstApplied, applied)
		}
		if err := sameSnapshot(first, snap); err != nil {
			t.Fatalf("two runs of one seed differ: %v", err)
		}
	}
}

// TestRemovedMetaIsNoProblem: meta.json broken and then removed leaves a
// session without meta.json, which is no problem; the damage's own account
// must say so (TestCorruptedLoad once failed on this sequence, seed
// 13043281921018774115).
func TestRemovedMetaIsNoProblem(t *testing.T) {
	dir := build(t, t.TempDir(), gen.NewSeeded(3), 5)
	c := New(dir, gen.NewSeeded(1))
	for _, k := range []Kind{BrokenMeta, MissingMeta} {
		if _, err := c.ApplyKind(k); err != nil {
			t.Fatalf("%s: %v", k, err)
		}
	}
	if u := c.Unusable(); len(u) != 0 {
		t.Fatalf("after broken-meta, missing-meta: unusable %v, want none", u)
	}
	s, err := readAll(t, dir)
	if err != nil {
		t.Fatal(err)
	}
	checkProblems(t, s, c.Unusable())
}
