package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files of TestCommands from the current output")

// A cliCase runs the tool in-process with fixed inputs. In args, $TMP is a
// fresh temporary directory and $ROOT the repository root.
type cliCase struct {
	name string
	args string
}

var cliCases = []cliCase{
	{"help", "help"},
	{"no-command", ""},
	{"unknown-command", "frobnicate"},
	{"load-text", "load $ROOT/corpus/sessions/01-plain-web-chat"},
	{"load-json-conformance", "load $ROOT/corpus/conformance/sessions/local_0011000000 --json"},
	{"load-flags-all", "load $ROOT/corpus/sessions/10-two-root-users-L4 --flags all"},
	{"load-bad-flags", "load $ROOT/corpus/sessions/10-two-root-users-L4 --flags B"},
	{"load-missing", "load $TMP/nothing-here"},
	{"gen", "gen --seed 7 --nodes 25 --out $TMP/s"},
	{"gen-exists", "gen --seed 7 --nodes 25 --out $TMP"},
	{"reconstruct-exact", "reconstruct $ROOT/corpus/sessions/01-plain-web-chat"},
	{"reconstruct-ambiguous", "reconstruct $ROOT/corpus/sessions/27-ambiguous-stale-browser"},
	{"reconstruct-gaps-json", "reconstruct $ROOT/corpus/realwriter/sessions/rw_test_store_save_load0__p1 --json"},
	{"reconstruct-no-meta", "reconstruct $ROOT/corpus/realwriter/sessions/f3_no_meta"},
	{"reconstruct-unexplained", "reconstruct $ROOT/corpus/realwriter/sessions/rw_test_set_active_head_to_none_c0__c1"},
	{"reconstruct-out", "reconstruct $ROOT/corpus/sessions/02-dispatcher-chat-on --out $TMP/s.ops"},
	{"reconstruct-out-inside", "reconstruct $ROOT/corpus/sessions/01-plain-web-chat --out $ROOT/corpus/sessions/01-plain-web-chat/no-such-dir/s.ops"},
	{"reconstruct-missing", "reconstruct $TMP/nothing-here"},
	{"replay-shape", "replay $ROOT/corpus/ops/shapes/10-two-root-users-L4.ops"},
	{"replay-rollout", "replay $ROOT/corpus/ops/shapes/10-two-root-users-L4.ops --rollout"},
	{"replay-rollout-plan", "replay $ROOT/corpus/ops/shapes/06-manual-variant-A.ops --rollout=off:3/A+off:4/A,B:3/off --out $TMP/s"},
	{"replay-rollout-bad-plan", "replay $ROOT/corpus/ops/shapes/06-manual-variant-A.ops --rollout=off/B"},
	{"replay-check", "replay $ROOT/corpus/ops/shapes/03-tool-heavy.ops --check legacy,cards --flags off"},
	{"replay-no-check", "replay $ROOT/corpus/ops/shapes/03-tool-heavy.ops --check nonsense"},
	{"audit-one", "audit $ROOT/corpus/sessions/10-two-root-users-L4 -v"},
	{"audit-json", "audit $ROOT/corpus/sessions/01-plain-web-chat --json"},
	{"audit-residual", "audit $ROOT/corpus/sessions/18-errors $ROOT/corpus/conformance/sessions/local_0011000000 -v"},
	{"audit-reconstructed", "audit $ROOT/corpus/realwriter/sessions/dispatcher_1_0 $ROOT/corpus/realwriter/sessions/f4_attach_embed $ROOT/corpus/realwriter/sessions/local_14db145069 -v"},
	{"audit-no-reconstruct", "audit $ROOT/corpus/realwriter/sessions/dispatcher_1_0 --reconstruct=false"},
	{"audit-empty", "audit $TMP"},
	{"audit-missing", "audit $TMP/nothing-here"},
	{"audit-shard", "audit $ROOT/corpus/sessions --shard 5/16 -v --html $TMP/audit.html"},
	{"summary", "summary testdata/audit-shards.jsonl"},
	{"summary-json", "summary testdata/audit-shards.jsonl --json"},
	{"hunt", "hunt --seed 1 --iterations 6 --check legacy,cards --max-ops 15 --out $TMP/failures"},
	{"hunt-json", "hunt --seed 1 --iterations 6 --check aggregation,cold --max-ops 15 --json --out $TMP/failures"},
	{"hunt-one-iteration", "hunt --seed 1 --iteration 3 --check cutoff --max-ops 15 --out $TMP/failures"},
	{"hunt-no-budget", "hunt --seed 1"},
	{"summary-hunt", "summary testdata/hunt-shards.jsonl"},
	{"summary-hunt-missing-shard", "summary testdata/hunt-two-of-three-shards.jsonl --json"},
	{"hunt-bad-shard", "hunt --minutes 1 --shard 2/2"},
	{"hunt-bad-check", "hunt --iterations 1 --check nonsense"},
	{"promote", "promote $ROOT/corpus/ops/shapes/01-plain-web-chat.ops plain-chat --to $TMP/regressions --note kept"},
	{"benchgate-slower", "benchgate testdata/bench-old.txt testdata/bench-new.txt"},
	{"benchgate-same", "benchgate testdata/bench-old.txt testdata/bench-old.txt"},
	{"benchgate-too-few", "benchgate testdata/bench-few.txt testdata/bench-few.txt"},
	{"benchgate-help", "benchgate -h"},
	{"audit-help", "audit -h"},
	{"load-help", "load --help"},
	{"gen-bad-nodes", "gen --nodes -5 --out $TMP/x"},
	{"hunt-bad-minutes", "hunt --minutes -1"},
	{"exhaust-bad-workers", "exhaust --max-ops 2 --workers 0"},
	{"replay-empty", "replay testdata/empty.ops"},
	{"promote-empty", "promote testdata/empty.ops kept --to $TMP/r"},
}

// TestCommands runs every command on small fixed inputs and compares what it
// prints and its exit code with testdata/golden/NAME.txt. After a deliberate
// change of the output, `go test ./cmd/sessiondag -run TestCommands -update`
// rewrites the files; review the diff before committing it.
func TestCommands(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cliCases {
		t.Run(c.name, func(t *testing.T) {
			tmp := t.TempDir()
			expand := strings.NewReplacer("$TMP", tmp, "$ROOT", root)
			var args []string
			for _, a := range strings.Fields(c.args) {
				args = append(args, expand.Replace(a))
			}
			var stdout, stderr bytes.Buffer
			code := run(args, &stdout, &stderr)
			got := stable(fmt.Sprintf("exit %d\n--- stdout\n%s--- stderr\n%s", code, stdout.String(), stderr.String()), tmp, root)
			golden := filepath.Join("testdata", "golden", c.name+".txt")
			if *update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("sessiondag %s: output differs from %s (-update rewrites it)\n--- want\n%s\n--- got\n%s", c.args, golden, want, got)
			}
		})
	}
}

// Output that differs between runs: where the temporary directory is, the
// repository's path, and timings.
var (
	seconds     = regexp.MustCompile(`\b\d+\.\d+s\b`)
	jsonSeconds = regexp.MustCompile(`"seconds":\s*[0-9.e+-]+`)
)

func stable(s, tmp, root string) string {
	s = strings.ReplaceAll(s, tmp, "$TMP")
	s = strings.ReplaceAll(s, root, "$ROOT")
	s = seconds.ReplaceAllString(s, "N.NNs")
	return jsonSeconds.ReplaceAllString(s, `"seconds": N`)
}

// TestVersion: --version (and version) prints the build and exits 0.
func TestVersion(t *testing.T) {
	for _, arg := range []string{"--version", "version", "-version"} {
		var out, errb bytes.Buffer
		if code := run([]string{arg}, &out, &errb); code != 0 || !strings.HasPrefix(out.String(), "sessiondag ") || !strings.Contains(out.String(), "go1.") {
			t.Errorf("%s: exit %d, %q %q", arg, code, out.String(), errb.String())
		}
	}
}

// TestEveryCommandHelpExitsZero: CMD -h prints the command's usage on
// stdout and exits 0, for every command of the table.
func TestEveryCommandHelpExitsZero(t *testing.T) {
	for _, c := range commands {
		var out, errb bytes.Buffer
		code := run([]string{c.name, "-h"}, &out, &errb)
		if code != 0 || !strings.Contains(out.String(), "usage:") {
			t.Errorf("%s -h: exit %d\n--- stdout\n%s--- stderr\n%s", c.name, code, out.String(), errb.String())
		}
	}
}

// TestPromoteFindsTheRepository: without --to, promote writes under
// corpus/ops/regressions of the repository it runs in, found from the
// current directory upwards (here a scratch copy with its own go.mod).
func TestPromoteFindsTheRepository(t *testing.T) {
	repo := t.TempDir()
	if err := os.WriteFile(filepath.Join(repo, "go.mod"), []byte("module sessiondag\n\ngo 1.26\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	script, err := filepath.Abs(filepath.Join("..", "..", "corpus", "ops", "shapes", "01-plain-web-chat.ops"))
	if err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(repo, "deep", "er")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(sub)
	var out, errb bytes.Buffer
	if code := run([]string{"promote", script, "plain-chat", "--note", "kept"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if _, err := os.Stat(filepath.Join(repo, "corpus", "ops", "regressions", "plain-chat.ops")); err != nil {
		t.Errorf("not written under the repository's root: %v\n%s", err, out.String())
	}
	t.Chdir(t.TempDir()) // outside any repository, and the script's own is the real one: refused only with neither
	other := filepath.Join(t.TempDir(), "x.ops")
	os.WriteFile(other, []byte("user id=u1 text=hi\n"), 0o644)
	errb.Reset()
	if code := run([]string{"promote", other, "x"}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "no sessiondag repository") {
		t.Errorf("outside a repository: exit %d, %q", code, errb.String())
	}
}

// TestHelpIsAFlagNotAValue: -h given as a flag's value is that value, not
// a request for help — audit --shard -h names the bad shard and exits 2 —
// and -h after a positional argument still asks for help.
func TestHelpIsAFlagNotAValue(t *testing.T) {
	var out, errb bytes.Buffer
	code := run([]string{"audit", "--shard", "-h", "corpus/conformance"}, &out, &errb)
	if code != 2 || strings.Contains(out.String(), "usage:") || !strings.Contains(errb.String(), "-h") {
		t.Errorf("audit --shard -h: exit %d\n--- stdout\n%s--- stderr\n%s", code, out.String(), errb.String())
	}
	out.Reset()
	errb.Reset()
	code = run([]string{"audit", "corpus/conformance", "-h"}, &out, &errb)
	if code != 0 || !strings.Contains(out.String(), "usage:") {
		t.Errorf("audit DIR -h: exit %d\n--- stdout\n%s--- stderr\n%s", code, out.String(), errb.String())
	}
}
