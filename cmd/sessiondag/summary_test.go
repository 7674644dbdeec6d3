package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// auditJSON runs `sessiondag audit --json` with extra arguments over the
// corpus and returns its output.
func auditJSON(t *testing.T, extra ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	args := append([]string{"audit", filepath.Join("..", "..", "corpus"), "--json"}, extra...)
	if code := run(args, &out, &errb); code != 0 {
		t.Fatalf("audit %v: exit %d: %s", extra, code, errb.String())
	}
	return out.String()
}

// summaryOf decodes the summary record of JSON lines, without the time it
// took and the shards it merged.
func summaryOf(t *testing.T, lines string) map[string]any {
	t.Helper()
	var found map[string]any
	for _, l := range strings.Split(strings.TrimSpace(lines), "\n") {
		var rec map[string]any
		if err := json.Unmarshal([]byte(l), &rec); err != nil {
			t.Fatalf("%q: %v", l, err)
		}
		if rec["kind"] != "audit" {
			t.Fatalf("a record without kind audit: %.200s", l)
		}
		if s, ok := rec["summary"].(map[string]any); ok {
			if found != nil {
				t.Fatal("two summary records")
			}
			delete(s, "seconds")
			delete(s, "shards")
			delete(s, "shard")
			found = s
		}
	}
	if found == nil {
		t.Fatal("no summary record")
	}
	return found
}

// TestSummaryMergesShards: the JSON lines of the shards of a split,
// concatenated, give `sessiondag summary` the summary of the whole run;
// the text form names the merged shards and a missing one is reported.
func TestSummaryMergesShards(t *testing.T) {
	whole := auditJSON(t)
	dir := t.TempDir()
	var files []string
	var concat strings.Builder
	for i := 0; i < 3; i++ {
		part := auditJSON(t, "--shard", fmt.Sprintf("%d/3", i))
		name := filepath.Join(dir, fmt.Sprintf("shard%d.jsonl", i))
		if err := os.WriteFile(name, []byte(part), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, name)
		concat.WriteString(part)
	}
	cat := filepath.Join(dir, "all.jsonl")
	if err := os.WriteFile(cat, []byte(concat.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(summaryOf(t, whole))
	for _, args := range [][]string{append([]string{"summary", "--json"}, files...), {"summary", "--json", cat}} {
		var out, errb bytes.Buffer
		if code := run(args, &out, &errb); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errb.String())
		}
		got, _ := json.Marshal(summaryOf(t, out.String()))
		if !bytes.Equal(got, want) {
			t.Errorf("%v:\n got %s\nwant %s", args, got, want)
		}
		if errb.Len() != 0 {
			t.Errorf("%v: %s", args, errb.String())
		}
	}

	var out, errb bytes.Buffer
	if code := run([]string{"summary", files[0], files[2]}, &out, &errb); code != 3 {
		t.Fatalf("a merge with a shard missing: exit %d, want 3 (undecided): %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "2 shards merged") || !strings.Contains(out.String(), "verdict: UNDECIDED: 1 of 3 shards missing: 1/3") {
		t.Errorf("text summary:\n%s", out.String())
	}
	if !strings.Contains(errb.String(), "1 of 3 shards missing: 1/3") {
		t.Errorf("a missing shard is not reported: %q", errb.String())
	}
}

// TestSummaryRefuses: input that is not summary records of a known kind.
func TestSummaryRefuses(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"unknown.jsonl": `{"kind":"nope","summary":{}}`,
		"bad.jsonl":     `{"kind":"audit","summary":`,
		"none.jsonl":    `{"kind":"audit","session":{"dir":"x"}}`,
	} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		var out, errb bytes.Buffer
		if code := run([]string{"summary", p}, &out, &errb); code != 2 || errb.Len() == 0 {
			t.Errorf("%s: exit %d, stderr %q", name, code, errb.String())
		}
	}
	var out, errb bytes.Buffer
	if code := run([]string{"audit", "--shard", "3/3", filepath.Join("..", "..", "corpus")}, &out, &errb); code != 2 {
		t.Errorf("--shard 3/3: exit %d", code)
	}
}

// TestSummaryOfPartOfARunIsNotReady: the summary of a whole run given
// twice, or shards that walked different trees, is no verdict (undecided,
// exit 3) with the reason on stderr; a whole run given once is the run.
func TestSummaryOfPartOfARunIsNotReady(t *testing.T) {
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole.jsonl")
	if err := os.WriteFile(whole, []byte(auditJSON(t)), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := run([]string{"summary", whole}, &out, &errb); code != 0 {
		t.Fatalf("one whole run: exit %d: %s", code, errb.String())
	}
	out.Reset()
	errb.Reset()
	if code := run([]string{"summary", whole, whole}, &out, &errb); code != 3 {
		t.Errorf("a whole run given twice: exit %d, want 3\n%s", code, out.String())
	}
	if !strings.Contains(errb.String(), "shard 0/1 given 2 times") || !strings.Contains(out.String(), "verdict: UNDECIDED") {
		t.Errorf("a whole run given twice: stderr %q\n%s", errb.String(), out.String())
	}

	// Shard 0/2 of the corpus and shard 1/2 of one directory of it.
	part0 := auditJSON(t, "--shard", "0/2")
	var other bytes.Buffer
	if code := run([]string{"audit", filepath.Join("..", "..", "corpus", "sessions"), "--json", "--shard", "1/2"}, &other, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	mixed := filepath.Join(dir, "mixed.jsonl")
	if err := os.WriteFile(mixed, []byte(part0+other.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	errb.Reset()
	if code := run([]string{"summary", mixed}, &out, &errb); code != 3 || !strings.Contains(out.String(), "walked different trees") {
		t.Errorf("shards of different trees: exit %d\n%s%s", code, out.String(), errb.String())
	}
}

// TestSummaryRefusesOtherWalks: `summary` of the parts of two walks of one
// size and kinds, judged by other checks, is refused (exit 2) naming the
// file and that the walks differ: their counts add up to neither (before,
// the merge called them one run).
func TestSummaryRefusesOtherWalks(t *testing.T) {
	var parts []string
	for _, check := range []string{"target", "legacy"} {
		dir := t.TempDir()
		var out, errs bytes.Buffer
		args := []string{"exhaust", "--quiet", "--workers", "1", "--max-ops", "2", "--kinds", "user,reply,checkout", "--check", check,
			"--claim", dir, "--claimant", "a"}
		if code := run(args, &out, &errs); code != 0 {
			t.Fatalf("%v: exit %d\n%s", args, code, errs.String())
		}
		files, err := filepath.Glob(filepath.Join(dir, "parts", "*.jsonl"))
		if err != nil || len(files) < 2 {
			t.Fatalf("parts %v, %v", files, err)
		}
		parts = append(parts, files[0])
	}
	var out, errs bytes.Buffer
	if code := run([]string{"summary", parts[0], parts[1]}, &out, &errs); code != 2 {
		t.Fatalf("summary of two walks' parts: exit %d, want 2\n%s%s", code, out.String(), errs.String())
	}
	if !strings.Contains(errs.String(), parts[1]) || !strings.Contains(errs.String(), "different walks") {
		t.Errorf("the refusal names neither the file nor the walks: %s", errs.String())
	}
}
