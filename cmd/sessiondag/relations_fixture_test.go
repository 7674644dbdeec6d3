package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"pgregory.net/rapid"

	"sessiondag/audit"
)

// fixture is a drawn tree on disk and the reviewed file drawn from its
// first audit's findings.
type fixture struct {
	spec    treeSpec
	root    string // the tree
	scratch string // beside it: pages, JSON lines, exceptions files
	tops    []string
	base    jsonRun // the audit without exceptions
	excs    []audit.Exception
	xfile   string   // the exceptions file ("" when none was drawn)
	audit   []string // "audit ROOT [--exceptions FILE]"
}

// drawFixture writes a drawn tree of at most most sessions (links and a
// loop when extras) and, when exceptions, a reviewed file drawn from its
// findings.
func drawFixture(t *rapid.T, most int, extras, exceptions bool) *fixture {
	t.Helper()
	base, err := os.MkdirTemp("", "sessiondag-relations-")
	if err != nil {
		t.Fatalf("temp dir: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	f := &fixture{spec: drawTree(t, most, extras), root: filepath.Join(base, "tree"), scratch: filepath.Join(base, "out")}
	if err := os.MkdirAll(f.scratch, 0o755); err != nil {
		t.Fatalf("%v", err)
	}
	if f.tops, err = f.spec.write(f.root, f.spec.place); err != nil {
		t.Fatalf("writing the tree: %v", err)
	}
	r := cli("audit", f.root, "--json")
	if r.code == 2 {
		t.Fatalf("%s", r)
	}
	if f.base, err = parseJSON(r.out); err != nil {
		t.Fatalf("%v\n%s", err, r)
	}
	f.audit = []string{"audit", f.root}
	if exceptions {
		f.excs = drawExceptions(t, f.base.Decoded)
	}
	if len(f.excs) > 0 {
		if f.xfile, err = writeExceptions(f.scratch, f.excs); err != nil {
			t.Fatalf("%v", err)
		}
		f.audit = append(f.audit, "--exceptions", f.xfile)
	}
	return f
}

// with is the audit's arguments and more.
func (f *fixture) with(more ...string) []string {
	return append(append([]string(nil), f.audit...), more...)
}

// secondsRe and jsonSecondsRe are the time a run took, the one thing two
// runs of the same input may print differently.
var (
	secondsRe     = regexp.MustCompile(`nodes in [0-9.]+s \(`)
	jsonSecondsRe = regexp.MustCompile(`"seconds":[-+0-9.eE]+`)
)

// sameButTime is out with its run time blanked.
func sameButTime(out string) string {
	return jsonSecondsRe.ReplaceAllString(secondsRe.ReplaceAllString(out, "nodes in Ns ("), `"seconds":0`)
}

// lines is text split in lines, without the empty last one.
func lines(text string) []string { return strings.Split(strings.TrimSuffix(text, "\n"), "\n") }
