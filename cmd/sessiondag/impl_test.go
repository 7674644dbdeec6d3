package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// serveEnv makes this test binary `sessiondag serve` with the arguments it
// holds (space-separated), so that --impl can name it.
const serveEnv = "SESSIONDAG_TEST_SERVE"

func TestMain(m *testing.M) {
	if args, ok := os.LookupEnv(serveEnv); ok {
		os.Exit(run(append([]string{"serve"}, strings.Fields(args)...), os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// served is the command that serves impl/ with args through this binary.
func served(args string) string {
	return serveEnv + "='" + args + "' exec '" + os.Args[0] + "'"
}

// overclaiming is impl/ with every flag off (the original's behaviour) that
// says it is the target: the target check runs against it and finds where
// the original cuts history off, as it would on a port that claims more
// than it does.
func overclaiming() string {
	return `sed -u 's/"config":"target"/"config":"off"/' | ` + served("--flags off") +
		` | sed -u 's/"claims":"legacy"/"claims":"target"/; s/"configs":\["off"\]/"configs":["target"]/'`
}

func runCmd(t *testing.T, args ...string) (int, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(args, &stdout, &stderr)
	return code, stdout.String() + stderr.String()
}

// TestImplAcrossTheProtocol: replay, hunt and exhaust judge another
// implementation through --impl; what cannot judge it is listed as not
// run; a failure found on it is saved naming it (`#! impl`), its replay
// command names it, and replaying the file reproduces the failure through
// the implementation the file names — while the same file replayed
// in-process (--impl=) passes.
func TestImplAcrossTheProtocol(t *testing.T) {
	shape := filepath.Join("..", "..", "corpus", "ops", "shapes", "10-two-root-users-L4.ops")
	code, out := runCmd(t, "replay", shape, "--impl", served(""))
	if code != 0 || !strings.Contains(out, "9 ops against sessiondag impl/ (rollout)") || !strings.Contains(out, "not run: check columns reads the implementation's internals") {
		t.Fatalf("replay against serve: exit %d\n%s", code, out)
	}
	code, out = runCmd(t, "replay", shape, "--check", "columns", "--impl", served(""))
	if code != 2 || !strings.Contains(out, "nothing run against sessiondag impl/ (rollout)") {
		t.Fatalf("replay of a check that cannot judge it: exit %d, want 2\n%s", code, out)
	}

	dir := t.TempDir()
	code, out = runCmd(t, "hunt", "--seed", "1", "--iterations", "20", "--check", "target,columns", "--max-ops", "30", "--out", dir, "--impl", overclaiming())
	if code != 1 || !strings.Contains(out, "not run: check columns") || !strings.Contains(out, "--impl ") {
		t.Fatalf("hunt against an implementation that claims the target: exit %d, want 1\n%s", code, out)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "target-*.ops"))
	if len(files) == 0 {
		t.Fatalf("hunt saved no target failure in %s\n%s", dir, out)
	}
	text, err := os.ReadFile(files[0])
	if err != nil || !bytes.Contains(text, []byte("#! impl command=")) {
		t.Fatalf("the saved failure does not name the implementation (%v):\n%s", err, text)
	}
	if code, out = runCmd(t, "replay", files[0]); code != 1 || !strings.Contains(out, "target: flags all: the loaded chain is not the intended conversation") {
		t.Fatalf("replay of the saved failure: exit %d, want 1\n%s", code, out)
	}
	if code, out = runCmd(t, "replay", files[0], "--impl="); code != 0 {
		t.Fatalf("replay of the saved failure in-process: exit %d, want 0\n%s", code, out)
	}

	code, out = runCmd(t, "exhaust", "--max-ops", "2", "--out", t.TempDir(), "--impl", served("--flags off"))
	if code != 0 || !strings.Contains(out, "implementation: sessiondag impl/ (legacy, flags off)") || !strings.Contains(out, "not run: check target (P2) is promised by a target or rollout implementation") {
		t.Fatalf("exhaust against a legacy implementation: exit %d\n%s", code, out)
	}
}
