package main

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"sessiondag/audit"
	"sessiondag/internal/verdict"
)

// TestExceptionLocality: reviewed exceptions act on the finding they name
// and on nothing else. Over a generated tree and a reviewed file drawn
// from its findings: an exception added that accepts a finding f changes
// f's step (f accepted; the step accepted once every finding of it is),
// the totals by that step's move, the exception's use — and the verdict
// only when f's step was the last regression; an expired exception added
// changes nothing but the exceptions listed (it is listed expired, never
// stale); one naming a row no step finds is listed stale. Sharded, an
// exception is stale in a shard's summary only when that shard audited its
// session, and in a merge of shards only when the merge audited its
// session or is whole (every shard once).
func TestExceptionLocality(t *testing.T) {
	seen := reach{}
	defer seen.log(t)
	rapid.Check(t, func(t *rapid.T) {
		f := drawFixture(t, shape{most: 4, extras: true, exceptions: true, regression: true})
		var fd *finding
		if all := findingsOf(f.base.Decoded); len(all) > 0 {
			fd = &all[rapid.IntRange(0, len(all)-1).Draw(t, "finding accepted")]
			f.excs = slices.DeleteFunc(f.excs, func(e audit.Exception) bool { return (finding{e.Session, e.Step, e.Row}) == *fd })
		}
		base, r := f.rerun(t)
		if len(base.Decoded) == 0 {
			t.Fatalf("no session audited\n%s", r)
		}
		if fd != nil {
			seen.add("a finding accepted", true)
			seen.add("the verdict changed", f.acceptOne(t, base, *fd))
			f.expireOne(t, base, *fd)
		}
		s := base.Decoded[rapid.IntRange(0, len(base.Decoded)-1).Draw(t, "session of a stale exception")]
		stale := []audit.Exception{
			{Session: s.ID, Step: "A → A,B", Row: "no-such-row", Reason: "stale"},
			{Session: "local_unreached", Step: "A,B → A,B,C", Row: "u1", Reason: "a session not in the tree"},
		}
		if strings.TrimSpace(s.ID) == "" {
			stale = stale[1:]
		}
		f.staleOnlyWhenWhole(t, base, stale, rapid.IntRange(2, 3).Draw(t, "shards"))
	})
}

// rerun audits the tree with the fixture's exceptions and more.
func (f *fixture) rerun(t *rapid.T, more ...audit.Exception) (jsonRun, result) {
	t.Helper()
	x, err := writeExceptions(f.scratch, append(slices.Clone(f.excs), more...))
	if err != nil {
		t.Fatalf("%v", err)
	}
	r := cli("audit", f.root, "--json", "--exceptions", x)
	j, err := parseJSON(r.out)
	must(t, err, r)
	return j, r
}

// acceptOne adds an exception accepting fd, and reports whether it
// changed the verdict.
func (f *fixture) acceptOne(t *rapid.T, base jsonRun, fd finding) bool {
	e := exceptionOf(fd, "accepted by the locality test", "")
	got, r := f.rerun(t, e)
	want := jsonRun{Sessions: slices.Clone(base.Sessions), Decoded: slices.Clone(base.Decoded), Summary: base.Summary}
	want.Summary.Exceptions = withUse(base.Summary.Exceptions, audit.ExceptionUse{Exception: e, Used: true, Seen: true})
	accepted := false
	for k, s := range want.Decoded {
		if s.ID != fd.Session {
			continue
		}
		s.Steps = slices.Clone(s.Steps)
		for i := range s.Steps {
			st := &s.Steps[i]
			if st.From+" → "+st.To != fd.Step || !slices.ContainsFunc(findingRows(*st, s.Intended), func(r audit.Row) bool { return r.ID == fd.Row }) {
				continue
			}
			st.Accepted = append(slices.Clone(st.Accepted), audit.Acceptance{Row: e.Row, Reason: e.Reason})
			if st.Verdict == audit.Regression && everyFindingAccepted(*st, s.Intended) {
				st.Verdict, accepted = audit.Accepted, true
				want.Summary.Regressions--
				want.Summary.Accepted++
				want.Summary.Steps = slices.Clone(want.Summary.Steps)
				want.Summary.Steps[i].Regression--
				want.Summary.Steps[i].Accepted++
			}
		}
		want.Decoded[k] = s
	}
	agree(t, "the sessions after accepting "+fd.String(), want.Decoded, got.Decoded)
	agree(t, "the summary after accepting "+fd.String(), comparable(want.Summary), comparable(got.Summary))
	wantV := *base.Verdict
	if accepted && want.Summary.Regressions == 0 && want.Summary.Broken+want.Summary.Violations == 0 {
		wantV.Outcome = verdict.Pass
		if f.spec.Loop {
			wantV.Outcome = verdict.Undecided // a directory the walk could not read
		}
	}
	if got.Verdict.Outcome != wantV.Outcome || r.code != wantV.Exit() {
		t.Fatalf("accepting %s: verdict %v exit %d, want %v\n%s", fd, got.Verdict.Outcome, r.code, wantV.Outcome, r)
	}
	return wantV.Outcome != base.Verdict.Outcome
}

// everyFindingAccepted reports whether each finding of a step is accepted.
func everyFindingAccepted(st audit.Step, intended bool) bool {
	rows := findingRows(st, intended)
	for _, r := range rows {
		if !slices.ContainsFunc(st.Accepted, func(a audit.Acceptance) bool { return a.Row == r.ID }) {
			return false
		}
	}
	return len(rows) > 0
}

// expireOne adds an expired exception naming fd: nothing changes but the
// exceptions listed, where it is expired.
func (f *fixture) expireOne(t *rapid.T, base jsonRun, fd finding) {
	e := exceptionOf(fd, "accepted once", pastDay)
	got, r := f.rerun(t, e)
	want := base.Summary
	want.Exceptions = withUse(base.Summary.Exceptions, audit.ExceptionUse{Exception: e, Seen: true, Expired: true})
	agree(t, "the sessions after an expired exception for "+fd.String(), base.Sessions, got.Sessions)
	agree(t, "the summary after an expired exception for "+fd.String(), comparable(want), comparable(got.Summary))
	agree(t, "the verdict after an expired exception", *base.Verdict, *got.Verdict)
	if r.code != base.Verdict.Exit() {
		t.Fatalf("an expired exception changes the exit code\n%s", r)
	}
}

// withUse is uses with u added, in the order of their keys.
func withUse(uses []audit.ExceptionUse, u audit.ExceptionUse) []audit.ExceptionUse {
	out := append(slices.Clone(uses), u)
	key := func(u audit.ExceptionUse) string { return u.Session + "\x00" + u.Step + "\x00" + u.Row }
	slices.SortFunc(out, func(a, b audit.ExceptionUse) int { return strings.Compare(key(a), key(b)) })
	return out
}

// staleOnlyWhenWhole adds exceptions that match no finding — of a session
// the tree holds, and of one it does not — and audits the tree whole and
// in n shards: a run lists an exception stale when it is unused and
// unexpired and the run audited its session or is whole.
func (f *fixture) staleOnlyWhenWhole(t *rapid.T, base jsonRun, extra []audit.Exception, n int) {
	x, err := writeExceptions(f.scratch, append(slices.Clone(f.excs), extra...))
	if err != nil {
		t.Fatalf("%v", err)
	}
	whole := cli("audit", f.root, "--json", "--exceptions", x)
	wj, err := parseJSON(whole.out)
	must(t, err, whole)
	owner := map[string][]int{} // session id → the shards that audit it
	for k, s := range base.Decoded {
		owner[s.ID] = append(owner[s.ID], k%n)
	}
	staleIn := func(shards []int, whole bool) []string {
		var out []string
		for _, u := range wj.Summary.Exceptions {
			seen := slices.ContainsFunc(owner[u.Session], func(i int) bool { return slices.Contains(shards, i) })
			if !u.Used && !u.Expired && (seen || whole) {
				out = append(out, exceptionName(u.Session, u.Step, u.Row))
			}
		}
		slices.Sort(out)
		return out
	}
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	agree(t, "the stale exceptions of the whole run", staleIn(all, true), summaryCounts(wj.Summary, *wj.Verdict).Stale)
	var parts []string
	for i := range n {
		r := cli("audit", f.root, "--exceptions", x, "--json", "--shard", fmt.Sprintf("%d/%d", i, n))
		parts = append(parts, f.save(t, fmt.Sprintf("stale-part%d.jsonl", i), r.out))
		text := cli("audit", f.root, "--exceptions", x, "--shard", fmt.Sprintf("%d/%d", i, n))
		tr, err := parseText(text.out)
		must(t, err, text)
		agree(t, fmt.Sprintf("the stale exceptions of shard %d/%d", i, n), staleIn([]int{i}, false), tr.Counts.Stale)
	}
	drop := rapid.IntRange(0, n-1).Draw(t, "shard left out of the merge")
	var kept []int
	var files []string
	for i, p := range parts {
		if i != drop {
			kept, files = append(kept, i), append(files, p)
		}
	}
	for _, c := range []struct {
		files  []string
		shards []int
		whole  bool
	}{{parts, all, true}, {files, kept, false}} {
		r := cli(append([]string{"summary"}, c.files...)...)
		tr, err := parseText(r.out)
		must(t, err, r)
		agree(t, fmt.Sprintf("the stale exceptions of a merge of shards %v of %d", c.shards, n), staleIn(c.shards, c.whole), tr.Counts.Stale)
	}
}
