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
	{"replay-shape", "replay $ROOT/corpus/ops/shapes/10-two-root-users-L4.ops"},
	{"replay-rollout", "replay $ROOT/corpus/ops/shapes/10-two-root-users-L4.ops --rollout"},
	{"replay-rollout-plan", "replay $ROOT/corpus/ops/shapes/06-manual-variant-A.ops --rollout=off:3/A+off:4/A,B:3/off --out $TMP/s"},
	{"replay-rollout-bad-plan", "replay $ROOT/corpus/ops/shapes/06-manual-variant-A.ops --rollout=off/B"},
	{"replay-check", "replay $ROOT/corpus/ops/shapes/03-tool-heavy.ops --check legacy,cards --flags off"},
	{"replay-no-check", "replay $ROOT/corpus/ops/shapes/03-tool-heavy.ops --check nonsense"},
	{"audit-one", "audit $ROOT/corpus/sessions/10-two-root-users-L4 -v"},
	{"audit-json", "audit $ROOT/corpus/sessions/01-plain-web-chat --json"},
	{"audit-residual", "audit $ROOT/corpus/sessions/18-errors $ROOT/corpus/conformance/sessions/local_0011000000 -v"},
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
