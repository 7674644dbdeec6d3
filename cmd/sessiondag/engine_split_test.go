package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// engineMutant is compiled into the engine tests' binary: exhaust kills it
// at 3 ops (bench/mutants-exhaust.txt), so the walk, the hunt and the audit
// all find failures, and what a split could lose or double is there to see.
const engineMutant = "fold-in-place"

// TestEngineSplitChangesNothing: run as the Indexed Job runs them — 1, 2,
// 4 and 16 pods at once, more completions than pods, SIGKILLs at random
// times and the killed pods' indices run again — a claimed exhaustive
// walk, a sharded audit and a sharded hunt (a fixed number of iterations)
// merge into what one process gives, byte for byte: the merged summary
// (without the time and work it took) and the failures (each part's
// reduced failures and their files; the audit's session records; the
// hunt's distinct failures and their files' scripts). Each of the three
// runs under 2 schedules per number of pods, 8 in all
// (SESSIONDAG_ENGINE_SCHEDULES sets another number per number of pods);
// SESSIONDAG_ENGINE_OPS and SESSIONDAG_ENGINE_KINDS size the walk (default
// 3 ops of 7 kinds: 93 scripts, 10 failing), SESSIONDAG_ENGINE_AUDIT the
// audited tree (default corpus/sessions: 68 sessions, 18 regressions) and
// SESSIONDAG_ENGINE_HUNT the hunt's iterations (default 34 of at most 10
// ops: 3 distinct failures).
func TestEngineSplitChangesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command with a mutant and runs it some 300 times")
	}
	bin := mutantBinary(t, engineMutant)
	seed := uint64(time.Now().UnixNano())
	t.Logf("schedules drawn from seed %d", seed)
	t.Run("exhaust", func(t *testing.T) { engineExhaust(t, bin, seed) })
	t.Run("audit", func(t *testing.T) { engineAudit(t, bin, seed) })
	t.Run("hunt", func(t *testing.T) { engineHunt(t, bin, seed) })
}

// splitCase is one command split by the engine: the pod of each index,
// and what a finished run leaves, as the one text that must not depend on
// the split (outs are the indices' outputs).
type splitCase struct {
	pod    func(dir string, index, completions int) []string
	result func(t *testing.T, dir string, outs [][]byte) string
}

// splitUnderKills runs c once as one pod, then under schedules per number
// of pods, each in a directory of its own, and compares every result with
// the one pod's.
func splitUnderKills(t *testing.T, bin string, seed uint64, schedules int, c splitCase) {
	one := &engine{t: t, bin: bin, completions: 1, parallelism: 1, rng: rand.New(rand.NewPCG(seed, 0))}
	dir := t.TempDir()
	one.pod = func(i int) []string { return c.pod(dir, i, 1) }
	began := time.Now()
	want := c.result(t, dir, one.run())
	took := time.Since(began)
	if !strings.HasPrefix(want, "summary: exit 1\n") {
		t.Fatalf("one pod found no failure, with mutant %s compiled in: nothing to lose or double\n%.2000s", engineMutant, want)
	}
	t.Logf("one pod: %s", took.Round(time.Millisecond))
	runs, hits := 0, 0
	for _, p := range engineParallelism {
		for s := range schedules {
			rng := rand.New(rand.NewPCG(seed, uint64(p*1000+s)))
			dir := t.TempDir()
			e := &engine{t: t, bin: bin, parallelism: p, completions: p + 1 + rng.IntN(p+1), rng: rng,
				kills: 1 + rng.IntN(4), within: 2 * took / time.Duration(p)}
			e.pod = func(i int) []string { return c.pod(dir, i, e.completions) }
			got := c.result(t, dir, e.run())
			runs, hits = runs+1, hits+e.hit
			if got != want {
				t.Errorf("%v: differs from one pod's\n%s", e, firstDiff(want, got))
			} else {
				t.Logf("%v: the same", e)
			}
		}
	}
	if hits == 0 {
		t.Errorf("no SIGKILL of %d schedules hit a running pod", runs)
	}
	t.Logf("%d schedules, %d SIGKILLs hit a pod", runs, hits)
}

// firstDiff shows the first line where two results differ.
func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range min(len(w), len(g)) {
		if w[i] != g[i] {
			return fmt.Sprintf("line %d:\none pod: %.400s\nsplit:   %.400s", i+1, w[i], g[i])
		}
	}
	return fmt.Sprintf("one pod: %d lines, split: %d lines", len(w), len(g))
}

// envOr is the environment variable name, else def.
func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// engineExhaust: the claimed walk (deploy/k8s/exhaust-job.yaml's command,
// one worker a pod).
func engineExhaust(t *testing.T, bin string, seed uint64) {
	ops := envOr("SESSIONDAG_ENGINE_OPS", "3")
	kinds := envOr("SESSIONDAG_ENGINE_KINDS", "user,reply,fn,dispatch,checkout,rewind,clock")
	splitUnderKills(t, bin, seed, engineSchedules(t, 2), splitCase{
		pod: func(dir string, i, n int) []string {
			return []string{"exhaust", "--json", "--quiet", "--workers", "1", "--max-ops", ops, "--kinds", kinds,
				"--claim", dir, "--claimant", fmt.Sprint("pod-", i), "--claim-start", fmt.Sprintf("%d/%d", i, n)}
		},
		result: func(t *testing.T, dir string, _ [][]byte) string {
			parts, err := filepath.Glob(filepath.Join(dir, "parts", "*.jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			b.WriteString(mergedSummary(t, bin, parts, "seconds", "worker_seconds", "cpu_seconds", "claimants", "checks_run",
				"walked", "history_checks", "states", "reused", "forgotten", "rebuilds", "forks"))
			for _, p := range parts {
				fmt.Fprintf(&b, "%s: %s\n", filepath.Base(p), partFailures(t, p, dir))
			}
			b.WriteString(filesOf(t, filepath.Join(dir, "failures"), false))
			return b.String()
		},
	})
}

// mergedSummary is `sessiondag summary --json` of files, its exit code and
// its summary record without the keys drop (what it took, not what it
// found).
func mergedSummary(t *testing.T, bin string, files []string, drop ...string) string {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"summary", "--json"}, files...)...)
	var out, errs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errs
	code := exitCode(cmd.Run())
	var rec map[string]any
	if err := json.Unmarshal(out.Bytes(), &rec); err != nil {
		t.Fatalf("summary: exit %d, %v\n%s%s", code, err, out.String(), errs.String())
	}
	sum, _ := rec["summary"].(map[string]any)
	for _, k := range drop {
		delete(sum, k)
	}
	if props, ok := sum["properties"].([]any); ok {
		for _, p := range props {
			delete(p.(map[string]any), "seconds")
		}
	}
	b, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("summary: exit %d\n%s\n", code, b)
}

// partFailures are the failure records of a part's file, its directory
// left out of their paths.
func partFailures(t *testing.T, path, dir string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for line := range strings.Lines(string(b)) {
		if strings.Contains(line, `"failure":`) {
			out = append(out, strings.ReplaceAll(strings.TrimSpace(line), dir, "DIR"))
		}
	}
	return strings.Join(out, " ")
}

// filesOf lists the files of dir (not those whose name begins with a dot:
// a pod killed while writing leaves its temporary file) with a hash of
// each one's bytes — of its script only, without its header's comment
// lines, when scriptOnly.
func filesOf(t *testing.T, dir string, scriptOnly bool) string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if scriptOnly {
			var keep []string
			for line := range strings.Lines(string(data)) {
				if !strings.HasPrefix(line, "# ") && line != "#\n" {
					keep = append(keep, line)
				}
			}
			data = []byte(strings.Join(keep, ""))
		}
		fmt.Fprintf(&b, "file %s %x\n", e.Name(), sha256.Sum256(data))
	}
	return b.String()
}

// engineAudit: the audit of a tree of the corpus in shards (deploy/README.md,
// "Auditing session directories"), each index's output its newest pod's.
func engineAudit(t *testing.T, bin string, seed uint64) {
	corpus, err := filepath.Abs(filepath.Join("..", "..", envOr("SESSIONDAG_ENGINE_AUDIT", filepath.Join("corpus", "sessions"))))
	if err != nil {
		t.Fatal(err)
	}
	splitUnderKills(t, bin, seed, engineSchedules(t, 2), splitCase{
		pod: func(_ string, i, n int) []string {
			return []string{"audit", corpus, "--json", "--shard", fmt.Sprintf("%d/%d", i, n)}
		},
		result: func(t *testing.T, dir string, outs [][]byte) string {
			all := filepath.Join(dir, "audit.jsonl")
			if err := os.WriteFile(all, bytes.Join(outs, nil), 0o644); err != nil {
				t.Fatal(err)
			}
			var sessions []string
			for _, o := range outs {
				for line := range strings.Lines(string(o)) {
					if !strings.Contains(line, `"summary":`) {
						sessions = append(sessions, line)
					}
				}
			}
			slices.Sort(sessions)
			return mergedSummary(t, bin, []string{all}, "seconds", "shards", "shard") + strings.Join(sessions, "")
		},
	})
}

// engineHunt: the hunt in shards (deploy/k8s/hunt-job.yaml's command: shard
// i writes its failures to a folder of its own), a fixed number of
// iterations, each index's output its newest pod's.
func engineHunt(t *testing.T, bin string, seed uint64) {
	// At least as many iterations as the most completions (33 for 16
	// pods): a shard given none is undecided (exit 3), a failed pod.
	iterations := envOr("SESSIONDAG_ENGINE_HUNT", "34")
	splitUnderKills(t, bin, seed, engineSchedules(t, 2), splitCase{
		pod: func(dir string, i, n int) []string {
			return []string{"hunt", "--seed", "3", "--iterations", iterations, "--max-ops", "10", "--check", "retire-d,fields", "--json",
				"--shard", fmt.Sprintf("%d/%d", i, n), "--out", filepath.Join(dir, fmt.Sprint("shard-", i))}
		},
		result: func(t *testing.T, dir string, outs [][]byte) string {
			all := filepath.Join(dir, "hunt.jsonl")
			if err := os.WriteFile(all, bytes.Join(outs, nil), 0o644); err != nil {
				t.Fatal(err)
			}
			failures := map[string]string{}
			for _, o := range outs {
				for line := range strings.Lines(string(o)) {
					var f struct {
						Kind, Key, Check, Data, What string
						Step, Ops                    int
						Reproduced                   bool
					}
					if json.Unmarshal([]byte(line), &f) == nil && f.Kind == "hunt-failure" {
						failures[f.Key] = fmt.Sprintf("failure %+v\n", f)
					}
				}
			}
			files := map[string]bool{}
			shards, _ := filepath.Glob(filepath.Join(dir, "shard-*"))
			for _, s := range shards {
				for line := range strings.Lines(filesOf(t, s, true)) {
					files[line] = true
				}
			}
			var b strings.Builder
			b.WriteString(mergedSummary(t, bin, []string{all}, "seconds", "shard", "merged"))
			for _, k := range slices.Sorted(maps.Keys(failures)) {
				b.WriteString(failures[k])
			}
			for _, l := range slices.Sorted(maps.Keys(files)) {
				b.WriteString(l)
			}
			return b.String()
		},
	})
}
