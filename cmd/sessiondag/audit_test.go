package main

import (
	"bytes"
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
