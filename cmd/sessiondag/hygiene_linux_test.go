package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// leaveGroupEnv makes this test binary a descendant of an implementation
// that leaves its process group (as a job-control shell's job does) but
// keeps its session, and sleeps.
const leaveGroupEnv = "SESSIONDAG_TEST_LEAVE_GROUP"

// markEnv marks every process of one run of the tool: the tool, the
// implementation and everything they start inherit it.
const markEnv = "SESSIONDAG_TEST_MARK"

func init() {
	if _, ok := os.LookupEnv(leaveGroupEnv); ok {
		syscall.Setpgid(0, 0)
		time.Sleep(time.Hour)
		os.Exit(0)
	}
}

// spawning is an implementation that starts two background children
// before it serves (inner: the server, `sessiondag serve` with args, or
// any command reading stdin and writing stdout): `sleep 1000 &`, which
// stays in its process group, and a child that leaves the group and keeps
// the session.
func spawning(inner string) string {
	return "sleep 1000 & " + leaveGroupEnv + "=1 '" + os.Args[0] + "' & " + inner
}

// marked lists the live processes (not zombies) whose environment holds
// the mark.
func marked(t *testing.T, mark string) []string {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	want := []byte(markEnv + "=" + mark + "\x00")
	var out []string
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		env, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
		if err != nil || !bytes.Contains(env, want) {
			continue
		}
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if i := bytes.LastIndexByte(stat, ')'); err != nil || i < 0 || i+2 >= len(stat) || stat[i+2] == 'Z' {
			continue
		}
		cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		out = append(out, fmt.Sprintf("%d %s", pid, bytes.ReplaceAll(cmdline, []byte{0}, []byte{' '})))
	}
	return out
}

// hygieneRun is one run of the tool as a process, its temporary
// directory its own (TMPDIR), every process it starts marked.
type hygieneRun struct {
	t          *testing.T
	mark, tmp  string
	cmd        *exec.Cmd
	out        bytes.Buffer
	exited     chan struct{}
	code       int
	processErr error
}

func startTool(t *testing.T, args ...string) *hygieneRun {
	t.Helper()
	r := &hygieneRun{t: t, mark: fmt.Sprintf("%s-%d", t.Name(), time.Now().UnixNano()), tmp: filepath.Join(t.TempDir(), "tmp"),
		exited: make(chan struct{})}
	if err := os.Mkdir(r.tmp, 0o755); err != nil {
		t.Fatal(err)
	}
	r.cmd = exec.Command(os.Args[0], args...)
	r.cmd.Env = append(os.Environ(), toolEnv+"=1", markEnv+"="+r.mark, "TMPDIR="+r.tmp)
	r.cmd.Stdout, r.cmd.Stderr = &r.out, &r.out
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		r.processErr = r.cmd.Wait()
		r.code = r.cmd.ProcessState.ExitCode()
		close(r.exited)
	}()
	t.Cleanup(func() {
		r.cmd.Process.Kill()
		<-r.exited
		for _, p := range marked(t, r.mark) {
			if pid, err := strconv.Atoi(strings.Fields(p)[0]); err == nil {
				syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	})
	return r
}

// waitFor waits until ok holds, failing the test after d.
func (r *hygieneRun) waitFor(what string, d time.Duration, ok func() bool) {
	r.t.Helper()
	for end := time.Now().Add(d); !ok(); time.Sleep(20 * time.Millisecond) {
		select {
		case <-r.exited:
			r.t.Fatalf("the tool exited (%d) before %s:\n%s", r.code, what, r.out.String())
		default:
		}
		if time.Now().After(end) {
			r.t.Fatalf("no %s within %s:\n%s", what, d, r.out.String())
		}
	}
}

// busy waits until the implementation and its children run (the tool and
// at least three more processes: the server and its two children) and a
// session directory is made.
func (r *hygieneRun) busy() {
	r.t.Helper()
	r.waitFor("implementation with its children and a session directory", 60*time.Second, func() bool {
		dirs, _ := filepath.Glob(filepath.Join(r.tmp, "sessiondag-impl-*"))
		return len(marked(r.t, r.mark)) >= 4 && len(dirs) > 0
	})
}

// ended waits for the tool's exit, wants code, and wants nothing it
// started alive and nothing left in its temporary directory.
func (r *hygieneRun) ended(code int) {
	r.t.Helper()
	select {
	case <-r.exited:
	case <-time.After(90 * time.Second):
		r.t.Fatalf("the tool did not exit:\n%s", r.out.String())
	}
	if r.code != code {
		r.t.Errorf("exit %d, want %d", r.code, code)
	}
	// A killed process is gone at once, but give a loaded machine a moment.
	var left []string
	for end := time.Now().Add(3 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if left = marked(r.t, r.mark); len(left) == 0 || time.Now().After(end) {
			break
		}
	}
	if len(left) > 0 {
		r.t.Errorf("%d processes left running:\n  %s", len(left), strings.Join(left, "\n  "))
	}
	entries, err := os.ReadDir(r.tmp)
	if err != nil {
		r.t.Fatal(err)
	}
	for _, e := range entries {
		r.t.Errorf("left in the temporary directory: %s", e.Name())
	}
	if r.t.Failed() {
		r.t.Logf("output:\n%s", r.out.String())
	}
}

// TestNothingOutlivesTheHarness: an implementation and everything it
// starts — a background child in its process group, one that left the
// group but kept the session — end, and the session directories the
// harness made are removed, whichever way replay, hunt and exhaust end:
// a normal end (bye; each of the three), a deadline, a refused handshake, Ctrl-C (SIGINT to
// the tool, exit 130) or SIGTERM (exit 130 too).
func TestNothingOutlivesTheHarness(t *testing.T) {
	shape := filepath.Join("..", "..", "corpus", "ops", "shapes", "01-plain-web-chat.ops")
	hangsAfter := func(n int) string { return "{ sed -u " + strconv.Itoa(n) + "q; sleep 1000; } | " + served("") }
	for _, c := range []struct {
		name   string
		args   []string
		signal os.Signal // sent once the implementation is busy; nil: none
		code   int
	}{
		{"replay, normal end", []string{"replay", shape, "--impl", spawning(served(""))}, nil, 0},
		{"replay, deadline", []string{"replay", shape, "--check", "legacy", "--impl", spawning(hangsAfter(5)), "--impl-timeout", "2"}, nil, 1},
		{"replay, handshake refused", []string{"replay", shape, "--impl", spawning(`echo '{"type":"hello","protocol":9}'; sleep 1000`)}, nil, 2},
		{"replay, Ctrl-C", []string{"replay", shape, "--impl", spawning(hangsAfter(5)), "--impl-timeout", "600"}, os.Interrupt, 130},
		{"hunt, normal end", []string{"hunt", "--seed", "1", "--iterations", "3", "--max-ops", "10", "--check", "legacy", "--out", "", "--impl", spawning(served(""))}, nil, 0},
		{"hunt, Ctrl-C", []string{"hunt", "--seed", "1", "--minutes", "10", "--max-ops", "20", "--check", "legacy", "--out", "", "--impl", spawning(served(""))}, os.Interrupt, 130},
		{"exhaust, normal end", []string{"exhaust", "--max-ops", "1", "--workers", "2", "--check", "legacy", "--quiet", "--out", "", "--impl", spawning(served(""))}, nil, 0},
		{"exhaust, Ctrl-C", []string{"exhaust", "--max-ops", "4", "--workers", "2", "--check", "legacy", "--out", "", "--impl", spawning(served(""))}, os.Interrupt, 130},
		{"exhaust, SIGTERM", []string{"exhaust", "--max-ops", "4", "--workers", "2", "--check", "legacy", "--out", "", "--impl", spawning(served(""))}, syscall.SIGTERM, 130},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := startTool(t, c.args...)
			if c.signal != nil {
				r.busy()
				if err := r.cmd.Process.Signal(c.signal); err != nil {
					t.Fatal(err)
				}
			}
			r.ended(c.code)
		})
	}
}
