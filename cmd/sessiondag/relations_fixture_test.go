package main

import (
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

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

// shape is what a fixture's tree holds besides its drawn sessions.
type shape struct {
	most       int  // sessions drawn, at most
	extras     bool // links to sessions, and a link the walk cannot read
	exceptions bool // a reviewed file drawn from the findings
	regression bool // a plain chat whose turn is cut off: a regression
}

// drawFixture writes a drawn tree of the shape and, when asked, a
// reviewed file drawn from its findings.
func drawFixture(t *rapid.T, sh shape) *fixture {
	t.Helper()
	base, err := os.MkdirTemp("", "sessiondag-relations-")
	if err != nil {
		t.Fatalf("temp dir: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	f := &fixture{spec: drawTree(t, sh.most, sh.extras), root: filepath.Join(base, "tree"), scratch: filepath.Join(base, "out")}
	if sh.regression {
		f.spec.Sessions = append(f.spec.Sessions, sessionSpec{Kind: cutChat, On: true,
			Seed:   uint64(len(f.spec.Sessions))*1000 + rapid.Uint64Range(1, 999).Draw(t, "cut chat seed"),
			Nodes:  rapid.IntRange(0, 3).Draw(t, "cut chat turns"),
			Script: rapid.Bool().Draw(t, "cut chat script"),
			Damage: 8 + rapid.Uint64Range(0, 7).Draw(t, "cut turn"), // a row no file has
			Folder: rapid.IntRange(0, 2).Draw(t, "cut chat folder")})
	}
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
	if sh.exceptions {
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

// reach counts, over the cases of a property, how many reached each
// situation it is about, and logs it (go test -v): a relation that never
// meets an accepted finding says nothing about accepting one.
type reach map[string]int

func (r reach) add(what string, yes bool) {
	if yes {
		r[what]++
	}
}

func (r reach) log(t *testing.T) {
	keys := slices.Sorted(maps.Keys(r))
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s: %d", k, r[k]))
	}
	t.Logf("cases reaching each situation: %s", strings.Join(parts, ", "))
}

// RelationChecks is how many generated trees each relation of the audit
// (relations_*_test.go) checks in a plain `go test`: each case audits a
// tree of a few small sessions several times, some 40 ms of processor time
// on the 2-core CI machine, and the planted bug of each relation is found
// within that many (docs/mutants.md). SESSIONDAG_RELATION_CHECKS, or
// -rapid.checks / RAPID_CHECKS, sets another number.
const RelationChecks = 20

// relationChecks sets rapid's number of cases for this package's tests
// (the relations are its only properties) unless the run gives its own.
func relationChecks() error {
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "rapid.checks" })
	if _, ok := os.LookupEnv("RAPID_CHECKS"); ok || given {
		return nil
	}
	n := strconv.Itoa(RelationChecks)
	if v, ok := os.LookupEnv("SESSIONDAG_RELATION_CHECKS"); ok {
		if _, err := strconv.Atoi(v); err != nil {
			return fmt.Errorf("SESSIONDAG_RELATION_CHECKS=%q: not a number", v)
		}
		n = v
	}
	return flag.Set("rapid.checks", n)
}
