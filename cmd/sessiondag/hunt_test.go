package main

import (
	"bytes"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"sessiondag/checker/harness"
	"sessiondag/ops"
)

// A failure the hunt finds is written as a file on which `sessiondag
// replay` exits 1, and the hunt itself exits 1. The failure is planted: a
// check, registered for the test, that fails on a crash after a retry.
func TestHuntFailureReplays(t *testing.T) {
	planted := harness.Check{Name: "planted-retry-crash", Data: []harness.Data{harness.OffAny}, Run: func(s *harness.Session) *harness.Finding {
		for i, op := range s.Script {
			if _, ok := op.(ops.Retry); ok && slices.ContainsFunc(s.Script[i:], func(o ops.Op) bool { _, c := o.(ops.Crash); return c }) {
				return &harness.Finding{What: "a crash after a retry"}
			}
		}
		return nil
	}}
	saved := harness.Checks
	harness.Checks = append(slices.Clone(saved), planted)
	defer func() { harness.Checks = saved }()

	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	code := run([]string{"hunt", "--seed", "1", "--iterations", "200", "--max-ops", "40", "--check", planted.Name, "--out", out}, &stdout, &stderr)
	if code != 1 {
		t.Fatalf("hunt exited %d, want 1\n%s%s", code, stdout.String(), stderr.String())
	}
	files, _ := filepath.Glob(filepath.Join(out, "*.ops"))
	if len(files) == 0 {
		t.Fatalf("no file written\n%s", stdout.String())
	}
	report := stdout.String()
	for _, f := range files {
		if !strings.Contains(report, "go run ./cmd/sessiondag replay "+f) {
			t.Errorf("the report does not give the replay command of %s", f)
		}
		stdout.Reset()
		if code := run([]string{"replay", f}, &stdout, &stderr); code != 1 || !strings.Contains(stdout.String(), planted.Name) {
			t.Errorf("replay %s exited %d, want 1 with the planted failure:\n%s%s", f, code, stdout.String(), stderr.String())
		}
	}
}

// TestHuntStopsAndShowsProgress: hunt prints progress lines on stderr
// while it lasts (scripts and their rate, findings, distinct failures, the
// time left), none with --quiet; with --stop it ends at its first distinct
// failure, long before its budget, saying so.
func TestHuntStopsAndShowsProgress(t *testing.T) {
	t.Setenv("SESSIONDAG_PROGRESS_EVERY", "1ms")
	args := []string{"hunt", "--seed", "1", "--iterations", "60", "--max-ops", "20", "--check", "legacy", "--out", ""}
	var stdout, stderr bytes.Buffer
	if code := run(args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	progress := regexp.MustCompile(`(?m)^hunt: [0-9,]+ scripts \([0-9.]+/s\), 0 findings, 0 distinct failures, [0-9a-z.]+, (about [0-9a-z.]+ left|time left unknown)$`)
	if !progress.MatchString(stderr.String()) || strings.Contains(stdout.String(), "/s)") {
		t.Errorf("no progress line on stderr:\n%s", stderr.String())
	}
	stderr.Reset()
	if code := run(append(args, "--quiet"), &stdout, &stderr); code != 0 || progress.MatchString(stderr.String()) {
		t.Errorf("--quiet: exit %d, progress:\n%s", code, stderr.String())
	}

	start := time.Now()
	code, out := runCmd(t, "hunt", "--seed", "1", "--minutes", "5", "--max-ops", "30", "--check", "target", "--out", t.TempDir(), "--impl", overclaiming(), "--stop", "--quiet")
	if code != 1 || !strings.Contains(out, "stopped at the first distinct failure (--stop)") || time.Since(start) > 2*time.Minute {
		t.Fatalf("--stop: exit %d after %s, want 1 soon, saying it stopped\n%s", code, time.Since(start), out)
	}
}
