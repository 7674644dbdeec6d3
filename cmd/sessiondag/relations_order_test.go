package main

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"sessiondag/audit"
)

// TestAuditOrderInvariance: the same sessions in another order or layout
// give the same audit. The roots named on the command line — the tree,
// its folders, its sessions, some twice — in a drawn list and in another
// order of that list give the same JSON lines and text report (times
// aside) and exit code; and the same sessions written in other folders,
// at other depths, give the same session records, counts, exceptions,
// text blocks, verdict and exit code, each directory read as its session,
// and a residual whose examples are, in each layout, the first session in
// sorted order with that cause. (Links to sessions are left out here: a
// session reached by a link from one root and directly from another is
// named by the path the walk takes first.)
func TestAuditOrderInvariance(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		f := drawFixture(t, shape{most: 5, extras: false, exceptions: false, regression: false})
		cands := append([]string{f.root}, f.tops...)
		for i := range f.spec.Sessions {
			cands = append(cands, filepath.Join(f.root, f.spec.place(i)))
		}
		roots := rapid.SliceOfN(rapid.SampledFrom(cands), 1, 4).Draw(t, "roots")
		other := rapid.Permutation(roots).Draw(t, "roots in another order")
		for _, json := range []string{"--json", "-v"} {
			a, b := cli(append([]string{"audit", json}, roots...)...), cli(append([]string{"audit", json}, other...)...)
			if a.code == 2 || b.code == 2 {
				t.Fatalf("roots that hold sessions refused\n%s\n%s", a, b)
			}
			agree(t, "the exit code with the roots in another order", a.code, b.code)
			agree(t, "the output with the roots in another order", lines(sameButTime(a.out)), lines(sameButTime(b.out)))
		}

		moved := filepath.Join(f.scratch, "elsewhere")
		shift := rapid.IntRange(1, 2).Draw(t, "folders shifted")
		deep := rapid.Bool().Draw(t, "one level deeper")
		at := func(i int) string {
			dir := fmt.Sprintf("g%d", (f.spec.Sessions[i].Folder+shift)%3)
			if deep {
				dir = filepath.Join(dir, "x")
			}
			return filepath.Join(dir, leaf(i))
		}
		if _, err := f.spec.write(moved, at); err != nil {
			t.Fatalf("writing the tree again: %v", err)
		}
		f.sameInLayouts(t, moved, at)
	})
}

// sameInLayouts compares the audit of the fixture's tree with that of the
// same sessions written below other at at(i).
func (f *fixture) sameInLayouts(t *rapid.T, other string, at func(int) string) {
	one, two := cli("audit", "--json", f.root), cli("audit", "--json", other)
	if one.code != two.code {
		t.Fatalf("exit %d in one layout, %d in another\n%s\n%s", one.code, two.code, one, two)
	}
	ja, err := parseJSON(one.out)
	must(t, err, one)
	jb, err := parseJSON(two.out)
	must(t, err, two)
	agree(t, "the sessions' records", f.byLeaf(t, ja, f.root, f.spec.place), f.byLeaf(t, jb, other, at))
	checkExamples(t, ja)
	checkExamples(t, jb)
	agree(t, "the summary", withoutExamples(ja.Summary), withoutExamples(jb.Summary))
	agree(t, "the verdict", *ja.Verdict, *jb.Verdict)

	ta, tb := cli("audit", f.root), cli("audit", other)
	ra, err := parseText(ta.out)
	must(t, err, ta)
	rb, err := parseText(tb.out)
	must(t, err, tb)
	for _, r := range []textReport{ra, rb} {
		if !slices.IsSorted(dirsOf(r.Sessions)) {
			t.Fatalf("sessions listed out of order: %q", dirsOf(r.Sessions))
		}
	}
	agree(t, "the text blocks", f.blocksByLeaf(ra, f.root, f.spec.place), f.blocksByLeaf(rb, other, at))
	agree(t, "the text summary", withoutExampleLines(sameButTime(ra.Summary)), withoutExampleLines(sameButTime(rb.Summary)))
}

// byLeaf are the session records by session, each with its directory
// written as "DIR" and the tree's root as "ROOT".
func (f *fixture) byLeaf(t *rapid.T, j jsonRun, root string, at func(int) string) map[string]string {
	out := map[string]string{}
	for k, s := range j.Decoded {
		i := f.sessionAt(root, at, s.Dir)
		if i < 0 {
			t.Fatalf("%s is no session of the tree", s.Dir)
		}
		out[leaf(i)] = placeless(j.Sessions[k], s.Dir, root)
	}
	return out
}

// blocksByLeaf are the text report's session blocks by session, with the
// directory as "DIR".
func (f *fixture) blocksByLeaf(r textReport, root string, at func(int) string) map[string]string {
	out := map[string]string{}
	for _, s := range r.Sessions {
		out[leaf(f.sessionAt(root, at, s.Dir))] = placeless(s.Block, s.Dir, root)
	}
	return out
}

// placeless is text of the session at dir with dir written "DIR", its
// folder "FOLDER" (a link leaving the session names a file there) and the
// tree's root "ROOT".
func placeless(text, dir, root string) string {
	text = strings.ReplaceAll(text, dir, "DIR")
	text = strings.ReplaceAll(text, filepath.Dir(dir), "FOLDER")
	return strings.ReplaceAll(text, root, "ROOT")
}

// sessionAt is the session written at dir, or -1.
func (f *fixture) sessionAt(root string, at func(int) string, dir string) int {
	for i := range f.spec.Sessions {
		if filepath.Join(root, at(i)) == dir {
			return i
		}
	}
	return -1
}

// checkExamples holds each residual cause's example to its rule: the
// first session in sorted order whose residual has the cause, and its
// first row of that cause.
func checkExamples(t *rapid.T, j jsonRun) {
	t.Helper()
	for _, group := range []struct {
		intended bool
		causes   []audit.CauseTotal
	}{{true, j.Summary.Residual.Intended}, {false, j.Summary.Residual.Unshown}} {
		for _, c := range group.causes {
			want := ""
			for _, s := range j.Decoded { // in sorted order
				if s.Intended != group.intended {
					continue
				}
				if i := slices.IndexFunc(s.Residual, func(r audit.Residue) bool { return r.Cause == c.Cause }); i >= 0 {
					want = s.Dir + " " + s.Residual[i].Row.ID
					break
				}
			}
			if got := c.Example + " " + c.ExampleRow; got != want {
				t.Fatalf("cause %s: example %q, want %q", c.Cause, got, want)
			}
		}
	}
}

func withoutExamples(sum audit.Summary) audit.Summary {
	sum.Seconds = 0
	for _, l := range []*[]audit.CauseTotal{&sum.Residual.Intended, &sum.Residual.Unshown} {
		*l = slices.Clone(*l)
		for i := range *l {
			(*l)[i].Example, (*l)[i].ExampleRow, (*l)[i].ExampleBy = "", "", ""
		}
	}
	// The sessions outside the proof are named by their directories: by
	// their leaves here, which every layout keeps, in the leaves' order.
	sum.Proof.Outside = slices.Clone(sum.Proof.Outside)
	for i := range sum.Proof.Outside {
		sum.Proof.Outside[i].Dir = filepath.Base(sum.Proof.Outside[i].Dir)
	}
	slices.SortFunc(sum.Proof.Outside, func(a, b audit.Outside) int { return strings.Compare(a.Dir, b.Dir) })
	return sum
}

// withoutExampleLines is a text summary without its "e.g." lines, and
// the sessions outside the proof named by their leaves (which every layout
// keeps), in the leaves' order.
func withoutExampleLines(text string) []string {
	var out []string
	outside := -1 // where the outside list starts in out, while in it
	for _, l := range lines(text) {
		switch {
		case strings.HasPrefix(strings.TrimSpace(l), "e.g. "):
			continue
		case strings.HasPrefix(l, "outside: "):
			outside = len(out) + 1
		case outside >= 0 && strings.HasPrefix(l, "  /"):
			dir, why, _ := strings.Cut(strings.TrimSpace(l), ": ")
			l = "  " + filepath.Base(dir) + ": " + why
		case outside >= 0:
			slices.Sort(out[outside:])
			outside = -1
		}
		out = append(out, l)
	}
	if outside >= 0 {
		slices.Sort(out[outside:])
	}
	return out
}
