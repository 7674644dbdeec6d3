package props

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"sessiondag/checker/exhaust"
	"sessiondag/checker/harness"
	"sessiondag/checker/hunt"
	"sessiondag/ops"
)

// sayAfterReload is a planted failure: a `say` anywhere after a `reload`.
var sayAfterReload = harness.Check{Name: "say-after-reload", Prop: "test", Doc: "a say after a reload",
	Data: []harness.Data{harness.OffAny}, ReadsScript: true, Run: func(s *harness.Session) *harness.Finding {
		reloaded := false
		for _, op := range s.Script {
			switch op.(type) {
			case ops.Reload:
				reloaded = true
			case ops.Say:
				if reloaded {
					return &harness.Finding{What: "a say after a reload"}
				}
			}
		}
		return nil
	}}

// TestDriversSaveOneScript: the same bug found by the property suite, by
// hunt and by exhaust is saved as the same reduced script under the same
// name: every driver reduces through campaign.Reduce and saves through
// campaign.Save.
func TestDriversSaveOneScript(t *testing.T) {
	inProcessOnly(t, "a planted check of the drivers in this repository")
	// Not parallel: it turns off rapid's fail files while the parallel tests
	// wait for the sequential ones to end.
	prev := flag.Lookup("rapid.nofailfile").Value.String()
	must(t, flag.Set("rapid.nofailfile", "true"))
	defer flag.Set("rapid.nofailfile", prev)

	byProps := t.TempDir()
	rec := &recorder{name: "planted"}
	rapid.Check(rec, func(rt *rapid.T) { machine(rt, rec.name, sayAfterReload, harness.OffAny, nil) })
	found.Lock()
	x, ok := found.last[rec.name]
	delete(found.last, rec.name)
	found.Unlock()
	if !rec.failed || !ok {
		t.Fatal("the property suite did not find the planted failure")
	}
	path, _, err := saveOne(byProps, rec.name, x)
	must(t, err)

	byHunt := t.TempDir()
	_, err = hunt.Run(context.Background(), hunt.Config{Seed: 1, Iterations: 60, MaxOps: 30, Out: byHunt,
		Targets: []harness.Check{sayAfterReload}})
	must(t, err)

	byExhaust := t.TempDir()
	_, fails, err := exhaust.Run(exhaust.Options{MaxOps: 4, Kinds: []string{"user", "reply", "say", "done", "reload"},
		Checks: []harness.Check{sayAfterReload}, MaxReduced: 1000})
	must(t, err)
	for _, f := range fails {
		_, err := f.Save(byExhaust)
		must(t, err)
	}

	name := filepath.Base(path)
	want := scriptOf(t, path)
	for dir, by := range map[string]string{byHunt: "hunt", byExhaust: "exhaust"} {
		names := savedNames(t, dir)
		if !slices.Contains(names, name) {
			t.Fatalf("%s saved %v; the property suite saved %s:\n%s", by, names, name, want)
		}
		if got := scriptOf(t, filepath.Join(dir, name)); got != want {
			t.Errorf("%s saved\n%s\nthe property suite saved\n%s", by, got, want)
		}
	}
}

// scriptOf is a saved file's directives and ops, without the comment lines
// that say who found it and how.
func scriptOf(t *testing.T, path string) string {
	b, err := os.ReadFile(path)
	must(t, err)
	var out strings.Builder
	for line := range strings.Lines(string(b)) {
		if !strings.HasPrefix(line, "# ") {
			out.WriteString(line)
		}
	}
	return out.String()
}

func savedNames(t *testing.T, dir string) []string {
	files, err := filepath.Glob(filepath.Join(dir, "*.ops"))
	must(t, err)
	var out []string
	for _, f := range files {
		out = append(out, filepath.Base(f))
	}
	return out
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// recorder is a rapid.TB that keeps a property's failure instead of
// failing the test that runs it.
type recorder struct {
	name   string
	failed bool
}

func (r *recorder) Helper()               {}
func (r *recorder) Name() string          { return r.name }
func (r *recorder) Logf(string, ...any)   {}
func (r *recorder) Log(...any)            {}
func (r *recorder) Skipf(string, ...any)  { panic("skip in a recorded check") }
func (r *recorder) Skip(...any)           { panic("skip in a recorded check") }
func (r *recorder) SkipNow()              { panic("skip in a recorded check") }
func (r *recorder) Errorf(string, ...any) { r.failed = true }
func (r *recorder) Error(...any)          { r.failed = true }
func (r *recorder) Fatalf(string, ...any) { r.failed = true }
func (r *recorder) Fatal(...any)          { r.failed = true }
func (r *recorder) FailNow()              { r.failed = true }
func (r *recorder) Fail()                 { r.failed = true }
func (r *recorder) Failed() bool          { return r.failed }
