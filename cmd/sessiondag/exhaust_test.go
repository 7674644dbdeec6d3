package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"sessiondag/checker/exhaust"
)

// exhaustJSON runs `sessiondag exhaust --json` with args and returns the
// summary line (and checks it is the last line and the exit code).
func exhaustJSON(t *testing.T, args ...string) exhaust.Summary {
	t.Helper()
	var out, errs bytes.Buffer
	args = append([]string{"exhaust", "--json", "--workers", "1", "--out", t.TempDir()}, args...)
	if code := run(args, &out, &errs); code != 0 {
		t.Fatalf("sessiondag %v: exit %d\n%s%s", args, code, out.String(), errs.String())
	}
	var last exhaust.Record
	sc := bufio.NewScanner(&out)
	for sc.Scan() {
		last = exhaust.Record{}
		if err := json.Unmarshal(sc.Bytes(), &last); err != nil {
			t.Fatalf("not a JSON line: %q: %v", sc.Text(), err)
		}
		if last.Kind != "exhaust" {
			t.Fatalf("record of kind %q", last.Kind)
		}
	}
	if last.Summary == nil {
		t.Fatalf("the output does not end with a summary:\n%s", out.String())
	}
	return *last.Summary
}

// TestExhaustShards: `--shard i/3` for i = 0, 1, 2 check as many scripts
// in total as the unsharded run, of each length, with as many runs; the
// merged summaries are every shard once. (That no script is in two shards
// is exhaust.TestShardsPartitionTheWalk.) The whole vocabulary's 3-op walk
// has its count and no failure: 28,869 since a /spawn records the store's
// head when the web server makes its conversation then (eight 3-op scripts
// fewer than the 28,877 before: a compact after such a /spawn has its four
// rows in other cases), so a change of the vocabulary or of validity is
// seen.
func TestExhaustShards(t *testing.T) {
	if testing.Short() {
		t.Skip("checks about 30,000 scripts")
	}
	if whole := exhaustJSON(t, "--max-ops", "3"); whole.Scripts != 29401 || whole.Failures != 0 {
		t.Errorf("unsharded, every kind: %d scripts, %d failures; want 29401 and none", whole.Scripts, whole.Failures)
	}
	args := []string{"--max-ops", "4", "--kinds", "user,reply,retry,checkout,flag,tool"}
	whole := exhaustJSON(t, args...)
	var parts []exhaust.Summary
	for i := range 3 {
		parts = append(parts, exhaustJSON(t, append(args, "--shard", fmt.Sprintf("%d/3", i))...))
		if parts[i].Scripts == 0 || parts[i].Scripts*2 > whole.Scripts {
			t.Errorf("shard %d/3 checks %d of %d scripts: unbalanced", i, parts[i].Scripts, whole.Scripts)
		}
	}
	merged, complete, err := exhaust.Merge(parts)
	if err != nil || !complete {
		t.Fatalf("merge: complete %v, %v", complete, err)
	}
	if merged.Scripts != whole.Scripts || merged.Runs != whole.Runs || fmt.Sprint(merged.ByLength) != fmt.Sprint(whole.ByLength) {
		t.Errorf("shards: %d scripts %v, %d runs; unsharded: %d scripts %v, %d runs",
			merged.Scripts, merged.ByLength, merged.Runs, whole.Scripts, whole.ByLength, whole.Runs)
	}
}

// TestExhaustUsage: a bad shard or a missing size is a usage error (exit
// 2), and so is a claimant's start without claims or not a part i/n.
func TestExhaustUsage(t *testing.T) {
	for _, args := range [][]string{
		{"exhaust"},
		{"exhaust", "--max-ops", "2", "--shard", "3/3"},
		{"exhaust", "--max-ops", "2", "--shard", "1/0"},
		{"exhaust", "--max-ops", "2", "--shard", "1/2x"},
		{"exhaust", "--max-ops", "2", "--kinds", "session"},
		{"exhaust", "--max-ops", "2", "--claim-start", "1/2"},
		{"exhaust", "--max-ops", "2", "--claim", "DIR", "--claim-start", "2/2"},
	} {
		var out, errs bytes.Buffer
		if code := run(args, &out, &errs); code != 2 {
			t.Errorf("%v: exit %d, want 2\n%s", args, code, errs.String())
		}
	}
}

// TestExhaustEstimate: `--estimate` sizes the walk without checking it:
// one op below the parts the size is the count the walk makes, for the
// whole and for a shard.
func TestExhaustEstimate(t *testing.T) {
	kinds := "user,reply,retry,checkout,flag,tool"
	for _, sh := range []string{"0/1", "1/3"} {
		sum := exhaustJSON(t, "--max-ops", "4", "--kinds", kinds, "--shard", sh, "--check", "target")
		var out, errs bytes.Buffer
		if code := run([]string{"exhaust", "--max-ops", "4", "--kinds", kinds, "--shard", sh, "--estimate"}, &out, &errs); code != 0 {
			t.Fatalf("exit %d\n%s", code, errs.String())
		}
		want := fmt.Sprintf("exhaust: 4 ops: about %s scripts (±0, two standard errors) in ", thousands(sum.Scripts))
		if !strings.HasPrefix(out.String(), want) {
			t.Errorf("shard %s: %q, want it to begin %q", sh, out.String(), want)
		}
	}
}

// thousands writes n with commas between its groups of three digits.
func thousands(n int64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// TestExhaustDefaultClaimantsApart: two claimants given no name share a
// claims folder as two: each claims its parts, every part is written once
// and the parts merge complete (before, both took the host's name, claimed
// every part as their own and wrote one temporary file: one died).
func TestExhaustDefaultClaimantsApart(t *testing.T) {
	dir := t.TempDir()
	args := []string{"exhaust", "--json", "--quiet", "--workers", "1", "--max-ops", "3", "--kinds", "user,reply,retry,checkout,flag,tool",
		"--check", "target", "--claim", dir}
	codes := make([]int, 2)
	outs := make([]bytes.Buffer, 2)
	errs := make([]bytes.Buffer, 2)
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Go(func() { codes[i] = run(args, &outs[i], &errs[i]) })
	}
	wg.Wait()
	lastOf := func(out string) exhaust.Record {
		var last exhaust.Record
		for line := range strings.Lines(out) {
			if err := json.Unmarshal([]byte(line), &last); err != nil {
				t.Fatal(err)
			}
		}
		return last
	}
	names := map[string]bool{}
	var walked int64
	for i := range 2 {
		if codes[i] != 0 {
			t.Fatalf("claimant %d: exit %d\n%s", i, codes[i], errs[i].String())
		}
		last := lastOf(outs[i].String())
		names[last.Summary.Claimant] = true
		walked += last.Summary.Scripts
	}
	if len(names) != 2 {
		t.Fatalf("two default claimants took one name: %v", names)
	}
	// Each part walked by one of them: together they checked the scripts
	// one process checks, no part twice.
	var whole, stderr0 bytes.Buffer
	if code := run(args[:len(args)-2], &whole, &stderr0); code != 0 {
		t.Fatalf("one process: exit %d\n%s", code, stderr0.String())
	}
	if one := lastOf(whole.String()).Summary.Scripts; walked != one {
		t.Errorf("the two claimants checked %d scripts, one process %d: a part walked twice or not at all", walked, one)
	}
	files, err := filepath.Glob(filepath.Join(dir, "parts", "*.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var out, stderr bytes.Buffer
	if code := run(append([]string{"summary"}, files...), &out, &stderr); code != 0 {
		t.Fatalf("summary of the parts: exit %d\n%s%s", code, out.String(), stderr.String())
	}
	left, err := filepath.Glob(filepath.Join(dir, "*", ".tmp-*"))
	if err != nil || len(left) > 0 {
		t.Errorf("temporary files left: %v %v", left, err)
	}
}
