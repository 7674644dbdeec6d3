package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// serveEnv makes this test binary `sessiondag serve` with the arguments it
// holds (space-separated), so that --impl can name it.
const serveEnv = "SESSIONDAG_TEST_SERVE"

func TestMain(m *testing.M) {
	if args, ok := os.LookupEnv(serveEnv); ok {
		os.Exit(runMain(append([]string{"serve"}, strings.Fields(args)...)))
	}
	if _, ok := os.LookupEnv(toolEnv); ok {
		os.Exit(runMain(os.Args[1:]))
	}
	if mark, ok := os.LookupEnv(alterEnv); ok {
		os.Exit(alterReplies(mark, os.Stdin, os.Stdout))
	}
	if err := relationChecks(); err != nil {
		fmt.Fprintln(os.Stderr, "cmd/sessiondag:", err)
		os.Exit(2)
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
// command names it, and replaying the file with --run-impl reproduces the
// failure through the implementation the file names — while the same file
// replayed in-process (--impl=) passes.
func TestImplAcrossTheProtocol(t *testing.T) {
	shape := filepath.Join("..", "..", "corpus", "ops", "shapes", "10-two-root-users-L4.ops")
	code, out := runCmd(t, "replay", shape, "--impl", served(""))
	if code != 0 || !strings.Contains(out, "11 ops against sessiondag impl/ (rollout)") || !strings.Contains(out, "not run: check columns reads the implementation's internals") {
		t.Fatalf("replay against serve: exit %d\n%s", code, out)
	}
	code, out = runCmd(t, "replay", shape, "--check", "columns", "--impl", served(""))
	if code != 3 || !strings.Contains(out, "nothing run against sessiondag impl/ (rollout)") {
		t.Fatalf("replay of a check that cannot judge it: exit %d, want 3 (undecided)\n%s", code, out)
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
	if code, out = runCmd(t, "replay", files[0], "--run-impl"); code != 1 || !strings.Contains(out, "target: flags all: the loaded chain is not the intended conversation") {
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

// TestBrokenImplAcrossTheCommands: an implementation that never answers,
// answers garbage, or stops answering mid-session is an error or a finding
// naming it, within its deadline, in replay, hunt and exhaust alike — never
// a hang, never a pass.
func TestBrokenImplAcrossTheCommands(t *testing.T) {
	shape := filepath.Join("..", "..", "corpus", "ops", "shapes", "01-plain-web-chat.ops")
	// After n requests the process reads no more and never exits: every
	// request after those waits for its deadline.
	hangsAfter := func(n int) string {
		return "{ sed -u " + strconv.Itoa(n) + "q; sleep 60; } | " + served("")
	}
	// After n requests the process exits: its output closes.
	crashesAfter := func(n int) string { return "sed -u " + strconv.Itoa(n) + "q | " + served("") }
	hunted, exhausted := t.TempDir(), t.TempDir()
	for _, c := range []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"replay, no handshake", []string{"replay", shape, "--impl", "sleep 60", "--impl-timeout", "0.2"}, 2,
			[]string{`implementation "sleep 60": the handshake failed`, "no reply within 600ms"}},
		{"replay, garbage", []string{"replay", shape, "--impl", "echo not json; sleep 60"}, 2,
			[]string{`implementation "echo not json; sleep 60": the handshake failed`, "not one JSON object"}},
		{"replay, exits", []string{"replay", shape, "--impl", "exit 3"}, 2,
			[]string{`implementation "exit 3": the handshake failed`, "exit status 3"}},
		{"replay, hangs mid-session", []string{"replay", shape, "--check", "legacy", "--impl", hangsAfter(5), "--impl-timeout", "0.5"}, 1,
			[]string{"protocol: op 3 (reply): no reply within 500ms; killed"}},
		{"hunt, crashes mid-session", []string{"hunt", "--seed", "1", "--iterations", "4", "--max-ops", "12", "--check", "legacy",
			"--out", hunted, "--impl", crashesAfter(6)}, 1,
			[]string{"implementation: sessiondag impl/ (rollout)", "protocol", "closed its", "--impl "}},
		{"exhaust, crashes mid-session", []string{"exhaust", "--max-ops", "1", "--workers", "1", "--max-reduced", "1", "--check", "legacy",
			"--out", exhausted, "--impl", crashesAfter(3)}, 1,
			[]string{"implementation: sessiondag impl/ (rollout)", "protocol", "closed its", "--impl "}},
	} {
		t.Run(c.name, func(t *testing.T) {
			start := time.Now()
			code, out := runCmd(t, c.args...)
			if code != c.code {
				t.Errorf("exit %d, want %d", code, c.code)
			}
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("the output does not say %q", w)
				}
			}
			if t.Failed() {
				t.Logf("after %s:\n%s", time.Since(start).Round(time.Millisecond), out)
			}
		})
	}
	// Each saved failure names the implementation and replays to the same
	// failure through it.
	for _, dir := range []string{hunted, exhausted} {
		files, _ := filepath.Glob(filepath.Join(dir, "protocol-*.ops"))
		if len(files) == 0 {
			t.Errorf("no protocol failure saved in %s", dir)
			continue
		}
		if code, out := runCmd(t, "replay", files[0], "--run-impl"); code != 1 || !strings.Contains(out, "protocol") || !strings.Contains(out, "closed its") {
			t.Errorf("replay %s: exit %d, want 1 with the protocol finding\n%s", files[0], code, out)
		}
	}
}
