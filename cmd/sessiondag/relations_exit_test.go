package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"sessiondag/internal/verdict"
)

// TestExitIsTheVerdict: in every mode the command exits with the code of
// the verdict it prints — audit as text, -v, --json and --html (the page's
// title too), each shard with --shard i/n as text and --json, summary of
// every shard and of all but one, as text and --json — and that verdict is
// the one docs/rollout.md §8.5 gives the run's counts: a whole run fails
// with a broken session, a violation or a regression, else is undecided
// when a directory could not be read, else passes; a shard fails with a
// finding in it, else passes (the merge decides); a merge of every shard
// is the whole run; a merge that lacks one fails with a finding in what it
// holds, else is undecided.
func TestExitIsTheVerdict(t *testing.T) {
	seen := reach{}
	defer seen.log(t)
	rapid.Check(t, func(t *rapid.T) {
		f := drawFixture(t, shape{most: 5, extras: true, exceptions: true})
		whole := stated(t, cli(f.with("--json")...))
		want := verdict.Pass
		switch {
		case whole.findings:
			want = verdict.Fail
		case f.spec.Loop:
			want = verdict.Undecided
		}
		seen.add("whole run "+want.String(), true)
		if whole.outcome != want {
			t.Fatalf("the whole run's verdict is %v, its counts say %v\n%s", whole.outcome, want, whole.r)
		}
		page := filepath.Join(f.scratch, "page.html")
		for _, mode := range [][]string{{}, {"-v"}, {"--html", page}} {
			if s := stated(t, cli(f.with(mode...)...)); s.outcome != want {
				t.Fatalf("%v: verdict %v, want %v\n%s", mode, s.outcome, want, s.r)
			}
		}
		b, err := os.ReadFile(page)
		must(t, err, whole.r)
		if pr, err := readPage(string(b)); err != nil || pr.Counts.Verdict != whole.line {
			t.Fatalf("the page says %q, the run %q (%v)", pr.Counts.Verdict, whole.line, err)
		}

		n := rapid.IntRange(2, 4).Draw(t, "shards")
		var parts []string
		var partFindings []bool
		for i := range n {
			s := fmt.Sprintf("%d/%d", i, n)
			js, text := stated(t, cli(f.with("--json", "--shard", s)...)), stated(t, cli(f.with("--shard", s)...))
			for _, st := range []statement{js, text} {
				want := verdict.Pass
				switch {
				case js.findings:
					want = verdict.Fail
				case f.spec.Loop:
					want = verdict.Undecided // every shard walks the whole tree
				}
				if st.outcome != want {
					t.Fatalf("shard %s: verdict %v, want %v\n%s", s, st.outcome, want, st.r)
				}
			}
			seen.add("a shard with a finding", js.findings)
			parts = append(parts, f.save(t, fmt.Sprintf("exit-part%d.jsonl", i), js.r.out))
			partFindings = append(partFindings, js.findings)
		}
		for _, json := range []bool{false, true} {
			args := []string{"summary"}
			if json {
				args = append(args, "--json")
			}
			if s := stated(t, cli(append(args, parts...)...)); s.outcome != want {
				t.Fatalf("the merge of every shard: verdict %v, want %v\n%s", s.outcome, want, s.r)
			}
			drop := rapid.IntRange(0, n-1).Draw(t, "shard left out")
			rest, found := []string{}, false
			for i, p := range parts {
				if i != drop {
					rest, found = append(rest, p), found || partFindings[i]
				}
			}
			wantPart := map[bool]verdict.Outcome{true: verdict.Fail, false: verdict.Undecided}[found]
			if s := stated(t, cli(append(args, rest...)...)); s.outcome != wantPart {
				t.Fatalf("a merge without shard %d: verdict %v, want %v\n%s", drop, s.outcome, wantPart, s.r)
			}
		}
	})
}

// statement is the verdict a run printed, checked against its exit code.
type statement struct {
	r        result
	outcome  verdict.Outcome
	line     string
	findings bool // (JSON) its counts hold a broken session, a violation or a regression
}

// stated reads the verdict a run printed — the JSON summary record's, or
// the text's last line — and fails the case when the exit code is not
// that verdict's.
func stated(t *rapid.T, r result) statement {
	t.Helper()
	s := statement{r: r}
	if j, err := parseJSON(r.out); err == nil {
		s.outcome, s.line = j.Verdict.Outcome, j.Verdict.Line()
		s.findings = j.Summary.Broken+j.Summary.Violations+j.Summary.Regressions > 0
	} else {
		ls := lines(r.out)
		s.line = ls[len(ls)-1]
		word, ok := strings.CutPrefix(s.line, "verdict: ")
		if !ok {
			t.Fatalf("no verdict line\n%s", r)
		}
		word, _, _ = strings.Cut(word, ":")
		var perr error
		if s.outcome, perr = verdict.Parse(strings.ToLower(word)); perr != nil {
			t.Fatalf("%v\n%s", perr, r)
		}
	}
	// The exit codes as docs/rollout.md §6 states them.
	if want := map[verdict.Outcome]int{verdict.Pass: 0, verdict.Fail: 1, verdict.Undecided: 3}[s.outcome]; r.code != want {
		t.Fatalf("exit %d, but the verdict printed is %v (exit %d)\n%s", r.code, s.outcome, want, r)
	}
	return s
}
