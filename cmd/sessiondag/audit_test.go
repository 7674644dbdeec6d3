package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAuditWritesPage: --html writes the page; -v lists the rows a step
// adds.
func TestAuditWritesPage(t *testing.T) {
	page := filepath.Join(t.TempDir(), "audit.html")
	var out, errb bytes.Buffer
	corpus := filepath.Join("..", "..", "corpus", "sessions")
	if code := run([]string{"audit", corpus, "-v", "--html", page}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(b), "<!DOCTYPE html>") || !strings.Contains(string(b), "10-two-root-users-L4") {
		t.Errorf("page: %.300s", b)
	}
	if !strings.Contains(out.String(), `+ 0a0b0c0d0e01 user "hello"`) {
		t.Errorf("-v does not list L4's added rows:\n%s", out.String())
	}
}

// TestAuditProgressOnStderr: run as a process (stderr a file, here a
// pipe, not a terminal), the audit writes plain progress lines to stderr
// (every nanosecond here, SESSIONDAG_PROGRESS_EVERY) and nothing of it to
// stdout.
func TestAuditProgressOnStderr(t *testing.T) {
	t.Setenv("SESSIONDAG_PROGRESS_EVERY", "1ns")
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan string)
	go func() {
		b, _ := io.ReadAll(r)
		got <- string(b)
	}()
	var out bytes.Buffer
	code := run([]string{"audit", filepath.Join("..", "..", "corpus", "sessions")}, &out, w)
	w.Close()
	stderr := <-got
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"audit: walking the tree: ", "sessions/s", "nodes/s", "left\n"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%.2000s", want, stderr)
		}
	}
	if strings.Contains(out.String(), "sessions/s") || strings.Contains(stderr, "\r") {
		t.Error("progress on stdout, or redrawn off a terminal")
	}
}

// TestAuditInterrupted: an audit stopped by Ctrl-C says so and gives no
// verdict (exit 130).
func TestAuditInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	old := interrupt
	interrupt = ctx
	defer func() { interrupt = old }()
	var out, errb bytes.Buffer
	code := run([]string{"audit", filepath.Join("..", "..", "corpus", "sessions")}, &out, &errb)
	if code != exitInterrupted || !strings.Contains(errb.String(), "sessiondag audit: interrupted") || strings.Contains(out.String(), "ready") {
		t.Errorf("exit %d\n--- stdout\n%s--- stderr\n%s", code, out.String(), errb.String())
	}
}
