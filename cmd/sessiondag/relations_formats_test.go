package main

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"sessiondag/audit"
)

// TestAuditFormatsAgree: the text report, the JSON lines and the page of
// one run of a generated tree (with reviewed exceptions drawn from its
// findings) name the same sessions as blocking, at risk, accepted and
// broken — each read from its own form, the JSON's from its fields by
// docs/rollout.md §8 — state the same counts, the same stale exceptions
// and the same verdict, and the command exits with that verdict's code.
// The JSON summary's counts are the sum of its session records; -v lists
// every session the JSON lines hold, in their order; the page lists the
// rest as fixed or counts it as unchanged.
func TestAuditFormatsAgree(t *testing.T) {
	seen := reach{}
	defer seen.log(t)
	rapid.Check(t, func(t *rapid.T) {
		f := drawFixture(t, shape{most: 6, extras: true, exceptions: true, regression: false})
		page := filepath.Join(f.scratch, "page.html")
		text, js, html, verbose := cli(f.with()...), cli(f.with("--json")...), cli(f.with("--html", page)...), cli(f.with("-v")...)
		for _, r := range []result{js, html, verbose} {
			if r.code != text.code {
				t.Fatalf("exit %d with %v, %d without\n%s\n%s", r.code, r.args, text.code, r, text)
			}
		}
		if sameButTime(html.out) != sameButTime(text.out) {
			t.Fatalf("--html changes the text report\n%s\n%s", html, text)
		}
		jr, err := parseJSON(js.out)
		must(t, err, js)
		tr, err := parseText(text.out)
		must(t, err, text)
		vr, err := parseText(verbose.out)
		must(t, err, verbose)
		b, err := os.ReadFile(page)
		must(t, err, html)
		pr, err := readPage(string(b))
		must(t, err, html)

		want := sessionCategories(jr.Decoded)
		agree(t, "the text report's sessions", want, tr.categories())
		agree(t, "the page's sessions", want, pr.categories())
		agree(t, "the page's look list", sorted(append(append([]string(nil), want.Blocking...), want.AtRisk...)), sorted(pr.Listed))
		agree(t, "the page's heading", [2]int{len(want.Blocking), len(want.AtRisk)}, [2]int{pr.Blocking, pr.AtRisk})
		agree(t, "the sessions the text report lists", listedDirs(jr.Decoded), sorted(dirsOf(tr.Sessions)))
		agree(t, "the sessions -v lists, in order", dirsOfJSON(jr.Decoded), dirsOf(vr.Sessions))
		fixed, unchanged := fixedDirs(jr.Decoded, want)
		agree(t, "the page's fixed sessions", fixed, sorted(pr.FixedDirs))
		agree(t, "the page's fixes and unchanged", [2]int{len(fixed), unchanged}, [2]int{pr.Fixes, pr.Unchanged})

		jc := summaryCounts(jr.Summary, *jr.Verdict)
		for what, n := range map[string]int{"blocking": len(want.Blocking), "at risk": len(want.AtRisk), "accepted": len(want.Accepted),
			"broken": len(want.Broken), "stale": len(jc.Stale), "expired": len(jc.Expired), "unreadable": jc.Unreadable} {
			seen.add(what, n > 0)
		}
		agree(t, "the JSON summary's counts and its session records", recordCounts(jr.Decoded), totalsOf(jc))
		agree(t, "the text report's counts", jc, tr.Counts)
		agree(t, "the -v report's counts", jc, vr.Counts)
		pc := jc
		pc.Expired, pc.ExceptionsUsed, pc.ExceptionsListed, pc.Unreadable = nil, 0, 0, 0 // the page does not say
		agree(t, "the page's counts", pc, pr.Counts)
		if want := jr.Verdict.Exit(); text.code != want {
			t.Fatalf("exit %d, but the verdict %q is exit %d\n%s", text.code, jr.Verdict.Line(), want, text)
		}
	})
}

// must stops the case on a parse error, showing the run.
func must(t *rapid.T, err error, r result) {
	t.Helper()
	if err != nil {
		t.Fatalf("%v\n%s", err, r)
	}
}

// agree fails the case when two readings differ.
func agree[V any](t *rapid.T, what string, want, got V) {
	t.Helper()
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("%s differ (-want +got):\n%s", what, d)
	}
}

func sorted(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return out
}

func dirsOf(ss []textSession) []string {
	var out []string
	for _, s := range ss {
		out = append(out, s.Dir)
	}
	return out
}

func dirsOfJSON(ss []audit.Session) []string {
	var out []string
	for _, s := range ss {
		out = append(out, s.Dir)
	}
	return out
}

// listedDirs are the sessions the text report lists without -v: those
// with a finding, a user's message a step hides or moves, or a finding a
// reviewed exception accepts.
func listedDirs(ss []audit.Session) []string {
	var out []string
	for _, s := range ss {
		listed := s.Error != "" || len(s.Unreadable) > 0 || len(s.Violations) > 0
		for _, st := range s.Steps {
			listed = listed || st.Verdict == audit.Regression || len(st.Hidden) > 0 || len(st.Moved) > 0 || len(st.Accepted) > 0
		}
		if listed {
			out = append(out, s.Dir)
		}
	}
	slices.Sort(out)
	return out
}

// fixedDirs are the sessions neither blocking nor at risk that a step
// changes (the page lists them as fixed), and how many no step changes.
func fixedDirs(ss []audit.Session, c categories) ([]string, int) {
	var fixed []string
	unchanged := 0
	for _, s := range ss {
		switch {
		case slices.Contains(c.Blocking, s.Dir) || slices.Contains(c.AtRisk, s.Dir):
		case changed(s):
			fixed = append(fixed, s.Dir)
		default:
			unchanged++
		}
	}
	slices.Sort(fixed)
	return fixed, unchanged
}

// totals are the counts a summary adds up from its sessions.
type totals struct {
	Sessions, Nodes, Intended, Broken, Violations, Regressions, Accepted, Hidden, Moved int
}

func totalsOf(c counts) totals {
	return totals{c.Sessions, c.Nodes, c.Intended, c.Broken, c.Violations, c.Regressions, c.Accepted, c.Hidden, c.Moved}
}

// recordCounts adds up the session records.
func recordCounts(ss []audit.Session) totals {
	var c totals
	for _, s := range ss {
		c.Sessions++
		c.Nodes += s.Nodes
		c.Violations += len(s.Violations)
		if s.Intended {
			c.Intended++
		}
		if s.Error != "" || len(s.Unreadable) > 0 {
			c.Broken++
		}
		hides, moves := false, false
		for _, st := range s.Steps {
			switch st.Verdict {
			case audit.Regression:
				c.Regressions++
			case audit.Accepted:
				c.Accepted++
			}
			hides, moves = hides || len(st.Hidden) > 0, moves || len(st.Moved) > 0
		}
		if hides {
			c.Hidden++
		}
		if moves {
			c.Moved++
		}
	}
	return c
}
