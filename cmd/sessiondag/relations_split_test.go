package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"sessiondag/audit"
	"sessiondag/internal/verdict"
)

// TestAuditSplitInvariance: a generated tree (with reviewed exceptions
// drawn from its findings) audited whole and as n shards, for n drawn from
// 2 to 5. The shards' session records and listed session blocks are the
// whole run's, each once; their JSON lines merged by `sessiondag summary`
// in a drawn grouping and order — summaries of parts, of summaries, of
// summaries of summaries, files concatenated — give the whole run's
// summary: every count, exception use and stale exception, the residual,
// the text summary, the verdict and the exit code. Every grouping on the
// way that lacks a part, and a last one that lacks one or holds one
// twice, says so and is never a pass: undecided, or fail when the parts
// it holds have a finding.
func TestAuditSplitInvariance(t *testing.T) {
	seen := reach{}
	defer seen.log(t)
	rapid.Check(t, func(t *rapid.T) {
		f := drawFixture(t, shape{most: 6, extras: true, exceptions: true, regression: false})
		whole, wholeText := cli(f.with("--json")...), cli(f.with()...)
		wj, err := parseJSON(whole.out)
		must(t, err, whole)
		wt, err := parseText(wholeText.out)
		must(t, err, wholeText)

		seen.add("a finding", wj.Summary.Broken+wj.Summary.Violations+wj.Summary.Regressions > 0)
		seen.add("an accepted step", wj.Summary.Accepted > 0)
		seen.add("a stale exception", len(summaryCounts(wj.Summary, *wj.Verdict).Stale) > 0)
		seen.add("a note", len(wj.Summary.TreeNotes) > 0)
		n := rapid.IntRange(2, 5).Draw(t, "shards")
		var parts []string
		var records []string
		var blocks []textSession
		for i := range n {
			s := fmt.Sprintf("%d/%d", i, n)
			js, text := cli(f.with("--json", "--shard", s)...), cli(f.with("--shard", s)...)
			pj, err := parseJSON(js.out)
			must(t, err, js)
			pt, err := parseText(text.out)
			must(t, err, text)
			records = append(records, pj.Sessions...)
			blocks = append(blocks, pt.Sessions...)
			parts = append(parts, f.save(t, fmt.Sprintf("part%d.jsonl", i), js.out))
		}
		slices.SortFunc(blocks, func(a, b textSession) int { return strings.Compare(a.Dir, b.Dir) })
		agree(t, "the shards' session records", sortedRecords(wj), sortedRecords(jsonRun{Sessions: records}))
		agree(t, "the shards' listed sessions", wt.Sessions, blocks)

		last := f.mergeDrawn(t, parts)
		merged, mergedText := cli("summary", "--json", last), cli("summary", last)
		mj, err := parseJSON(merged.out)
		must(t, err, merged)
		if merged.code != whole.code || mergedText.code != whole.code {
			t.Fatalf("the merge exits %d and %d, the whole run %d\n%s\n%s", merged.code, mergedText.code, whole.code, merged, whole)
		}
		agree(t, "the merged summary", comparable(wj.Summary), comparable(mj.Summary))
		agree(t, "the merged verdict", *wj.Verdict, *mj.Verdict)
		agree(t, "the merged text summary", lines(sameHead(wt.Summary)), lines(sameHead(mergedText.out)))
		f.defective(t, parts, last, wj)
	})
}

// save writes text to a file of the fixture's scratch directory.
func (f *fixture) save(t *rapid.T, name, text string) string {
	t.Helper()
	p := filepath.Join(f.scratch, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatalf("%v", err)
	}
	return p
}

// mergeDrawn merges the parts' JSON lines in a drawn grouping and order
// until one file is left, checking each partial merge on the way, and
// returns that file.
func (f *fixture) mergeDrawn(t *rapid.T, parts []string) string {
	items := slices.Clone(parts)
	for step := 0; len(items) > 1; step++ {
		perm := rapid.Permutation(items).Draw(t, fmt.Sprintf("order %d", step))
		k := rapid.IntRange(1, len(perm)).Draw(t, fmt.Sprintf("group %d", step))
		group, rest := perm[:k], perm[k:]
		name := fmt.Sprintf("merge%d.jsonl", step)
		var out string
		if rapid.Bool().Draw(t, fmt.Sprintf("concatenate %d", step)) {
			for _, p := range group {
				b, err := os.ReadFile(p)
				if err != nil {
					t.Fatalf("%v", err)
				}
				out += string(b)
			}
		} else {
			r := cli(append([]string{"summary", "--json"}, group...)...)
			if len(rest) > 0 {
				notAPass(t, r)
			}
			out = r.out
		}
		items = append(rest, f.save(t, name, out))
	}
	return items[0]
}

// defective merges the whole merge with a part again, and every part but
// one: each says what is wrong and is no pass.
func (f *fixture) defective(t *rapid.T, parts []string, all string, whole jsonRun) {
	i := rapid.IntRange(0, len(parts)-1).Draw(t, "part twice")
	twice := cli("summary", all, parts[i])
	notAPass(t, twice)
	if !strings.Contains(twice.errs, "given 2 times") {
		t.Fatalf("a part merged twice is not named\n%s", twice)
	}
	j := rapid.IntRange(0, len(parts)-1).Draw(t, "part left out")
	rest := append(slices.Clone(parts[:j]), parts[j+1:]...)
	missing := cli(append([]string{"summary"}, rest...)...)
	notAPass(t, missing)
	if !strings.Contains(missing.errs, "shards missing") {
		t.Fatalf("a part left out is not named\n%s", missing)
	}
}

// notAPass checks a merge that lacks a part or holds one twice: it says
// what is wrong, on stderr and before its verdict, and its verdict is no
// pass — fail when the parts it holds have a finding, else undecided.
func notAPass(t *rapid.T, r result) {
	t.Helper()
	if !strings.Contains(r.errs, "sessiondag summary: audit: ") {
		t.Fatalf("an incomplete merge says nothing of it\n%s", r)
	}
	var sum audit.Summary
	var v verdict.Verdict
	if j, err := parseJSON(r.out); err == nil {
		sum, v = j.Summary, *j.Verdict
	} else if tr, err := parseText(r.out); err == nil {
		c := tr.Counts
		sum.Broken, sum.Violations, sum.Regressions = c.Broken, c.Violations, c.Regressions
		if len(tr.Problems) == 0 {
			t.Fatalf("an incomplete merge's text says nothing of it\n%s", r)
		}
		v.Outcome = verdict.Pass
		if word, ok := strings.CutPrefix(c.Verdict, "verdict: "); ok {
			v.Outcome, _ = verdict.Parse(strings.ToLower(strings.SplitN(word, ":", 2)[0]))
		}
	} else {
		t.Fatalf("%v\n%s", err, r)
	}
	want := verdict.Undecided
	if sum.Broken+sum.Violations+sum.Regressions > 0 {
		want = verdict.Fail
	}
	if v.Outcome != want || r.code != v.Exit() {
		t.Fatalf("an incomplete merge: verdict %v exit %d, want %v\n%s", v.Outcome, r.code, want, r)
	}
}

// comparable is a summary without what differs between one run and a
// merge of its parts: the time taken and the parts merged.
func comparable(sum audit.Summary) audit.Summary {
	sum.Seconds, sum.Shards = 0, nil
	return sum
}

// sortedRecords are the session records as printed, in directory order
// (a JSON record's first field is its directory).
func sortedRecords(j jsonRun) []string { return sorted(j.Sessions) }

// mergedRe is what the first line of a text summary says of the parts
// merged into it.
var mergedRe = regexp.MustCompile(`(, shard \d+/\d+|, \d+ shards merged)\)$`)

// sameHead is a text summary from its "audited …" line on, with the time
// and the parts merged blanked in that line.
func sameHead(text string) string {
	ls := lines(sameButTime(text))
	i := slices.IndexFunc(ls, func(l string) bool { return strings.HasPrefix(l, "audited ") })
	if i < 0 {
		return text
	}
	ls[i] = mergedRe.ReplaceAllString(ls[i], ")")
	return strings.Join(ls[i:], "\n") + "\n"
}
