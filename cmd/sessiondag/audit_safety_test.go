package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// copySession copies the files of a session directory (one level of
// subdirectories: history/).
func copySession(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.Walk(src, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if fi.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestAuditHTMLNeverWritesIntoASession: --html naming a file inside a
// session directory the audit reads — a node file, meta.json, a new file
// in history/, or a link from outside that leads into one — is refused
// before anything is read or written, and every file stays as it was.
func TestAuditHTMLNeverWritesIntoASession(t *testing.T) {
	root := t.TempDir()
	sess := filepath.Join(root, "s")
	copySession(t, filepath.Join("..", "..", "corpus", "sessions", "01-plain-web-chat"), sess)
	nodes, _ := filepath.Glob(filepath.Join(sess, "history", "*.json"))
	link := filepath.Join(t.TempDir(), "page.html")
	if err := os.Symlink(filepath.Join(sess, "meta.json"), link); err != nil {
		t.Fatal(err)
	}
	before := map[string][]byte{}
	for _, p := range append(nodes, filepath.Join(sess, "meta.json")) {
		before[p], _ = os.ReadFile(p)
	}
	for _, page := range []string{nodes[0], filepath.Join(sess, "meta.json"), filepath.Join(sess, "history", "page.html"), filepath.Join(sess, "page.html"), link} {
		var out, errb bytes.Buffer
		code := run([]string{"audit", root, "--html", page}, &out, &errb)
		if code != 2 || !strings.Contains(errb.String(), "inside the session directory") {
			t.Errorf("--html %s: exit %d, stderr %q", page, code, errb.String())
		}
	}
	for p, b := range before {
		if now, _ := os.ReadFile(p); !bytes.Equal(now, b) {
			t.Errorf("%s changed", p)
		}
	}
	if _, err := os.Stat(filepath.Join(sess, "page.html")); err == nil {
		t.Error("a page was written into the session")
	}
	// Beside the sessions, in the tree's root, is fine.
	var out, errb bytes.Buffer
	if code := run([]string{"audit", root, "--html", filepath.Join(root, "audit.html")}, &out, &errb); code != 0 {
		t.Errorf("--html beside the session: exit %d: %s", code, errb.String())
	}
}

// TestAuditTextIsTerminalSafe: ids, the session id, file names and text
// from a session reach the text report escaped: no escape sequence, no
// control character, no bidirectional override is printed raw.
func TestAuditTextIsTerminalSafe(t *testing.T) {
	root := t.TempDir()
	sess := filepath.Join(root, "s\x1b[2Jdir")
	copySession(t, filepath.Join("..", "..", "corpus", "sessions", "01-plain-web-chat"), sess)
	meta := map[string]any{}
	b, _ := os.ReadFile(filepath.Join(sess, "meta.json"))
	if err := json.Unmarshal(b, &meta); err != nil {
		t.Fatal(err)
	}
	meta["id"] = "local_\x1b]52;c;SGVsbG8=\a\u202eevil"
	b, _ = json.Marshal(meta)
	os.WriteFile(filepath.Join(sess, "meta.json"), b, 0o644)
	// An extra node, unreadable (a cut-off file whose name carries an
	// escape), so that the file name is reported too.
	os.WriteFile(filepath.Join(sess, "history", "0099-u-\x1b[1mx.json"), []byte(`{"id": "x\u001b[31m"`), 0o644)
	os.Remove(filepath.Join(sess, "session.ops"))
	var out, errb bytes.Buffer
	run([]string{"audit", root, "-v"}, &out, &errb)
	text := out.String() + errb.String()
	if !strings.Contains(text, "BROKEN") {
		t.Fatalf("the damaged session is not reported:\n%s", text)
	}
	for _, bad := range []string{"\x1b", "\a", "\u202e"} {
		if strings.Contains(text, bad) {
			t.Errorf("the report prints %q raw:\n%s", bad, text)
		}
	}
	if !strings.Contains(text, `\x1b`) {
		t.Errorf("the escape is not shown escaped:\n%s", text)
	}
}
